#!/usr/bin/env node
// `npm test`: every *.test.ts under src/, test/ and sdk/ through Node's test runner. A run of many files
// runs them compiled (scripts/compile-tests.mjs says why); a run of a few runs the sources through tsx,
// which starts sooner than a compile. TEST_DATABASE=pglite (default) or postgres selects the back-end;
// extra arguments filter file paths; TEST_COMPILED=1 or 0 forces one way.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTests } from './compile-tests.mjs';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : find(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

// The tests run the sources through tsx, but the CLI tests run bin/pvs.mjs, which runs dist/: build it
// first when the sources changed since the last build.
const build = spawnSync(process.execPath, [fileURLToPath(new URL('./build.mjs', import.meta.url)), '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// Longest first: the run ends when its last file does, and a long file started late runs on alone while the
// other slots sit idle. test/durations.json holds the slow files' seconds in a full run, the longer of the
// two passes (refresh it from test-output/durations-<back-end>.json); the files it does not name follow by name.
const durations = JSON.parse(readFileSync(fileURLToPath(new URL('../test/durations.json', import.meta.url)), 'utf8'));

/** Whether `file`'s relative imports, followed through, reach a database (src/platform/db/ or the tests' database helper). */
function reachesDatabase(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  if (file.startsWith(path.join('src', 'platform', 'db') + path.sep) || file === path.join('test', 'helpers', 'database.ts')) return true;
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].some((m) => reachesDatabase(path.normalize(path.join(path.dirname(file), m[1])), seen));
}

const filters = process.argv.slice(2);
let files = ['src', 'test', 'sdk']
  .flatMap(find)
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
  .sort((a, b) => (durations[b] ?? 0) - (durations[a] ?? 0));
// A whole run on PostgreSQL leaves out the files that never reach a database: they ran in the PGlite pass,
// and each costs seconds of CPU just to start (CI's time limit counts both passes).
if (process.env.TEST_DATABASE === 'postgres' && filters.length === 0) {
  const databaseFree = files.filter((f) => !reachesDatabase(f));
  files = files.filter((f) => !databaseFree.includes(f));
  console.log(`${databaseFree.length} test files reach no database: they run in the PGlite pass only`);
}
// A whole run leaves out the browser suites when this is not their pass (test/helpers/browser.ts,
// BROWSER_TESTS_PASS): each would start, only to skip.
const browserPass = process.env.BROWSER_TESTS_PASS ?? 'pglite';
if (filters.length === 0 && (process.env.TEST_DATABASE ?? 'pglite') !== browserPass) {
  const browserSuites = files.filter((f) => readFileSync(f, 'utf8').includes('browserSkipReason()'));
  files = files.filter((f) => !browserSuites.includes(f));
  console.log(`${browserSuites.length} browser test files run in the ${browserPass} pass only`);
}
// A whole run leaves out the files that declare they belong to the other pass (`// test-pass: pglite` or
// `// test-pass: postgres`, for a file whose every test skips on the other back-end): each would start, and
// some run their `before` hooks, only to skip.
if (filters.length === 0) {
  const pass = process.env.TEST_DATABASE ?? 'pglite';
  const otherPass = files.filter((f) => /^\/\/ test-pass: (pglite|postgres)$/m.exec(readFileSync(f, 'utf8'))?.[1] === (pass === 'pglite' ? 'postgres' : 'pglite'));
  files = files.filter((f) => !otherPass.includes(f));
  console.log(`${otherPass.length} test files run in the other pass only`);
}
if (files.length === 0) {
  console.error('No test files matched');
  process.exit(1);
}
// TEST_CONCURRENCY: test files run at once. 3 by default on the 2-core CI machine: many test files wait on
// child processes, servers and timers, and a third keeps both cores busy. Measured on 2026-11-27, same
// machine, same tree: the PostgreSQL pass 678 s at 2, 456 s at 3; the PGlite pass 1 075 s at 3.
const concurrency = process.env.TEST_CONCURRENCY ?? '3';
// Past a dozen files the compile (about 20 s) costs less than tsx's start in every file.
const compiled = process.env.TEST_COMPILED ? process.env.TEST_COMPILED === '1' : files.length > 12;
let runner = ['--import', 'tsx'];
if (compiled) {
  const mirror = compileTests();
  files = files.map((f) => path.join(path.relative(process.cwd(), mirror), f.replace(/\.ts$/, '.js')));
  runner = [];
}
// --liftoff-only: V8 compiles WebAssembly with its baseline compiler only. Every test file on PGlite
// instantiates PGlite's 10 MB of WebAssembly, and the optimising tier recompiled all of it in background
// threads in every file, for queries that a short-lived file runs a few hundred of. Measured 2026-11-28 on
// test/verifications/ and test/lookups/ (19 files on PGlite): 300 CPU-s and 158 s without it, 212 and 109
// with it; the OCR and PDF suites (tesseract's WebAssembly) took the same time either way.
runner.push('--liftoff-only');
const result = spawnSync(
  process.execPath,
  [
    ...runner, '--test',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    // Where the time went: the slowest files, printed after the summary.
    `--test-reporter=${fileURLToPath(new URL('./test-timings.mjs', import.meta.url))}`, '--test-reporter-destination=stdout',
    `--test-concurrency=${concurrency}`, '--test-timeout=240000', ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
