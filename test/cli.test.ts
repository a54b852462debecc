// The `pvs` command as an operator runs it: real processes on a real port, on the embedded database
// (PGlite, one process per data directory) or PostgreSQL (TEST_DATABASE=postgres).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readMigrations } from '../src/platform/db/migrate.ts';
import {
  freePort,
  assertCredentials,
  fileMode,
  me,
  newSite,
  onlyJsonObject,
  onPostgres,
  pvs,
  run,
  serve,
  sleep,
  type Credentials,
  type Pvs,
  type Site,
} from './helpers/cli.ts';

const secretKey = 'cli-test-secret-key-0123456789abcdef0123';

// ---------------------------------------------------------------------------------------------

// No database is opened: refused at the configuration, the same on either back-end, so in one CI pass.
const noDatabaseSkip = process.env.TEST_DATABASE === 'postgres' ? 'opens no database: it runs in the PGlite pass only' : false;

describe('configuration errors stop the start with exit code 78 and name the variable', { concurrency: true, skip: noDatabaseSkip }, () => {
  let site: Site;
  before(async () => {
    site = await newSite({}, { database: false });
  });

  it('PORT=abc', async () => {
    const result = await run(site, ['serve'], { PORT: 'abc' });
    assert.equal(result.code, 78, result.describe());
    assert.match(result.stderr, /\bPORT\b/);
    assert.equal(result.stdout, '');
  });

  it('ENVIRONMENT=production without SECRET_KEY', async () => {
    const result = await run(site, ['serve'], { ENVIRONMENT: 'production', DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    assert.equal(result.code, 78, result.describe());
    assert.match(result.stderr, /\bSECRET_KEY\b/);
  });

  it('ENVIRONMENT=production with SECRET_KEY but without DATABASE_URL', async () => {
    const result = await run(site, ['serve'], { ENVIRONMENT: 'production', SECRET_KEY: secretKey, DATABASE_URL: '' });
    assert.equal(result.code, 78, result.describe());
    assert.match(result.stderr, /\bDATABASE_URL\b/);
    assert.doesNotMatch(result.stderr, /\bSECRET_KEY\b/);
  });
});

describe('admin commands with no server running', () => {
  let site: Site;
  let first: Credentials;
  let second: Credentials;
  let server: Pvs | undefined;

  before(async () => {
    site = await newSite({}, { empty: true });
  });
  after(async () => {
    if (server?.running) await server.terminate();
  });

  it('migrate --json applies every migration to a fresh database and says so', async () => {
    const result = await run(site, ['migrate', '--json']);
    assert.equal(result.code, 0, result.describe());
    const expected = readMigrations().map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`);
    assert.deepEqual(onlyJsonObject(result.stdout), { applied: expected });
  });

  it('partner create --json prints exactly one JSON object with the credentials', async () => {
    const result = await run(site, ['partner', 'create', '--name', 'Acme Accounting', '--json']);
    assert.equal(result.code, 0, result.describe());
    first = assertCredentials(onlyJsonObject(result.stdout));
    assert.ok(!existsSync(path.join(site.dataDir, 'pglite.lock')), 'the command released the embedded database');
  });

  it('a second command sees the first partner persisted: both get tokens from a server started afterwards', async () => {
    const result = await run(site, ['partner', 'create', '--name', 'Bravo Tax', '--monitoring', '--commission-bps', '125', '--json']);
    assert.equal(result.code, 0, result.describe());
    second = assertCredentials(onlyJsonObject(result.stdout));
    assert.notEqual(second.partnerId, first.partnerId);
    assert.notEqual(second.clientId, first.clientId);

    server = await serve(site);
    assert.doesNotMatch(server.stdout, /demo partner|clientSecret/i, 'partners exist: no demo partner');
    assert.equal((await me(site.port, first)).name, 'Acme Accounting');
    const bravo = await me(site.port, second);
    assert.equal(bravo.name, 'Bravo Tax');
    assert.equal(bravo.monitoringEligible, true);
    assert.equal(bravo.commissionBps, 125, 'the commission on ATO payments, shown on /me');
    assert.equal((await me(site.port, first)).commissionBps, 0);
    assert.deepEqual(await server.terminate(), { code: 0, signal: null }, server.describe());
  });

  it('SIGTERM while serve is still starting: the start completes, then a clean stop with code 0', async () => {
    server = pvs(site, ['serve']);
    // PGlite: the lock appears as the database opens, mid-start. PostgreSQL: /ready answers before the start is over.
    const lockFile = path.join(site.dataDir, 'pglite.lock');
    if (onPostgres) await server.waitReady(site.port);
    else {
      const deadline = Date.now() + 30_000;
      while (!existsSync(lockFile)) {
        if (!server.running || Date.now() > deadline) assert.fail(`no pglite.lock\n${server.describe()}`);
        await sleep(20);
      }
    }
    assert.deepEqual(await server.terminate(), { code: 0, signal: null }, server.describe());
    assert.ok(!existsSync(lockFile), 'pglite.lock removed');
    assert.ok(!existsSync(path.join(site.dataDir, 'server.json')), 'server.json removed');
  });
});

describe('serve on a fresh data directory', () => {
  let site: Site;
  let server: Pvs;
  let demo: Credentials;
  let created: Credentials;
  const lockFile = () => path.join(site.dataDir, 'pglite.lock');
  const infoFile = () => path.join(site.dataDir, 'server.json');

  before(async () => {
    site = await newSite(); // SECRET_KEY unset: generated into DATA_DIR and shared by serve and the commands.
  });
  after(async () => {
    if (server?.running) await server.terminate();
  });

  it('prints the demo partner once, with the docs URL, and keeps it in a 0600 file', async () => {
    server = await serve(site);
    const out = server.stdout;
    assert.match(out, new RegExp(`Docs +http://localhost:${site.port}/docs`));
    assert.match(out, new RegExp(`Portal +http://localhost:${site.port}/portal\n +Console +http://localhost:${site.port}/console`));
    assert.match(out, /npx pvs portal-user create --partner ptn_\S+ --email you@example\.com/);
    const printed = {
      partnerId: /partnerId\s+(ptn_\S+)/.exec(out)?.[1],
      clientId: /clientId\s+(cli_\S+)/.exec(out)?.[1],
      clientSecret: /clientSecret\s+(\S+)/.exec(out)?.[1],
    };
    demo = assertCredentials(printed);

    const file = path.join(site.dataDir, 'demo-partner.json');
    assert.equal(fileMode(file), 0o600);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Credentials;
    assert.deepEqual({ partnerId: kept.partnerId, clientId: kept.clientId, clientSecret: kept.clientSecret }, demo);
    assert.equal((await me(site.port, demo)).name, 'Demo Partner');
  });

  it('partner create --json succeeds while serve runs, and the credentials work on the running server', async () => {
    if (!onPostgres) assert.equal(readFileSync(lockFile(), 'utf8'), String(server.child.pid), 'serve holds the embedded database');
    const result = await run(site, ['partner', 'create', '--name', 'Charlie Bookkeeping', '--json']);
    assert.equal(result.code, 0, result.describe());
    created = assertCredentials(onlyJsonObject(result.stdout));
    const partner = await me(site.port, created);
    assert.equal(partner.name, 'Charlie Bookkeeping');
    assert.equal(partner.environment, 'sandbox');
    assert.ok(server.running, 'serve is still running');
    if (!onPostgres) assert.equal(readFileSync(lockFile(), 'utf8'), String(server.child.pid), 'the command never opened the embedded database');
  });

  it('migrate --json works while serve runs and reports nothing applied', async () => {
    const result = await run(site, ['migrate', '--json']);
    assert.equal(result.code, 0, result.describe());
    assert.deepEqual(onlyJsonObject(result.stdout), { applied: [] });
    assert.ok(server.running);
  });

  it('the admin endpoint answers 404 without the admin token', async () => {
    const url = `http://127.0.0.1:${site.port}/admin/v1/commands/partner-create`;
    const body = JSON.stringify({ name: 'Intruder' });
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer not-the-admin-token' }, { authorization: `Bearer ${secretKey}` }];
    for (const headers of attempts) {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      assert.equal(response.status, 404, JSON.stringify(headers));
      const problem = (await response.json()) as Record<string, unknown>;
      assert.equal(problem.code, 'NOT_FOUND');
      assert.doesNotMatch(JSON.stringify(problem), /ptn_|cli_|clientSecret/);
    }
  });

  it('SIGTERM exits with code 0 and removes server.json and the database lock', async () => {
    assert.ok(existsSync(infoFile()), 'server.json while serving');
    assert.equal(fileMode(infoFile()), 0o600);
    assert.equal(existsSync(lockFile()), !onPostgres, 'the lock exists only on the embedded database');
    const exit = await server.terminate();
    assert.deepEqual(exit, { code: 0, signal: null }, server.describe());
    assert.ok(!existsSync(infoFile()), 'server.json removed');
    assert.ok(!existsSync(lockFile()), 'pglite.lock removed');
    assert.doesNotMatch(server.stderr, /"level":(50|60)/, server.describe());
  });

  it('a restart on the same data directory keeps the partners and prints no secret', async () => {
    server = await serve(site);
    assert.doesNotMatch(server.stdout, /clientSecret|pvs_secret_|demo partner/i, server.describe());
    assert.match(server.stdout, /Docs +http:\/\/localhost:\d+\/docs/);
    assert.equal((await me(site.port, created)).name, 'Charlie Bookkeeping');
    assert.equal((await me(site.port, demo)).name, 'Demo Partner');
    assert.deepEqual(await server.terminate(), { code: 0, signal: null }, server.describe());
  });
});

describe('serve --role api and --role worker', () => {
  it('are refused on the embedded database, naming DATABASE_URL', { skip: onPostgres && 'PostgreSQL is configured: the roles run (next test)' }, async () => {
    const site = await newSite({}, { database: false });
    const [api, worker] = await Promise.all([run(site, ['serve', '--role', 'api']), run(site, ['serve', '--role', 'worker'])]);
    for (const result of [api, worker]) {
      assert.equal(result.code, 78, result.describe());
      assert.match(result.stderr, /\bDATABASE_URL\b/);
    }
    assert.ok(!existsSync(path.join(site.dataDir, 'pglite.lock')), 'the refusal opened nothing');
  });

  it('run at the same time on one PostgreSQL database and stop on SIGTERM', { skip: !onPostgres && 'needs PostgreSQL (TEST_DATABASE=postgres): the embedded database serves one process' }, async () => {
    // Two machines in effect: one database, one SECRET_KEY, a data directory each that does not exist
    // yet (on PostgreSQL with SECRET_KEY set, nothing needs it before `serve` writes server.json).
    const site = await newSite({ SECRET_KEY: secretKey });
    const apiDir = path.join(site.dir, 'api-data');
    const workerDir = path.join(site.dir, 'worker-data');
    const api = pvs(site, ['serve', '--role', 'api'], { DATA_DIR: apiDir });
    const worker = pvs(site, ['serve', '--role', 'worker'], { DATA_DIR: workerDir, PORT: String(await freePort()) });
    try {
      await api.waitReady(site.port);
      await api.waitForStdout(/PVS \(api\) running[\s\S]*Docs +http:\/\/\S+\/docs\n/);
      await worker.waitForStdout(/PVS \(worker\) running in sandbox on PostgreSQL\n/);
      // The worker serves no HTTP and leaves the demo partner to the API: one partner, printed once.
      assert.doesNotMatch(worker.stdout, /clientSecret|Docs/, worker.describe());
      assert.ok(!existsSync(path.join(workerDir, 'server.json')));
      await api.waitForStdout(/clientSecret\s+\S+\n/);
      assert.equal(fileMode(path.join(apiDir, 'demo-partner.json')), 0o600);
      assert.ok(existsSync(path.join(apiDir, 'server.json')));
      const rows = await site.database!.db.query<{ n: number }>('SELECT count(*)::int AS n FROM partners');
      assert.equal(rows[0]?.n, 1);

      const result = await run(site, ['partner', 'create', '--name', 'Delta Advisers', '--json']);
      assert.equal(result.code, 0, result.describe());
      assert.equal((await me(site.port, assertCredentials(onlyJsonObject(result.stdout)))).name, 'Delta Advisers');
      assert.ok(api.running && worker.running);
    } finally {
      await Promise.all([api.terminate(), worker.terminate()]);
    }
    assert.deepEqual(await api.exited, { code: 0, signal: null }, api.describe());
    assert.deepEqual(await worker.exited, { code: 0, signal: null }, worker.describe());
    assert.ok(!existsSync(path.join(apiDir, 'server.json')), 'server.json removed');
  });
});
