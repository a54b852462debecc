#!/usr/bin/env node
// The `pvs` executable. It runs the compiled JavaScript in dist/ (`npm install` builds it), with source
// maps on so that a stack trace names the TypeScript line. In a checkout whose sources changed since
// the last build it stops rather than run old code.
import { buildState } from './build-state.mjs';

const build = buildState();
if (build.state !== 'fresh') {
  const why = build.state === 'missing' ? 'PVS is not built yet (no dist/)' : `${build.file} changed after the last build`;
  process.stderr.write(`pvs: ${why}: run \`npm run build\` (npm install, npm start and npm test build too)\n`);
  process.exit(1);
}
process.setSourceMapsEnabled(true);
await import('../dist/main.js');
