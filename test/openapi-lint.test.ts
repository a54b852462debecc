// The partner's OpenAPI document, as the app serves it, passes both linters CI runs: Redocly's
// `recommended` ruleset (redocly.yaml) and Spectral with OWASP's API Security ruleset (.spectral.yaml).
// Any error or warning fails; what the configurations turn off, and why, is in docs/openapi.md.
// test-pass: postgres
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestContext, type TestContext } from './helpers/context.ts';
import { backend } from './helpers/database.ts';

// Run once, in the PostgreSQL pass: the document does not depend on the database back-end, and the two
// linters take a while.
const pgliteSkip = backend === 'pglite' && 'PostgreSQL pass only';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const run = promisify(execFile);

/** Runs a linter that exits non-zero when it finds problems: its stdout either way. */
async function lint(command: string, args: string[]): Promise<string> {
  // No telemetry or update checks from CI; the linters read their configurations from the repository root.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  try {
    return (await run(command, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    if (!stdout?.trim()) throw new Error(`${path.basename(command)} failed without a report: ${stderr}`);
    return stdout;
  }
}

describe('the partner API document passes the linters', { skip: pgliteSkip }, () => {
  let t: TestContext;
  let dir: string;
  let file: string;

  before(async () => {
    // Served over https, as PVS is wherever partners reach it (the test's default base URL is http).
    t = await createTestContext({ env: { PUBLIC_BASE_URL: 'https://pvs.example' } });
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-openapi-lint-'));
    file = path.join(dir, 'openapi.json');
    writeFileSync(file, res.body);
  });
  after(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('redocly lint (recommended): no error, no warning', async () => {
    const report = JSON.parse(await lint(bin('redocly'), ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--format=json'])) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer?: string }> }>;
    };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    assert.deepEqual(problems, [], `redocly found ${report.totals.errors} errors and ${report.totals.warnings} warnings`);
  });

  it('spectral lint (OWASP API Security ruleset): no error, no warning', async () => {
    const results = JSON.parse(await lint(bin('spectral'), ['lint', file, '--ruleset', path.join(root, '.spectral.yaml'), '--format=json', '--fail-severity=warn', '--quiet'])) as Array<{
      code: string;
      severity: number;
      message: string;
      path: string[];
    }>;
    // Severity 0 is an error, 1 a warning; 2 and 3 are information and hints, which fail nothing.
    const problems = results.filter((r) => r.severity <= 1).map((r) => `${r.severity === 0 ? 'error' : 'warning'} ${r.code} at ${r.path.join('.')}: ${r.message}`);
    assert.deepEqual(problems, []);
  });
});
