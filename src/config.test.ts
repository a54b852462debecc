import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, settingDocs } from './config.ts';

const secret = 'x'.repeat(32);
const liveRegisters = { REGISTERS: 'live', ABR_GUID: '00000000-0000-4000-8000-000000000000' };

describe('loadConfig', () => {
  it('applies defaults and derives PUBLIC_BASE_URL from PORT', () => {
    const config = loadConfig({ SECRET_KEY: secret, PORT: '4000' });
    assert.equal(config.ENVIRONMENT, 'sandbox');
    assert.equal(config.PORT, 4000);
    assert.equal(config.PUBLIC_BASE_URL, 'http://localhost:4000');
    assert.equal(config.DATA_DIR, './.data');
    assert.equal(config.DATABASE_URL, undefined);
    assert.equal(config.RATE_LIMIT_BURST, 100);
    assert.ok(Object.isFrozen(config));
  });

  it('strips a trailing slash from PUBLIC_BASE_URL', () => {
    assert.equal(loadConfig({ SECRET_KEY: secret, PUBLIC_BASE_URL: 'https://pvs.example.com/' }).PUBLIC_BASE_URL, 'https://pvs.example.com');
  });

  it('names the variable of a bad value', () => {
    const cases: Record<string, string> = { PORT: 'abc', ENVIRONMENT: 'staging', DATABASE_URL: 'mysql://x', SECRET_KEY: 'short', RATE_LIMIT_BURST: '0', LOG_LEVEL: 'loud' };
    for (const [name, value] of Object.entries(cases)) {
      assert.throws(
        () => loadConfig({ SECRET_KEY: secret, [name]: value }),
        (error: Error) => error instanceof ConfigError && error.message.startsWith(`${name}:`),
        name,
      );
    }
  });

  it('refuses production without SECRET_KEY or DATABASE_URL', () => {
    assert.throws(() => loadConfig({ ENVIRONMENT: 'production', DATABASE_URL: 'postgres://h/db' }), /^ConfigError: SECRET_KEY: required/);
    assert.throws(() => loadConfig({ ENVIRONMENT: 'production', SECRET_KEY: secret }), /DATABASE_URL: required/);
    const stripe = { PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x', ...liveRegisters };
    const production = loadConfig({ ENVIRONMENT: 'production', SECRET_KEY: secret, DATABASE_URL: 'postgres://h/db', ...stripe });
    assert.deepEqual([production.ENVIRONMENT, production.IDENTITY_PROVIDER], ['production', 'none'], 'unset: none, not the sandbox');
    assert.throws(
      () => loadConfig({ ENVIRONMENT: 'production', SECRET_KEY: secret, DATABASE_URL: 'postgres://h/db', ...stripe, IDENTITY_PROVIDER: 'sandbox' }),
      /^ConfigError: IDENTITY_PROVIDER: production refuses the sandbox identity provider/,
    );
    assert.equal(loadConfig({ SECRET_KEY: secret }).IDENTITY_PROVIDER, 'sandbox');
  });

  it('takes Onfido with its three settings, names the one missing or malformed, and refuses a sandbox token in production', () => {
    const onfido = { IDENTITY_PROVIDER: 'onfido', ONFIDO_API_TOKEN: 'api_live.abcdEFGH.ijklMNOP', ONFIDO_REGION: 'eu', ONFIDO_WEBHOOK_TOKEN: 'whk_0123456789abcdef' };
    const production = { ENVIRONMENT: 'production', SECRET_KEY: secret, DATABASE_URL: 'postgres://h/db', PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x', ...liveRegisters };
    assert.equal(loadConfig({ ...production, ...onfido }).IDENTITY_PROVIDER, 'onfido');
    for (const name of ['ONFIDO_API_TOKEN', 'ONFIDO_REGION', 'ONFIDO_WEBHOOK_TOKEN'] as const) {
      assert.throws(() => loadConfig({ ...production, ...onfido, [name]: undefined }), new RegExp(`^ConfigError: ${name}: required when IDENTITY_PROVIDER=onfido`), name);
    }
    const malformed = { ONFIDO_API_TOKEN: 'sk_live_nope', ONFIDO_REGION: 'au', ONFIDO_WEBHOOK_TOKEN: 'short', ONFIDO_API_URL: 'ftp://x' };
    for (const [name, value] of Object.entries(malformed)) {
      assert.throws(() => loadConfig({ ...production, ...onfido, [name]: value }), (error: Error) => error instanceof ConfigError && error.message.startsWith(`${name}:`), name);
    }
    assert.throws(() => loadConfig({ ...production, ...onfido, ONFIDO_API_TOKEN: 'api_sandbox.abcdEFGH.ijkl' }), /ONFIDO_API_TOKEN: production refuses an Onfido sandbox token/);
    assert.equal(loadConfig({ SECRET_KEY: secret, ...onfido, ONFIDO_API_TOKEN: 'api_sandbox.abcdEFGH.ijkl' }).IDENTITY_PROVIDER, 'onfido', 'a sandbox token outside production');
    assert.throws(() => loadConfig({ ...production, ...onfido, ONFIDO_API_URL: 'http://onfido.example/v3.6' }), /ONFIDO_API_URL: must be https, except on a loopback address/);
    assert.equal(loadConfig({ ...production, ...onfido, ONFIDO_API_URL: 'http://127.0.0.1:4010/v3.6' }).ONFIDO_API_URL, 'http://127.0.0.1:4010/v3.6');
    assert.throws(
      () => loadConfig({ ...production, ...onfido, ONFIDO_API_TOKEN: 'api_live.SECRETVALUE-x', ONFIDO_REGION: 'xx' }),
      (error: Error) => !error.message.includes('SECRETVALUE'),
      'an error never shows the token',
    );
  });

  it('refuses the sandbox registers in production and needs ABR_GUID for the live ones', () => {
    const production = { ENVIRONMENT: 'production', SECRET_KEY: secret, DATABASE_URL: 'postgres://h/db', PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x' };
    assert.throws(() => loadConfig(production), /REGISTERS: production refuses the sandbox registers/);
    assert.throws(() => loadConfig({ SECRET_KEY: secret, REGISTERS: 'live' }), /ABR_GUID: required when REGISTERS=live/);
    assert.throws(() => loadConfig({ SECRET_KEY: secret, ...liveRegisters, ABR_GUID: 'not-a-guid' }), /ABR_GUID: invalid value/);
    assert.equal(loadConfig({ SECRET_KEY: secret, LOOKUP_READ_BUDGET: '7' }).LOOKUP_READ_BUDGET, 7);
    assert.equal(loadConfig({ SECRET_KEY: secret }).LOOKUP_READ_BUDGET, 50);
  });

  it('requires S3_BUCKET with STORAGE=s3', () => {
    assert.throws(() => loadConfig({ SECRET_KEY: secret, STORAGE: 's3' }), /S3_BUCKET/);
  });

  it('refuses the sandbox gateway in production and needs both Stripe keys for stripe', () => {
    const production = { ENVIRONMENT: 'production', SECRET_KEY: secret, DATABASE_URL: 'postgres://h/db' };
    assert.throws(() => loadConfig(production), /PAYMENT_GATEWAY: production refuses the sandbox gateway/);
    assert.throws(() => loadConfig({ SECRET_KEY: secret, PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' }), /STRIPE_PUBLISHABLE_KEY: required/);
    assert.throws(() => loadConfig({ SECRET_KEY: secret, STRIPE_SECRET_KEY: 'pk_test_x' }), /STRIPE_SECRET_KEY: invalid value/);
  });

  it('takes PASSWORD_HASH_COST from 10 to 17, 15 by default, and refuses less than 15 in production', () => {
    assert.equal(loadConfig({ SECRET_KEY: secret }).PASSWORD_HASH_COST, 15);
    assert.equal(loadConfig({ SECRET_KEY: secret, PASSWORD_HASH_COST: '10' }).PASSWORD_HASH_COST, 10);
    for (const value of ['9', '18', 'fast']) assert.throws(() => loadConfig({ SECRET_KEY: secret, PASSWORD_HASH_COST: value }), /^ConfigError: PASSWORD_HASH_COST: invalid value/, value);
    const production = { ENVIRONMENT: 'production', SECRET_KEY: secret, DATABASE_URL: 'postgres://h/db', PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x', ...liveRegisters };
    assert.throws(() => loadConfig({ ...production, PASSWORD_HASH_COST: '14' }), /^ConfigError: PASSWORD_HASH_COST: production refuses less than 15/);
    assert.equal(loadConfig({ ...production, PASSWORD_HASH_COST: '16' }).PASSWORD_HASH_COST, 16);
  });

  it('reads BILLING_RUN_WINDOW in seconds, minutes or hours, defaulting by environment', () => {
    assert.equal(loadConfig({ SECRET_KEY: secret }).BILLING_RUN_WINDOW_SECONDS, 10);
    const stripe = { PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x', ...liveRegisters };
    assert.equal(loadConfig({ ENVIRONMENT: 'production', SECRET_KEY: secret, DATABASE_URL: 'postgres://h/db', ...stripe }).BILLING_RUN_WINDOW_SECONDS, 86_400);
    for (const [text, seconds] of [
      ['45', 45],
      ['45s', 45],
      ['30m', 1800],
      ['24h', 86_400],
    ] as const) {
      assert.equal(loadConfig({ SECRET_KEY: secret, BILLING_RUN_WINDOW: text }).BILLING_RUN_WINDOW_SECONDS, seconds, text);
    }
    assert.throws(() => loadConfig({ SECRET_KEY: secret, BILLING_RUN_WINDOW: '1d' }), /BILLING_RUN_WINDOW: invalid value/);
    assert.throws(() => loadConfig({ SECRET_KEY: secret, BILLING_RUN_WINDOW: '0' }), /BILLING_RUN_WINDOW: must be at least one second/);
    assert.throws(() => loadConfig({ SECRET_KEY: secret, PRICE_LOOKUP_FULL: '-1' }), /PRICE_LOOKUP_FULL/);
  });

  it('is documented: docs/configuration.md lists every setting', () => {
    const doc = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
    for (const { name } of settingDocs) assert.ok(doc.includes(`| \`${name}\` |`), `${name} missing from docs/configuration.md`);
  });
});
