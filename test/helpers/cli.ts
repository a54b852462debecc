// Running the `pvs` command as an operator does, for tests: real processes on a real port, each in a
// site of its own (working directory, data directory, port, and on PostgreSQL a database), all
// killed and removed when the test file ends.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { backend, createEmptyDatabase, createTestDatabase, type TestDatabase } from './database.ts';

const bin = fileURLToPath(new URL('../../bin/pvs.mjs', import.meta.url));
export const onPostgres = backend === 'postgres';

// ---------------------------------------------------------------------------------------------
// Processes

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Every process this file started, so that `after` can make sure none outlives it. */
const started = new Set<Pvs>();
const temporaryDirs: string[] = [];
const databases: TestDatabase[] = [];

after(async () => {
  for (const process of started) {
    if (!process.running) continue;
    process.child.kill('SIGKILL');
    await process.exited;
  }
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});
// Should this process end some other way (a runner giving up on it), its servers go with it.
process.on('exit', () => {
  for (const process of started) if (process.running) process.child.kill('SIGKILL');
});

export class Pvs {
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;

  constructor(
    readonly child: ChildProcess,
    readonly label: string,
  ) {
    started.add(this);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve, reject) => {
      child.once('error', reject);
      // 'close', not 'exit': both pipes are drained by then.
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  describe(): string {
    return `${this.label}\n--- stdout\n${this.stdout}\n--- stderr\n${this.stderr}`;
  }

  /** Polls until the output matches; fails at once if the process ends first. */
  async waitForStdout(pattern: RegExp, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.stdout)) {
      if (!this.running) assert.fail(`${this.label} exited before printing ${pattern}\n${this.describe()}`);
      if (Date.now() > deadline) assert.fail(`${this.label} did not print ${pattern} within ${timeoutMs} ms\n${this.describe()}`);
      await sleep(50);
    }
  }

  /** Polls GET /ready until it answers 200; fails at once if the process ends first. */
  async waitReady(port: number, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) assert.fail(`${this.label} exited before it was ready\n${this.describe()}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(2_000) });
        if (response.status === 200) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) assert.fail(`${this.label} was not ready within ${timeoutMs} ms\n${this.describe()}`);
      await sleep(100);
    }
  }

  /** Waits for the process to end; kills it (and fails) when it does not within the time given. */
  async wait(timeoutMs = 120_000): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, timeoutMs, 'timeout')));
    const result = await Promise.race([this.exited, timeout]);
    clearTimeout(timer);
    if (result === 'timeout') {
      this.child.kill('SIGKILL');
      await this.exited;
      assert.fail(`${this.label} did not exit within ${timeoutMs} ms\n${this.describe()}`);
    }
    return result;
  }

  async terminate(timeoutMs = 30_000): Promise<Exit> {
    if (this.running) this.child.kill('SIGTERM');
    return this.wait(timeoutMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---------------------------------------------------------------------------------------------
// Sites: a working directory, a data directory, a port and the environment a process gets

export interface Site {
  dir: string;
  dataDir: string;
  port: number;
  env: Record<string, string>;
  database?: TestDatabase;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A fresh site. The environment is built from nothing but PATH (nothing leaks in from the runner's
 * own environment), and processes run in a directory of their own, so no `.env` file applies.
 * On PostgreSQL the site gets a database of its own: migrated, or empty with `{ empty: true }`.
 */
export async function newSite(env: Record<string, string> = {}, options: { empty?: boolean; database?: false } = {}): Promise<Site> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-cli-'));
  temporaryDirs.push(dir);
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir);
  const port = await freePort();
  let database: TestDatabase | undefined;
  if (onPostgres && options.database !== false) {
    database = options.empty ? await createEmptyDatabase() : await createTestDatabase();
    databases.push(database);
  }
  return {
    dir,
    dataDir,
    port,
    database,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      // As in test/helpers/context.ts: cheap password hashes, the suites make thousands.
      PASSWORD_HASH_COST: '10',
      // Processes of many tests run at once: each answers Prometheus on a port of its own choosing.
      METRICS_ADDRESS: '127.0.0.1:0',
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
      ...env,
    },
  };
}

/** The runner's choice of WebAssembly compiler (scripts/test.mjs) holds for the commands too: each starts PGlite. */
const nodeFlags = process.execArgv.filter((flag) => flag === '--liftoff-only');

export function pvs(site: Site, args: string[], env: Record<string, string> = {}): Pvs {
  const child = spawn(process.execPath, [...nodeFlags, bin, ...args], { cwd: site.dir, env: { ...site.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Pvs(child, `pvs ${args.join(' ')}`);
}

/** Runs a command to its end. */
export async function run(site: Site, args: string[], env: Record<string, string> = {}): Promise<Pvs & Exit> {
  const command = pvs(site, args, env);
  const exit = await command.wait();
  return Object.assign(command, exit);
}

/** Starts `serve` and waits until it answers /ready and has printed its banner (the start is complete). */
export async function serve(site: Site, args: string[] = [], env: Record<string, string> = {}): Promise<Pvs> {
  const server = pvs(site, ['serve', ...args], env);
  await server.waitReady(Number(env.PORT ?? site.port));
  await server.waitForStdout(/Docs +http:\/\/\S+\/docs\n/);
  if (/demo partner was created/.test(server.stdout)) await server.waitForStdout(/clientSecret\s+\S+\n/);
  return server;
}

// ---------------------------------------------------------------------------------------------
// The partner API, through the running server

export interface Credentials {
  partnerId: string;
  clientId: string;
  clientSecret: string;
}

/** Exactly one JSON object on stdout, and nothing else. */
export function onlyJsonObject(output: string): Record<string, unknown> {
  assert.ok(output.endsWith('\n'), `one line: ${JSON.stringify(output)}`);
  const lines = output.slice(0, -1).split('\n');
  assert.equal(lines.length, 1, `exactly one line on stdout: ${JSON.stringify(output)}`);
  const value = JSON.parse(lines[0]!) as unknown;
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `a JSON object: ${lines[0]}`);
  return value as Record<string, unknown>;
}

export function assertCredentials(value: Record<string, unknown>): Credentials {
  assert.match(String(value.partnerId), /^ptn_[0-9A-Za-z]+$/);
  assert.match(String(value.clientId), /^cli_[0-9A-Za-z]+$/);
  assert.equal(typeof value.clientSecret, 'string');
  assert.ok((value.clientSecret as string).length >= 32, 'a long secret');
  return value as unknown as Credentials;
}

export async function accessToken(port: number, credentials: Credentials): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      scope: 'channel-partner-api/server',
    }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  assert.equal(response.status, 200, `token for ${credentials.clientId}: ${JSON.stringify(body)}`);
  assert.equal(body.token_type, 'Bearer');
  assert.equal(typeof body.access_token, 'string');
  return body.access_token as string;
}

export async function me(port: number, credentials: Credentials): Promise<Record<string, unknown>> {
  const token = await accessToken(port, credentials);
  const response = await fetch(`http://127.0.0.1:${port}/v1/channel-partners/me`, {
    headers: { authorization: `Bearer ${token}`, 'x-partner-id': credentials.partnerId },
  });
  const body = (await response.json()) as Record<string, unknown>;
  assert.equal(response.status, 200, JSON.stringify(body));
  assert.equal(body.id, credentials.partnerId);
  return body;
}

export function fileMode(file: string): number {
  return statSync(file).mode & 0o777;
}

