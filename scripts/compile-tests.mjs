// A whole `npm test` runs compiled JavaScript, not the TypeScript through tsx: tsx's loader hooks run on
// a thread of their own and every import crosses to it, which cost each test file about 4 s of CPU just
// to start (measured 2026-11-28: a file making one request took 11 CPU-s under tsx and 7 compiled on
// PGlite, 6 and 3.6 on PostgreSQL), and CI's half hour counts about 230 files twice.
//
// The compiled tree is a mirror of the checkout in .test-build/: src/, test/ and sdk/ emitted by tsc (no
// type check: `npm run typecheck` does that), with what they import of bench/ and scripts/, beside hard
// links to every file of those five folders tsc does not emit (fixtures, .mjs entries, and the .ts sources
// themselves, which the crash tests start under tsx and some tests read), and links to everything else at
// the top. A path a test makes from import.meta.url therefore finds the same file it would in the
// checkout. The mirror is rebuilt only when a file under those folders (or a tsconfig) changed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const mirror = path.join(root, '.test-build');
/** What tsc compiles (tsconfig.test-build.json), with bench/ and scripts/, whose files tests import. */
const mirrored = ['src', 'test', 'sdk', 'bench', 'scripts'];
const inputs = ['tsconfig.json', 'tsconfig.test-build.json'];
const skipped = new Set(['node_modules', 'dist']);

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : filesUnder(full);
    return entry.isFile() ? [full] : [];
  });
}

/** A digest of every input's path, size and modification time: equal digests, same mirror. */
function inputsDigest(files) {
  const hash = createHash('sha256');
  for (const file of [...files, ...inputs.map((name) => path.join(root, name))]) {
    const s = statSync(file);
    hash.update(`${path.relative(root, file)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

function link(from, to) {
  mkdirSync(path.dirname(to), { recursive: true });
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** Builds .test-build/ when the sources changed since it was built; answers its path. */
export function compileTests() {
  const files = mirrored.flatMap((dir) => filesUnder(path.join(root, dir)));
  const digest = inputsDigest(files);
  const stamp = path.join(mirror, '.inputs');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return mirror;

  const startedAt = Date.now();
  console.error('test: compiling src/, test/ and sdk/ into .test-build/…');
  const next = `${mirror}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.test-build.json'), '--outDir', next], { stdio: 'inherit' });
  if (result.status !== 0) {
    rmSync(next, { recursive: true, force: true });
    throw new Error('test: tsc could not compile the tests');
  }
  for (const file of files) {
    const to = path.join(next, path.relative(root, file));
    if (!existsSync(to)) link(file, to);
  }
  for (const name of readdirSync(root)) {
    if (mirrored.includes(name) || name === '.git' || name.startsWith('.test-build')) continue;
    symlinkSync(path.join('..', name), path.join(next, name));
  }
  writeFileSync(path.join(next, '.inputs'), digest);
  rmSync(mirror, { recursive: true, force: true });
  renameSync(next, mirror);
  console.error(`test: .test-build/ in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  return mirror;
}
