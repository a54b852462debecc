import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, settingDocs } from './config.ts';

const secret = 'x'.repeat(32);

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
    assert.equal(loadConfig({ ENVIRONMENT: 'production', SECRET_KEY: secret, DATABASE_URL: 'postgres://h/db' }).ENVIRONMENT, 'production');
  });

  it('requires S3_BUCKET with STORAGE=s3', () => {
    assert.throws(() => loadConfig({ SECRET_KEY: secret, STORAGE: 's3' }), /S3_BUCKET/);
  });

  it('is documented: docs/configuration.md lists every setting', () => {
    const doc = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
    for (const { name } of settingDocs) assert.ok(doc.includes(`| \`${name}\` |`), `${name} missing from docs/configuration.md`);
  });
});
