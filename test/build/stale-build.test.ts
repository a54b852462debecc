// The build and its guard, on a copy of the project's own build files around a one-file program: a
// checkout that was never built, or whose sources changed since, never runs dist/ silently.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const project = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;

function node(...args: string[]) {
  const result = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function writeMain(body: string) {
  const file = path.join(dir, 'src', 'main.ts');
  writeFileSync(file, body);
}

describe('the build and the stale-build guard', () => {
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-build-'));
    for (const file of ['package.json', 'bin/pvs.mjs', 'bin/build-state.mjs', 'scripts/build.mjs', 'tsconfig.json', 'tsconfig.build.json']) {
      cpSync(path.join(project, file), path.join(dir, file));
    }
    symlinkSync(path.join(project, 'node_modules'), path.join(dir, 'node_modules'));
    mkdirSync(path.join(dir, 'src', 'web', 'assets'), { recursive: true });
    writeFileSync(path.join(dir, 'src', 'web', 'assets', 'app.css'), 'body { margin: 0 }\n');
    writeFileSync(path.join(dir, 'src', 'greeting.ts'), "export const greeting: string = 'first build';\n");
    writeMain("import { greeting } from './greeting.ts';\nprocess.stdout.write(`${greeting}\\n`);\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a checkout that was never built stops with what to run', () => {
    const run = node('bin/pvs.mjs');
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /^pvs: PVS is not built yet \(no dist\/\): run `npm run build`/);
  });

  it('the build compiles src/ with its .ts imports rewritten, copies the assets, and the bin runs it', () => {
    const build = node('scripts/build.mjs');
    assert.equal(build.code, 0, build.stderr);
    assert.match(readFileSync(path.join(dir, 'dist', 'main.js'), 'utf8'), /from "\.\/greeting\.js"/);
    assert.equal(readFileSync(path.join(dir, 'dist', 'web', 'assets', 'app.css'), 'utf8'), 'body { margin: 0 }\n');
    assert.deepEqual(node('bin/pvs.mjs'), { code: 0, stdout: 'first build\n', stderr: '' });
  });

  it('a source changed after the build stops the bin, naming the file', () => {
    writeFileSync(path.join(dir, 'src', 'greeting.ts'), "export const greeting: string = 'second build';\n");
    const run = node('bin/pvs.mjs');
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '', 'the old build did not run');
    assert.match(run.stderr, /^pvs: src\/greeting\.ts changed after the last build: run `npm run build`/);
  });

  it('a README or a test edited under src/ leaves the build fresh: neither is built', () => {
    const build = node('scripts/build.mjs');
    assert.equal(build.code, 0, build.stderr);
    writeFileSync(path.join(dir, 'src', 'README.md'), '# notes\n');
    writeFileSync(path.join(dir, 'src', 'greeting.test.ts'), "import { greeting } from './greeting.ts';\nvoid greeting;\n");
    assert.equal(node('bin/pvs.mjs').code, 0);
    // The source edited before this test is built now; make it stale again for the next one.
    writeFileSync(path.join(dir, 'src', 'greeting.ts'), "export const greeting: string = 'second build';\n");
  });

  it('--if-stale rebuilds a stale build, and leaves a fresh one alone', () => {
    assert.equal(node('scripts/build.mjs', '--if-stale').code, 0);
    assert.deepEqual(node('bin/pvs.mjs'), { code: 0, stdout: 'second build\n', stderr: '' });
    // A stamp is only written by a build: an untouched one means nothing ran.
    const stamp = readFileSync(path.join(dir, 'dist', 'build.json'), 'utf8');
    const again = node('scripts/build.mjs', '--if-stale');
    assert.equal(again.code, 0);
    assert.equal(again.stderr, '');
    assert.equal(readFileSync(path.join(dir, 'dist', 'build.json'), 'utf8'), stamp);
  });

  it("a stack trace names the TypeScript file and line, through the build's source maps", () => {
    writeMain("// line 1\n\nfunction fail(): never {\n  throw new Error('boom');\n}\nfail();\n");
    assert.equal(node('scripts/build.mjs').code, 0);
    const run = node('bin/pvs.mjs');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Error: boom\n\s+at fail \(\S*src\/main\.ts:4:9\)/);
  });
});
