// The package is the artifact: `npm pack` of this checkout, installed with `npm install --omit=dev` into
// an empty folder, runs `npx pvs serve` on its embedded database and answers /ready. Packing and
// installing do not depend on the database back-end, so this runs in the PGlite pass only.
// test-pass: pglite
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort, sleep } from '../helpers/cli.ts';
import { backend } from '../helpers/database.ts';

// The checkout itself: a compiled run's tree (.test-build/, scripts/compile-tests.mjs) only links to it.
const project = path.dirname(realpathSync(fileURLToPath(new URL('../../package.json', import.meta.url))));
const skip = backend === 'postgres' && 'the package does not depend on the database back-end: PGlite pass only';

interface PackedFile {
  path: string;
}

describe('the npm package', { skip }, () => {
  let dir: string;
  let tarball: string;
  let files: string[];

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-package-'));
    // dist/ is built (npm test builds it when stale); packing must not rebuild it under the other
    // tests' feet, so the prepare script is skipped here.
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: project, encoding: 'utf8' });
    assert.equal(packed.status, 0, packed.stderr);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: PackedFile[] }>;
    tarball = path.join(dir, info!.filename);
    files = info!.files.map((f) => f.path);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('holds what runs and nothing of the sources, tests or bench', () => {
    for (const needed of ['bin/pvs.mjs', 'bin/build-state.mjs', 'dist/main.js', 'dist/build.json', 'dist/web/assets/app.css', 'dist/web/hosted/assets/hosted.css', 'migrations/0001_foundation.sql', 'fixtures/screening/opensanctions-targets.simple.csv', 'sdk/verify-webhook.js', 'package.json']) {
      assert.ok(files.includes(needed), `${needed} is in the package`);
    }
    const unwanted = files.filter((f) => /^(src|test|bench|scripts)\//.test(f) || /\.test\.(js|ts)$/.test(f) || /(^|\/)\.env/.test(f));
    assert.deepEqual(unwanted, []);
  });

  it('installs with --omit=dev into an empty folder and serves /ready on its embedded database', async () => {
    const site = path.join(dir, 'site');
    mkdirSync(site);
    // From npm's cache where it can (CI's `npm ci` filled it); the registry otherwise.
    const install = spawnSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: site, encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    const installed = JSON.parse(readFileSync(path.join(site, 'node_modules', 'pvs', 'package.json'), 'utf8')) as { name: string };
    assert.equal(installed.name, 'pvs');
    assert.throws(() => readFileSync(path.join(site, 'node_modules', 'typescript', 'package.json')), 'no dev dependency was installed');

    const port = await freePort();
    const env = { PATH: process.env.PATH ?? '', DATA_DIR: path.join(site, 'data'), PORT: String(port), LOG_LEVEL: 'warn', METRICS_ADDRESS: '127.0.0.1:0' };
    // Its own process group: npx runs pvs as a grandchild, and the signal must reach it.
    const server = spawn('npx', ['--no-install', 'pvs', 'serve'], { cwd: site, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    server.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise((resolve) => server.once('close', resolve));
    try {
      // A first start migrates a new embedded database: on a busy 2-core machine that has taken over 30 s.
      let status = 0;
      const deadline = Date.now() + 150_000;
      while (Date.now() < deadline && status !== 200 && server.exitCode === null) {
        status = await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.status, () => 0);
        if (status !== 200) await sleep(100);
      }
      assert.equal(status, 200, output);
      assert.match(output, /PVS running in sandbox on embedded PGlite/);
      assert.match(output, /A demo partner was created/);
    } finally {
      process.kill(-server.pid!, 'SIGTERM');
      await exited;
    }
  });
});
