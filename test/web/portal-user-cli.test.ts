// `pvs portal-user create` and `disable` as an administrator runs them, with no server and while `pvs serve`
// holds the database; the printed one-time password signs in to /portal over real HTTP, once replaced.
// test-pass: pglite
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertCredentials, newSite, onlyJsonObject, run, serve, type Pvs, type Site } from '../helpers/cli.ts';

// What is particular to portal users does not depend on the back-end, and the admin commands' path on
// each back-end (opening PostgreSQL beside the server, asking PGlite's server) is tested by
// operator-cli.test.ts and cli.test.ts in both passes: this file runs in the PGlite pass only.
const skip = process.env.TEST_DATABASE === 'postgres' ? 'the command path per back-end is operator-cli.test.ts’s: this runs in the PGlite pass only' : false;

let site: Site;
let server: Pvs | undefined;
let partnerId: string;

before(async () => {
  if (skip) return;
  site = await newSite();
  const created = await run(site, ['partner', 'create', '--name', 'Gum Tree Tax', '--json']);
  assert.equal(created.code, 0, created.describe());
  partnerId = assertCredentials(onlyJsonObject(created.stdout)).partnerId;
});
after(async () => {
  if (server?.running) await server.terminate();
});

/** Cookie-carrying requests to the served portal, as a browser would make them. */
function browserOf(port: number) {
  const cookies = new Map<string, string>();
  async function request(method: 'GET' | 'POST', path: string, form?: Record<string, string>) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (value) cookies.set(name, value);
      else cookies.delete(name);
    }
    return { status: response.status, location: response.headers.get('location'), body: await response.text() };
  }
  const token = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)![1]!;
  return {
    async signIn(email: string, password: string) {
      const form = await request('GET', '/portal/login');
      return request('POST', '/portal/login', { _csrf: token(form.body), email, password });
    },
    async choosePassword(password: string) {
      const form = await request('GET', '/portal/password');
      return request('POST', '/portal/password', { _csrf: token(form.body), newPassword: password, confirmPassword: password });
    },
    get: (path: string) => request('GET', path),
  };
}

describe('pvs portal-user create', { skip }, () => {
  let created: Record<string, unknown>;

  it('--json prints exactly one JSON object with the one-time password, with no server running', async () => {
    const result = await run(site, ['portal-user', 'create', '--partner', partnerId, '--email', 'Kim@GumTree.test', '--json']);
    assert.equal(result.code, 0, result.describe());
    created = onlyJsonObject(result.stdout);
    assert.deepEqual(Object.keys(created).sort(), ['email', 'partnerId', 'password', 'portalUserId']);
    assert.match(String(created.portalUserId), /^usr_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(created.partnerId, partnerId);
    assert.equal(created.email, 'kim@gumtree.test');
    assert.match(String(created.password), /^[A-HJ-NP-Za-km-np-z2-9]{20}$/);
  });

  it('refuses an unknown partner and an email already in use, in one line each (a bad email: operator-cli.test.ts, the same schema)', async () => {
    const unknown = await run(site, ['portal-user', 'create', '--partner', 'ptn_01M7YSX1AM3TXGDKX1GDD1CEXA', '--email', 'x@gumtree.test']);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'pvs: The partner was not found\n');
    const twice = await run(site, ['portal-user', 'create', '--partner', partnerId, '--email', 'KIM@gumtree.test']);
    assert.match(twice.stderr, /^pvs: A portal user with the email kim@gumtree\.test already exists/);
  });

  it('while the server runs: the printed password signs in once replaced, and disable ends the session at once', async () => {
    server = await serve(site, [], { LOG_LEVEL: 'info' });
    const human = await run(site, ['portal-user', 'create', '--partner', partnerId, '--email', 'lee@gumtree.test']);
    assert.equal(human.code, 0, human.describe());
    const password = /^password\s+(\S+)\s+\(one-time/m.exec(human.stdout)?.[1];
    assert.ok(password, human.stdout);

    const browser = browserOf(site.port);
    const first = await browser.signIn('lee@gumtree.test', password);
    assert.equal(first.location, '/portal/password');
    assert.equal((await browser.choosePassword('my own portal password')).location, '/portal');
    const home = await browser.get('/portal');
    assert.equal(home.status, 200);
    assert.match(home.body, /Gum Tree Tax/);

    const disabled = await run(site, ['portal-user', 'disable', '--email', 'LEE@gumtree.test', '--json']);
    assert.equal(disabled.code, 0, disabled.describe());
    assert.equal(onlyJsonObject(disabled.stdout).email, 'lee@gumtree.test');
    assert.equal((await browser.get('/portal')).status, 303, 'signed out at the next page');

    assert.deepEqual(await server.terminate(), { code: 0, signal: null }, server.describe());
    for (const secret of [password, 'my own portal password', String(created.password)]) {
      assert.ok(!server.stdout.includes(secret) && !server.stderr.includes(secret), 'a password in the server output');
    }
  });
});
