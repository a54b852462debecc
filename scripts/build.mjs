#!/usr/bin/env node
// `npm run build`, also run by `npm install` (prepare), `npm start`, `npm test` and `npm run bench`:
// compiles src/ into dist/ with tsc (emit only: `npm run typecheck` checks the types), copies what tsc
// does not emit (stylesheets, browser scripts, .mjs entry files), bundles the API reference's client,
// and stamps the build with the time it started, which bin/pvs.mjs compares with the sources'. The new build is made beside the old one and
// swapped in, so a process starting meanwhile never sees half a dist/.
// --if-stale: do nothing when dist/ is already a build of the sources.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
// The API reference's client (src/web/docs/reference/client/): Redoc, React and styled-components for the
// browser, one file, with the versions the server renders with.
// Two changes to Redoc's browser build, each checked so that a new Redoc cannot skip them silently:
// - its side menu shows Redocly's logo from their CDN once it is live, and the page asks no other host for
//   anything (its policy would refuse it, but the reader's browser would still have tried): an empty
//   image fails at once and Redoc then leaves it out (the link "API docs by Redocly" stays);
// - the stylesheet its bundle adds (perfect-scrollbar's) carries webpack's nonce, which nothing sets:
//   it takes the page's from the csp-nonce meta element, as styled-components does.
const redoclyLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const styleNonce = /var t=(\w)\.nc;t&&e\.setAttribute\("nonce",t\)/;
const adaptRedoc = {
  name: 'adapt-redoc',
  setup(build) {
    build.onLoad({ filter: /[\\/]redoc[\\/]bundles[\\/]redoc\.(browser\.)?lib\.js$/ }, async (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes(redoclyLogo)) throw new Error(`Redoc no longer names ${redoclyLogo}: look again at what its menu loads`);
      if (!styleNonce.test(text)) throw new Error('Redoc no longer sets its stylesheet\'s nonce as it did: look again at how it adds styles');
      const contents = text
        .replaceAll(redoclyLogo, 'data:,')
        .replace(styleNonce, (_match, require) => `var t=${require}.nc||(document.querySelector('meta[property="csp-nonce"]')||{}).nonce;t&&e.setAttribute("nonce",t)`);
      return { contents, loader: 'js' };
    });
  },
};
// (A tree without the reference, as test/build/stale-build.test.ts builds, has nothing to bundle.)
const referenceClient = path.join(source, 'web/docs/reference/client/reference-client.mjs');
if (existsSync(referenceClient)) {
  try {
    const { build } = await import('esbuild');
    await build({
      entryPoints: [referenceClient],
      outfile: path.join(next, 'web/docs/reference/assets/reference-client.js'),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2020',
      minify: true,
      legalComments: 'linked',
      define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
      logLevel: 'warning',
      plugins: [adaptRedoc],
    });
  } catch (error) {
    rmSync(next, { recursive: true, force: true });
    console.error(`build: the reference client could not be bundled: ${error.message}`);
    process.exit(1);
  }
}
writeFileSync(path.join(next, 'build.json'), `${JSON.stringify({ startedAt, builtAt: Date.now() })}\n`);
if (existsSync(dist)) renameSync(dist, old);
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });
console.error(`build: dist/ in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
