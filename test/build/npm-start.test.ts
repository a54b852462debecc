// `npm start` as a newcomer meets it: it says what it is doing within its first line, before the slow
// part of a first start (creating the database, the demo partner, the list), and the banner follows;
// SIGTERM to npm (a process manager, `kill`, a closing terminal) stops the server and frees its port.
// test-pass: pglite
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { newSite, onPostgres, Pvs, sleep } from '../helpers/cli.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const skip = onPostgres && 'npm start runs on the embedded database, whatever the pass: PGlite pass only';

test('npm start speaks first, then serves; SIGTERM to npm stops the server and frees the port', { timeout: 180_000, skip }, async () => {
  const site = await newSite({ LOG_LEVEL: 'warn', HOME: process.env.HOME ?? '/root' });
  const npm = spawn('npm', ['start'], { cwd: root, env: site.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const started = new Pvs(npm, 'npm start');
  await started.waitForStdout(/Docs +http:\/\/\S+\/docs\n/, 120_000);
  await started.waitReady(site.port);

  // npm's own lines (`> pvs@… start`) aside, the first thing said is what is starting, then each slow
  // step as it begins, then the banner.
  const lines = started.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('>') && !l.startsWith('{'));
  assert.match(lines[0]!, /^Starting PVS in sandbox on (embedded PGlite \(.+\)|PostgreSQL)…$/);
  const banner = lines.findIndex((l) => /^PVS running in sandbox/.test(l));
  const steps = lines.slice(1, banner);
  assert.ok(steps.some((l) => /applying pending migrations/.test(l)), steps.join('\n'));
  assert.ok(steps.includes('  creating the demo partner'), steps.join('\n'));
  assert.ok(steps.includes('  loading the sandbox screening list'), steps.join('\n'));

  npm.kill('SIGTERM');
  const exit = await started.wait(60_000);
  assert.notEqual(exit.code, null, `npm exited on its own after the server did: ${JSON.stringify(exit)}`);
  // The server went with it: nothing answers on its port any more.
  const deadline = Date.now() + 10_000;
  while ((await portAnswers(site.port)) && Date.now() < deadline) await sleep(100);
  assert.equal(await portAnswers(site.port), false, `port ${site.port} is still in use after npm start ended\n${started.describe()}`);
});
