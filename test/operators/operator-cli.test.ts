// `pvs operator create` and `pvs operator disable` as an administrator runs them: real processes, with no
// server running (the command opens the database itself) and while `pvs serve` runs (on the embedded
// database, the command asks the server over its loopback admin endpoint; on PostgreSQL it opens it too). The printed one-time password signs in over HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newSite, onlyJsonObject, run, serve, type Pvs, type Site } from '../helpers/cli.ts';

interface Created {
  operatorId: string;
  email: string;
  password: string;
}

function assertCreated(value: Record<string, unknown>, email: string): Created {
  assert.deepEqual(Object.keys(value).sort(), ['email', 'operatorId', 'password']);
  assert.match(String(value.operatorId), /^opr_[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.equal(value.email, email);
  assert.match(String(value.password), /^[A-HJ-NP-Za-km-np-z2-9]{20}$/, 'a 20-character one-time password of the unambiguous alphabet');
  return value as unknown as Created;
}

/** `pvs: <message>` on stderr as one line, nothing on stdout, exit code 1. */
function assertRefused(result: Pvs & { code: number | null }): string {
  assert.equal(result.code, 1, result.describe());
  assert.equal(result.stdout, '');
  assert.ok(result.stderr.startsWith('pvs: ') && result.stderr.endsWith('\n') && result.stderr.split('\n').length === 2, `one line: ${JSON.stringify(result.stderr)}`);
  return result.stderr.slice('pvs: '.length, -1);
}

async function post(site: Site, path: string, body: unknown, authorization?: string) {
  const response = await fetch(`http://127.0.0.1:${site.port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function get(site: Site, path: string, authorization: string) {
  const response = await fetch(`http://127.0.0.1:${site.port}${path}`, { headers: { authorization } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

let site: Site;
let server: Pvs | undefined;
let first: Created;

before(async () => {
  site = await newSite();
});
after(async () => {
  if (server?.running) await server.terminate();
});

describe('pvs operator create with no server running', () => {
  it('--json prints exactly one JSON object: operatorId, the email as stored (lower case) and a one-time password', async () => {
    const result = await run(site, ['operator', 'create', '--email', 'Ana.Ops@Example.com', '--json']);
    assert.equal(result.code, 0, result.describe());
    first = assertCreated(onlyJsonObject(result.stdout), 'ana.ops@example.com');
  });

  it('refuses a second operator with the same email, whatever its case', async () => {
    const said = assertRefused(await run(site, ['operator', 'create', '--email', 'ANA.OPS@example.com', '--json']));
    assert.match(said, /^An operator with the email ana\.ops@example\.com already exists/);
  });

  it('refuses an email that is not one, naming --email, before opening anything', async () => {
    for (const email of ['not-an-email', 'ana ops@example.com', 'a@b@example.com']) {
      assert.equal(assertRefused(await run(site, ['operator', 'create', '--email', email])), '--email: must be an email address', email);
    }
    assert.equal(assertRefused(await run(site, ['operator', 'create', '--email', 'ana\u0007@example.com'])), '--email contains a control character (U+0007) at position 4');
  });
});

describe('pvs operator create and disable while the server holds the database', () => {
  let second: Created;

  before(async () => {
    // Info logs, so that the last test can look for passwords in every line the server wrote.
    server = await serve(site, [], { LOG_LEVEL: 'info' });
  });

  it('creates an operator while the server runs (through it, on the embedded database); the human output shows the password once', async () => {
    const human = await run(site, ['operator', 'create', '--email', 'ben.ops@example.com']);
    assert.equal(human.code, 0, human.describe());
    const password = /^password\s+(\S+)\s+\(one-time/m.exec(human.stdout)?.[1];
    assert.match(String(password), /^[A-HJ-NP-Za-km-np-z2-9]{20}$/, human.stdout);
    assert.match(human.stdout, /^operatorId\s+opr_\S+$/m);
    second = { operatorId: /^operatorId\s+(\S+)/m.exec(human.stdout)![1]!, email: 'ben.ops@example.com', password: password! };

    const duplicate = assertRefused(await run(site, ['operator', 'create', '--email', 'Ben.Ops@Example.com']));
    assert.match(duplicate, /^(The running server refused the command: )?An operator with the email ben\.ops@example\.com already exists/);
  });

  it('the one-time password printed by the command signs in, once replaced, and the token answers /ops/v1/me', async () => {
    const refused = await post(site, '/ops/v1/token', { email: first.email, password: first.password });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    const signedIn = await post(site, '/ops/v1/token', { email: first.email, password: first.password, newPassword: 'my own password, at last' });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    const me = await get(site, '/ops/v1/me', `Bearer ${String(signedIn.body.access_token)}`);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.id, first.operatorId);
    assert.equal(me.body.email, 'ana.ops@example.com');
  });

  it('disable --json ends the operator\'s tokens and sign-ins at once', async () => {
    const signedIn = await post(site, '/ops/v1/token', { email: second.email, password: second.password, newPassword: 'another own password' });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    const authorization = `Bearer ${String(signedIn.body.access_token)}`;
    assert.equal((await get(site, '/ops/v1/me', authorization)).status, 200);

    const result = await run(site, ['operator', 'disable', '--email', 'BEN.OPS@example.com', '--json']);
    assert.equal(result.code, 0, result.describe());
    const disabled = onlyJsonObject(result.stdout);
    assert.equal(disabled.operatorId, second.operatorId);
    assert.equal(disabled.email, second.email);
    assert.ok(!Number.isNaN(Date.parse(String(disabled.disabledAt))));

    assert.equal((await get(site, '/ops/v1/me', authorization)).status, 401);
    assert.equal((await post(site, '/ops/v1/token', { email: second.email, password: 'another own password' })).status, 401);
    assert.match(assertRefused(await run(site, ['operator', 'disable', '--email', 'nobody@example.com'])), /The operator nobody@example\.com was not found/);
  });

  it('keeps every password out of the server\'s output', async () => {
    assert.deepEqual(await server!.terminate(), { code: 0, signal: null }, server!.describe());
    assert.match(server!.stdout, /"route":"\/ops\/v1\/token"/, 'the sign-ins were logged');
    for (const secret of [first.password, second.password, 'my own password, at last', 'another own password']) {
      assert.ok(!server!.stdout.includes(secret) && !server!.stderr.includes(secret), 'a password in the server output');
    }
  });
});
