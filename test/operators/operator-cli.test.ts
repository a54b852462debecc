// `pvs operator create` and `pvs operator disable` as an administrator runs them: real processes, with no
// server running (the command opens the database itself) and while `pvs serve` runs (on the embedded
// database, the command asks the server over its loopback admin endpoint; on PostgreSQL it opens it too). The printed one-time password signs in over HTTP:
// the operator sets up an authenticator app in the console's pages, as a person would, before the API issues a token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { totpPeriodSeconds } from '../../src/modules/accounts/totp.ts';
import { newSite, onlyJsonObject, run, serve, type Pvs, type Site } from '../helpers/cli.ts';
import { nextTotpCode, type TestTotp } from '../helpers/second-factor.ts';

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

/** A browser's cookies for the console, enough for its sign-in pages: name → value, from Set-Cookie. */
class Jar {
  readonly cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      if (/max-age=0/i.test(line) || at === pair!.length - 1) this.cookies.delete(pair!.slice(0, at));
      else this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** A console page as a browser asks for it: the jar's cookies sent, its Set-Cookie kept, redirects not followed. */
async function page(site: Site, jar: Jar, path: string, form?: Record<string, string>) {
  const response = await fetch(`http://127.0.0.1:${site.port}${path}`, {
    method: form ? 'POST' : 'GET',
    headers: { cookie: jar.header() },
    body: form ? new URLSearchParams(form) : undefined,
    redirect: 'manual',
  });
  jar.take(response);
  const body = await response.text();
  return { status: response.status, location: response.headers.get('location') ?? undefined, body, csrf: /name="_csrf" value="([^"]+)"/.exec(body)?.[1] };
}

/**
 * What an operator does at their first sign-in to the console: signs in (choosing their own password if
 * the one they have is the one-time one), reads the key off *Set up your authenticator app*, adds it to
 * their app (here: the code computed from it) and confirms it. Returns the app, with the recovery codes
 * the console showed.
 */
async function enrolInConsole(site: Site, account: { email: string; password: string }, newPassword?: string): Promise<TestTotp> {
  const jar = new Jar();
  const form = await page(site, jar, '/console/login');
  const signedIn = await page(site, jar, '/console/login', { _csrf: form.csrf!, email: account.email, password: account.password, next: '/console' });
  assert.equal(signedIn.status, 303, signedIn.body);
  if (newPassword !== undefined) {
    assert.equal(signedIn.location, '/console/password', 'the one-time password is replaced first');
    const passwordForm = await page(site, jar, '/console/password');
    const replaced = await page(site, jar, '/console/password', { _csrf: passwordForm.csrf!, newPassword, confirmPassword: newPassword });
    assert.equal(replaced.status, 303, replaced.body);
  }
  // Every page leads to the enrolment until it is done.
  const held = await page(site, jar, '/console');
  assert.equal(held.status, 303, held.body);
  assert.match(String(held.location), /^\/console\/second-factor\/enrol/);
  const enrolment = await page(site, jar, held.location!);
  assert.equal(enrolment.status, 200, enrolment.body);
  const key = /<code class="setup-key" id="setup-key">([A-Z2-7 ]+)<\/code>/.exec(enrolment.body)?.[1]?.replace(/ /g, '');
  assert.ok(key, 'the enrolment page shows the key as text');
  const totp: TestTotp = { secret: key, lastStep: Math.floor(Date.now() / (totpPeriodSeconds * 1000)) - 2, recoveryCodes: [] };
  const confirmed = await page(site, jar, '/console/second-factor/enrol', { _csrf: enrolment.csrf!, code: await nextTotpCode(totp), next: '/console' });
  assert.equal(confirmed.status, 200, confirmed.body);
  assert.match(confirmed.body, /Save your recovery codes/);
  totp.recoveryCodes = [...confirmed.body.matchAll(/<li><code>([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4})<\/code><\/li>/g)].map((m) => m[1]!);
  assert.equal(totp.recoveryCodes.length, 10, 'ten recovery codes');
  return totp;
}

let site: Site;
let server: Pvs | undefined;
let first: Created;
/** Whatever the operators typed or were shown besides their passwords: no more in the server's output than they. */
const secrets: string[] = [];
const codes: string[] = [];

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

  it('the one-time password printed by the command signs in to the console, replaced; with the app set up there, a code gets a token that answers /ops/v1/me', async () => {
    const refused = await post(site, '/ops/v1/token', { email: first.email, password: first.password });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    const password = 'my own password, at last';
    const totp = await enrolInConsole(site, first, password);
    secrets.push(totp.secret, ...totp.recoveryCodes);

    const withoutCode = await post(site, '/ops/v1/token', { email: first.email, password });
    assert.equal(withoutCode.status, 401, JSON.stringify(withoutCode.body));
    assert.match(String(withoutCode.body.detail), /send the code your authenticator app shows/);
    const code = await nextTotpCode(totp);
    codes.push(code);
    const signedIn = await post(site, '/ops/v1/token', { email: first.email, password, code });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    const me = await get(site, '/ops/v1/me', `Bearer ${String(signedIn.body.access_token)}`);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.id, first.operatorId);
    assert.equal(me.body.email, 'ana.ops@example.com');
  });

  it('disable --json ends the operator\'s tokens and sign-ins at once', async () => {
    // The one-time password replaced through the API: saved, but no token before the app is set up in the console.
    const replaced = await post(site, '/ops/v1/token', { email: second.email, password: second.password, newPassword: 'another own password' });
    assert.equal(replaced.status, 403, JSON.stringify(replaced.body));
    assert.match(String(replaced.body.detail), /^The new password is saved, but this operator has no second factor yet.*\/console/);
    const totp = await enrolInConsole(site, { email: second.email, password: 'another own password' });
    secrets.push(totp.secret, ...totp.recoveryCodes);
    const code = totp.recoveryCodes[0]!;
    codes.push(code);
    const signedIn = await post(site, '/ops/v1/token', { email: second.email, password: 'another own password', code });
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
    assert.equal(secrets.length, 22, 'two apps\' keys and their recovery codes');
    for (const secret of secrets) assert.ok(!server!.stdout.includes(secret) && !server!.stderr.includes(secret), 'a key or a recovery code in the server output');
    // A 6-digit code is looked for as a JSON string: the same digits inside a timestamp or a duration are no leak.
    for (const code of codes) assert.ok(!server!.stdout.includes(`"${code}"`) && !server!.stderr.includes(`"${code}"`), 'a code in the server output');
  });
});
