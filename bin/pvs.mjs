#!/usr/bin/env node
// The `pvs` executable. The service runs its TypeScript sources through tsx's loader,
// so there is no build step between a clone and a running service.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
