#!/usr/bin/env node
// `npm run build`, also run by `npm install` (prepare), `npm start`, `npm test` and `npm run bench`:
// compiles src/ into dist/ with tsc (emit only: `npm run typecheck` checks the types), copies what tsc
// does not emit (stylesheets, browser scripts, .mjs entry files), and stamps the build with the time it
// started, which bin/pvs.mjs compares with the sources'. The new build is made beside the old one and
// swapped in, so a process starting meanwhile never sees half a dist/.
// --if-stale: do nothing when dist/ is already a build of the sources.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildState, root } from '../bin/build-state.mjs';

const state = buildState();
if (process.argv.includes('--if-stale') && state.state === 'fresh') process.exit(0);
// Said before the seconds tsc takes, so that `npm start` after a pull does not sit silent.
console.error(`build: compiling src/ into dist/${state.state === 'stale' ? ` (${state.file} changed)` : ''}…`);

const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  console.error('build: TypeScript is not installed (a dev dependency): run `npm install` without --omit=dev');
  process.exit(1);
}

const startedAt = Date.now();
const dist = path.join(root, 'dist');
const next = path.join(root, `dist.next-${process.pid}`);
const old = path.join(root, `dist.old-${process.pid}`);
rmSync(next, { recursive: true, force: true });
const compiled = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit' });
if (compiled.status !== 0) {
  rmSync(next, { recursive: true, force: true });
  console.error('build: tsc failed');
  process.exit(1);
}
const source = path.join(root, 'src');
for (const entry of readdirSync(source, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || /\.(ts|md)$/.test(entry.name)) continue;
  const from = path.join(entry.parentPath ?? entry.path, entry.name);
  cpSync(from, path.join(next, path.relative(source, from)));
}
writeFileSync(path.join(next, 'build.json'), `${JSON.stringify({ startedAt, builtAt: Date.now() })}\n`);
if (existsSync(dist)) renameSync(dist, old);
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });
console.error(`build: dist/ in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
