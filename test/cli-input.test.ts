// Text an operator types into `pvs` options and arguments: refused with the option's name and a message
// on stderr (exit 1, no stack trace), before anything is opened, and refused the same way by the admin
// endpoint a `pvs` command calls while the server holds the embedded database.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { adminToken } from '../src/admin/admin-token.ts';
import { createTestContext, testSecretKey, type TestContext } from './helpers/context.ts';
import { newSite, run, type Site } from './helpers/cli.ts';

describe('pvs options holding text PVS cannot take', { concurrency: true }, () => {
  let site: Site;
  before(async () => (site = await newSite()));
  after(async () => {
    // Nothing was written: no partner, no destination; on the embedded database, not even opened.
    if (site.database) {
      const [row] = await site.database.db.query<{ n: number }>('SELECT (SELECT count(*) FROM partners) + (SELECT count(*) FROM webhook_destinations) AS n');
      assert.equal(Number(row?.n), 0);
    } else assert.ok(!existsSync(path.join(site.dataDir, 'pglite')), 'the embedded database was never opened');
  });

  // [what, arguments, stderr after "pvs: "]
  const refused: Array<[string, string[], string | RegExp]> = [
    ['a control character in a partner name', ['partner', 'create', '--name', 'Acme\u0001Accounting'], '--name contains a control character (U+0001) at position 5'],
    ['an over-long partner name', ['partner', 'create', '--name', 'A'.repeat(201)], '--name: Expected string length less or equal to 200'],
    ['a commission that is not a whole number', ['partner', 'create', '--name', 'Acme', '--commission-bps', '1.5'], '--commission-bps (commissionBps): Expected integer'],
    ['a commission over 100 %', ['partner', 'create', '--name', 'Acme', '--commission-bps', '10001'], '--commission-bps (commissionBps): Expected integer to be less or equal to 10000'],
    ['an escape sequence in a partner id', ['destination', 'create', '--partner', 'ptn_\u001b[2J', '--url', 'https://example.com/hooks'], '--partner (partnerId) contains a control character (U+001B) at position 5'],
    [
      'a control character in one of the categories',
      ['destination', 'create', '--partner', 'ptn_01', '--url', 'https://example.com/hooks', '--categories', 'payments,verif\u007fications'],
      '--categories item 2 contains a control character (U+007F) at position 6',
    ],
    ['a carriage return after a date of birth', ['screening', 'search', '--name', 'Boris Karlov', '--dob', '1961-03-14\r'], '--dob (dateOfBirth) contains a control character (U+000D) at position 11'],
    [
      'a control character in a list file name',
      ['screening', 'import', '--format', 'csv', 'list\u0002.csv'],
      /^the file path "\/[^"]*\/list\\u0002\.csv" contains a control character \(U\+0002\) at position \d+$/,
    ],
    ['a line break in a dataset file name', ['registers', 'import-asic', 'companies\n.tsv'], /^the file path "\/[^"]*\/companies\\n\.tsv" contains a control character \(U\+000A\) at position \d+$/],
  ];
  for (const [what, args, message] of refused) {
    it(`refuses ${what}, naming the option`, async () => {
      const result = await run(site, args);
      assert.equal(result.code, 1, result.describe());
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.startsWith('pvs: ') && result.stderr.endsWith('\n') && result.stderr.split('\n').length === 2, `one line: ${JSON.stringify(result.stderr)}`);
      const said = result.stderr.slice('pvs: '.length, -1);
      if (typeof message === 'string') assert.equal(said, message);
      else assert.match(said, message);
    });
  }
});

describe('the admin endpoint refuses the same input with 400 and a pointer', () => {
  let t: TestContext;
  before(async () => (t = await createTestContext()));
  after(() => t.close());

  async function command(name: string, payload: string) {
    const response = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/commands/${name}`,
      headers: { authorization: `Bearer ${adminToken(testSecretKey)}`, 'content-type': 'application/json' },
      payload,
    });
    return { status: response.statusCode, body: response.json<{ code: string; detail: string; errors?: Array<{ pointer: string; message: string }> }>() };
  }

  const partners = async () => Number((await t.services.db.query<{ n: number }>('SELECT count(*) AS n FROM partners'))[0]?.n);

  it('a NUL, a lone surrogate or a line break in a partner name, and no partner is created', async () => {
    const before = await partners();
    for (const [payload, detail] of [
      ['{"name":"Acme\\u0000"}', /NUL character \(U\+0000\) at position 5/],
      ['{"name":"Acme \\ud800"}', /unpaired UTF-16 surrogate \(U\+D800\) at position 6/],
      ['{"name":"Acme\\nAccounting"}', /^--name contains a control character \(U\+000A\) at position 5$/],
    ] as const) {
      const { status, body } = await command('partner-create', payload);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(body.code, 'VALIDATION_ERROR');
      assert.match(body.detail, detail);
      assert.equal(body.errors?.[0]?.pointer, '/name');
    }
    assert.equal(await partners(), before);
  });

  it('a schema problem names the option and points at the field', async () => {
    const { status, body } = await command('screening-search', '{"name":"Boris Karlov","dateOfBirth":"1961-13-01"}');
    assert.equal(status, 400);
    assert.equal(body.detail, "--dob (dateOfBirth): Expected string to match 'date' format");
    assert.deepEqual(body.errors, [{ pointer: '/dateOfBirth', message: body.detail }]);
  });

  it('a control character in a file path, before any file is opened', async () => {
    const { status, body } = await command('registers-import-asic', JSON.stringify({ filePath: '/tmp/companies\u0000.tsv' }));
    assert.equal(status, 400);
    assert.equal(body.code, 'VALIDATION_ERROR');
    assert.equal(body.errors?.[0]?.pointer, '/filePath');
  });
});
