// The worker render-reference.ts starts when it runs from source (tests, tsx): a worker thread does not
// inherit tsx's loader, so this registers it before loading the TypeScript worker. Compiled,
// render-reference.ts starts render-worker.js itself.
import { register } from 'tsx/esm/api';

register();
await import('./render-worker.ts');
