#!/usr/bin/env node
// Builds the package into dist/: ESM with declarations in dist/esm, CommonJS with declarations in
// dist/cjs (a package.json there says so to Node and TypeScript). Uses the repository's TypeScript;
// the package has no dependencies at run time.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// --out-dir DIR builds elsewhere (sdk/test/package.test.ts builds into a temporary package); default dist/.
const outArg = process.argv.indexOf('--out-dir');
const out = outArg === -1 ? path.join(root, 'dist') : path.resolve(process.argv[outArg + 1]);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function compile(args) {
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', ...args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

rmSync(out, { recursive: true, force: true });
compile(['--outDir', path.join(out, 'esm')]);
// verbatimModuleSyntax forbids `import` in a CommonJS file; the ESM build above has already checked it.
compile(['--outDir', path.join(out, 'cjs'), '--module', 'commonjs', '--moduleResolution', 'node10', '--verbatimModuleSyntax', 'false']);
// tsc rewrites `./x.ts` to `./x.js` in the JavaScript but not in the declarations; a consumer's TypeScript
// without allowImportingTsExtensions refuses a `.ts` specifier, so the declarations get the same rewrite.
for (const entry of readdirSync(out, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = path.join(entry.parentPath ?? entry.path, entry.name);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2'));
}
mkdirSync(path.join(out, 'cjs'), { recursive: true });
writeFileSync(path.join(out, 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
process.stdout.write(`built ${path.join(out, 'esm')} and ${path.join(out, 'cjs')}\n`);
