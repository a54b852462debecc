// The whole service on a database of its own, driven through app.inject as a partner would.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { buildApp, type BuildAppOptions } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { totpPeriodSeconds } from '../../src/modules/accounts/totp.ts';
import type { Clock } from '../../src/platform/clock.ts';
import type { HttpApp } from '../../src/platform/http/types.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createServices, type ServiceOverrides, type Services } from '../../src/services.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { createMovableClock, enrolTestFactor, nextTotpCode, type MovableClock, type TestTotp } from './second-factor.ts';

export const testSecretKey = 'test-secret-key-0123456789abcdef0123456789';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    ENVIRONMENT: 'sandbox',
    SECRET_KEY: testSecretKey,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pvs-test-')),
    PUBLIC_BASE_URL: 'http://pvs.test',
    LOG_LEVEL: 'info',
    // scrypt at 1 MiB instead of 32 (32 times cheaper): the suites hash passwords thousands of times.
    PASSWORD_HASH_COST: '10',
    ...env,
  });
}

export interface TestContext {
  config: Config;
  services: Services;
  app: HttpApp;
  database: TestDatabase;
  /** The services' clock when the test gave none: real time, which the tests' authenticator moves on (second-factor.ts). */
  movableClock: MovableClock | undefined;
  /** Every log line written so far, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The raw log text, for searching for things that must never appear. */
  logText(): string;
  f: Factories;
  close(): Promise<void>;
}

export interface TestPartner {
  partnerId: string;
  clientId: string;
  clientSecret: string;
  token: string;
  headers: { authorization: string; 'x-partner-id': string };
}

/** A PVS operator past the first sign-in: `password` is their own (the one-time one replaced), and a second factor set up. */
export interface TestOperator {
  operatorId: string;
  email: string;
  password: string;
  token: string;
  headers: { authorization: string };
  /** The authenticator app the operator enrolled (test/helpers/second-factor.ts): the console and the token endpoint ask for its codes. */
  totp: TestTotp;
}

export interface Factories {
  partner(options?: { name?: string; monitoring?: boolean; commissionBps?: number }): Promise<TestPartner>;
  /** A fresh access token for the partner (tests that move the clock on by hours outlive theirs). */
  signIn(partner: TestPartner): Promise<TestPartner>;
  /**
   * An operator who has replaced the one-time password and enrolled in an authenticator app whose secret
   * the test knows, with a token for /ops/v1 (every operator needs a second factor for one).
   */
  operator(options?: { email?: string }): Promise<TestOperator>;
}

let counter = 0;

export async function createTestContext(
  options: { env?: Record<string, string>; clock?: Clock; random?: () => number; app?: BuildAppOptions; database?: TestDatabase; wrapGateway?: ServiceOverrides['wrapGateway']; wrapRegisters?: ServiceOverrides['wrapRegisters'] } = {},
): Promise<TestContext> {
  const config = testConfig(options.env);
  const database = options.database ?? (await createTestDatabase());
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ level: config.LOG_LEVEL, destination: sink as never });
  // Real time, unless the test brings its own clock; movable, so the authenticator never waits (second-factor.ts).
  const movable = options.clock ? undefined : createMovableClock();
  const services = await createServices(config, { db: database.db, clock: options.clock ?? movable, random: options.random, logger, wrapGateway: options.wrapGateway, wrapRegisters: options.wrapRegisters });
  const app = await buildApp(services, options.app);
  await app.ready();

  const f: Factories = {
    async partner(partnerOptions = {}) {
      counter += 1;
      const created = await services.partners.create({
        name: partnerOptions.name ?? `Partner ${counter}`,
        monitoring: partnerOptions.monitoring,
        commissionBps: partnerOptions.commissionBps,
      });
      return f.signIn({ ...created, token: '', headers: { authorization: '', 'x-partner-id': created.partnerId } });
    },
    async signIn(partner) {
      const issued = await services.tokens.issue({ clientId: partner.clientId, clientSecret: partner.clientSecret });
      if (!issued.ok) throw new Error('could not issue a token');
      const token = issued.body.access_token;
      return { ...partner, token, headers: { authorization: `Bearer ${token}`, 'x-partner-id': partner.partnerId } };
    },
    async operator(operatorOptions = {}) {
      counter += 1;
      const created = await services.operators.create({ email: operatorOptions.email ?? `operator-${counter}-${Date.now()}@pvs.test` });
      const password = `own password ${counter} ${created.operatorId}`;
      // As the console's first sign-in does: the one-time password replaced, then the app enrolled.
      await services.operators.accounts.verify({ email: created.email, password: created.password, newPassword: password });
      // Enrolled with the code of the step before now (a code a moment old, which PVS accepts), so that the
      // token takes the current step and a test's first code from the app is the step after, without waiting.
      const enrolledAt = new Date(services.clock.now().getTime() - totpPeriodSeconds * 1000);
      const totp = { ...(await enrolTestFactor(services.operatorFactors, { id: created.operatorId, email: created.email }, enrolledAt)), clock: movable };
      const issued = await services.operators.signIn({ email: created.email, password, code: await nextTotpCode(totp, () => services.clock.now()) });
      const token = issued.access_token;
      return { operatorId: created.operatorId, email: created.email, password, token, headers: { authorization: `Bearer ${token}` }, totp };
    },
  };

  return {
    config,
    services,
    app,
    database,
    movableClock: movable,
    get logs() {
      return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    logText: () => lines.join('\n'),
    f,
    async close() {
      await app.close();
      await services.close();
      await database.drop();
    },
  };
}
