// Sign-in, sessions and CSRF of the portal and the console, through app.inject (both database back-ends);
// the same flows in a real browser are in sign-in-browser.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { nextTotpCode } from '../helpers/second-factor.ts';
import { createConsoleOperator, createPortalUser, type WebAccount } from '../helpers/web.ts';

type Area = 'portal' | 'console';

/** A browser's cookie jar, enough for these pages: name → value, set and cleared by Set-Cookie. */
class Jar {
  readonly cookies = new Map<string, string>();
  take(headers: Record<string, unknown>): void {
    const set = headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = String(line).split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0/i.test(String(line))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const hiddenToken = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)?.[1];

describe('portal and console sessions', () => {
  let t: TestContext;
  let partner: TestPartner;
  let user: WebAccount;
  const clock = createManualClock(new Date());

  before(async () => {
    t = await createTestContext({ clock });
    partner = await t.f.partner({ name: 'Session Partner' });
    user = await createPortalUser(t, partner.partnerId);
  });
  after(() => t.close());

  async function get(jar: Jar, url: string) {
    const response = await t.app.inject({ method: 'GET', url, headers: { cookie: jar.header() } });
    jar.take(response.headers);
    return response;
  }

  async function post(jar: Jar, url: string, form: Record<string, string>) {
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
    jar.take(response.headers);
    return response;
  }

  /** Signs in through the form: GET for the form's token, then POST; then the code, for an account with a second factor. */
  async function signIn(area: Area, account: Pick<WebAccount, 'email' | 'password' | 'totp'>, jar = new Jar()) {
    const form = await get(jar, `/${area}/login`);
    const response = await post(jar, `/${area}/login`, { _csrf: hiddenToken(form.body)!, email: account.email, password: account.password, next: `/${area}` });
    if (!account.totp || response.statusCode !== 303) return { jar, response };
    const codePage = await get(jar, String(response.headers.location));
    assert.equal(codePage.statusCode, 303, 'the second factor is asked for');
    const codeForm = await get(jar, String(codePage.headers.location));
    const answered = await post(jar, `/${area}/second-factor`, { _csrf: hiddenToken(codeForm.body)!, code: await nextTotpCode(account.totp, () => clock.now()), next: `/${area}` });
    return { jar, response: answered };
  }

  it('sends a reader without a session to the sign-in page, keeping where they were going', async () => {
    const response = await get(new Jar(), '/portal/lookups?limit=5');
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/portal/login?next=%2Fportal%2Flookups%3Flimit%3D5');
  });

  it('signs in, with a session cookie that is HttpOnly, Secure, SameSite and scoped to its area, and lands where the reader was going', async () => {
    const jar = new Jar();
    const form = await get(jar, '/portal/login');
    const response = await post(jar, '/portal/login', { _csrf: hiddenToken(form.body)!, email: user.email.toUpperCase(), password: user.password, next: '/portal/deliveries' });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/portal/deliveries');
    const cookie = [response.headers['set-cookie']].flat().find((c) => String(c).startsWith('pvs_portal='));
    assert.match(String(cookie), /; Path=\/portal; HttpOnly; Secure; SameSite=Lax$/);
    const home = await get(jar, '/portal');
    assert.equal(home.statusCode, 200);
    assert.match(home.body, new RegExp(`Signed in as </span>${user.email.replace('.', '\\.')}`));
    assert.match(home.body, /Session Partner/);
  });

  it('never redirects after sign-in to another site or area', async () => {
    for (const next of ['//evil.example/x', 'https://evil.example', '/console', '/portal/../console', '/portal\\@evil']) {
      const jar = new Jar();
      const form = await get(jar, '/portal/login');
      const response = await post(jar, '/portal/login', { _csrf: hiddenToken(form.body)!, email: user.email, password: user.password, next });
      assert.equal(response.headers.location, '/portal', `next=${next}`);
    }
  });

  it('refuses the sign-in form without its token, and a token from another browser', async () => {
    const jar = new Jar();
    await get(jar, '/portal/login');
    const missing = await post(jar, '/portal/login', { email: user.email, password: user.password });
    assert.equal(missing.statusCode, 403);
    assert.match(missing.body, /sign-in form had expired/);
    assert.equal(jar.cookies.has('pvs_portal'), false);

    const other = new Jar();
    const foreign = hiddenToken((await get(other, '/portal/login')).body)!;
    const crossed = await post(jar, '/portal/login', { _csrf: foreign, email: user.email, password: user.password });
    assert.equal(crossed.statusCode, 403);
    assert.equal(jar.cookies.has('pvs_portal'), false);
  });

  it('answers a wrong password and an unknown email alike, then locks the account after 5 failures, even for the right password', async () => {
    const victim = await createPortalUser(t, partner.partnerId);
    const unknown = await signIn('portal', { email: 'nobody@partner.test', password: 'whatever password' });
    assert.equal(unknown.response.statusCode, 401);
    for (let i = 0; i < 4; i++) {
      const wrong = await signIn('portal', { email: victim.email, password: `wrong ${i}` });
      assert.equal(wrong.response.statusCode, 401);
      assert.match(wrong.response.body, /The email address or the password is wrong\./);
    }
    assert.equal(unknown.response.body.match(/<div class="notice[^>]*>[^<]*/)?.[0].replace(/\s+/g, ' '), (await signIn('portal', { email: 'nobody@partner.test', password: 'x' })).response.body.match(/<div class="notice[^>]*>[^<]*/)?.[0].replace(/\s+/g, ' '));
    const fifth = await signIn('portal', { email: victim.email, password: 'wrong 5' });
    assert.equal(fifth.response.statusCode, 401);
    const locked = await signIn('portal', victim);
    assert.equal(locked.response.statusCode, 429);
    assert.match(locked.response.body, /this account is locked\. Try again in 1 minute/);
    assert.equal(locked.response.headers['retry-after'], '60');
    assert.equal(locked.jar.cookies.has('pvs_portal'), false);
    clock.advance(61_000);
    assert.equal((await signIn('portal', victim)).response.statusCode, 303);
  });

  it('makes the first sign-in with the one-time password replace it before anything else', async () => {
    const created = await t.services.portalUsers.create({ partnerId: partner.partnerId, email: `first-${Date.now()}@partner.test` });
    const { jar, response } = await signIn('portal', { email: created.email, password: created.password });
    assert.equal(response.headers.location, '/portal/password');
    assert.equal((await get(jar, '/portal/lookups')).headers.location, '/portal/password', 'every other page waits for the new password');
    const form = await get(jar, '/portal/password');
    const token = hiddenToken(form.body)!;
    const short = await post(jar, '/portal/password', { _csrf: token, newPassword: 'short', confirmPassword: 'short' });
    assert.equal(short.statusCode, 400);
    assert.match(short.body, /The new password must be at least 12 characters/);
    const mismatch = await post(jar, '/portal/password', { _csrf: token, newPassword: 'a brand new password', confirmPassword: 'another one entirely' });
    assert.match(mismatch.body, /The two passwords are not the same/);
    const oldSession = jar.header();
    const done = await post(jar, '/portal/password', { _csrf: token, newPassword: 'a brand new password', confirmPassword: 'a brand new password' });
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, '/portal');
    assert.equal((await get(jar, '/portal')).statusCode, 200);
    // The session opened with the one-time password ended with it.
    assert.equal((await t.app.inject({ method: 'GET', url: '/portal', headers: { cookie: oldSession } })).statusCode, 303);
    assert.equal((await signIn('portal', { email: created.email, password: created.password })).response.statusCode, 401, 'the one-time password is spent');
    assert.equal((await signIn('portal', { email: created.email, password: 'a brand new password' })).response.headers.location, '/portal');
  });

  it('refuses a form posted without the session token or with another session’s, and signs out with it', async () => {
    const { jar } = await signIn('portal', user);
    const page = await get(jar, '/portal');
    const token = hiddenToken(page.body)!;
    const forged = await post(jar, '/portal/logout', {});
    assert.equal(forged.statusCode, 403);
    assert.match(forged.body, /This form could not be accepted/);
    const other = (await signIn('portal', user)).jar;
    const otherToken = hiddenToken((await get(other, '/portal')).body)!;
    assert.notEqual(otherToken, token);
    assert.equal((await post(jar, '/portal/logout', { _csrf: otherToken })).statusCode, 403);
    assert.equal((await get(jar, '/portal')).statusCode, 200, 'still signed in after the refused forms');

    const cookieBefore = jar.header();
    const out = await post(jar, '/portal/logout', { _csrf: token });
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/portal/login?signedOut=1');
    assert.match((await get(jar, '/portal/login?signedOut=1')).body, /You have signed out\./);
    // The session is revoked on the server: the old cookie, replayed, opens nothing.
    assert.equal((await t.app.inject({ method: 'GET', url: '/portal', headers: { cookie: cookieBefore } })).statusCode, 303);
    assert.equal((await get(other, '/portal')).statusCode, 200, 'signing out ends only this session');
  });

  it('ends a session after the idle time and after the absolute lifetime', async () => {
    const { jar } = await signIn('portal', user);
    clock.advance(29 * 60_000);
    assert.equal((await get(jar, '/portal')).statusCode, 200, 'use moves the idle deadline on');
    clock.advance(29 * 60_000);
    assert.equal((await get(jar, '/portal')).statusCode, 200);
    clock.advance(31 * 60_000);
    assert.equal((await get(jar, '/portal')).statusCode, 303, '31 idle minutes end it');

    const busy = (await signIn('portal', user)).jar;
    for (let minutes = 0; minutes < 12 * 60; minutes += 20) {
      clock.advance(20 * 60_000);
      const status = (await get(busy, '/portal')).statusCode;
      if (minutes + 20 >= 12 * 60) assert.equal(status, 303, 'ended 12 hours after sign-in');
      else assert.equal(status, 200, `still open after ${minutes + 20} minutes`);
    }
  });

  it('keeps the portal and the console apart: a portal session opens no console page', async () => {
    const { jar } = await signIn('portal', user);
    const portalCookie = jar.cookies.get('pvs_portal')!;
    const response = await t.app.inject({ method: 'GET', url: '/console', headers: { cookie: `pvs_console=${portalCookie}` } });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/console/login?next=%2Fconsole');
  });

  it('signs a disabled portal user out at once, and every portal user of a disabled partner', async () => {
    const leaving = await createPortalUser(t, partner.partnerId);
    const { jar } = await signIn('portal', leaving);
    await t.services.portalUsers.disable(leaving.email);
    assert.equal((await get(jar, '/portal')).statusCode, 303);
    assert.equal((await signIn('portal', leaving)).response.statusCode, 401);

    const other = await t.f.partner({ name: 'Soon Disabled' });
    const staff = await createPortalUser(t, other.partnerId);
    const session = (await signIn('portal', staff)).jar;
    await t.services.db.query('UPDATE partners SET disabled_at = $2 WHERE id = $1', [other.partnerId, clock.now()]);
    assert.equal((await get(session, '/portal')).statusCode, 303);
    const again = await signIn('portal', staff);
    assert.equal(again.response.statusCode, 403);
    assert.match(again.response.body, /its partner is disabled/);
    const issued = await t.services.tokens.issue({ clientId: other.clientId, clientSecret: other.clientSecret });
    assert.equal(issued.ok, false, 'and its API client gets no token');
  });

  it('serves pages under a policy that allows no inline script or style, and never caches them', async () => {
    const { jar } = await signIn('console', await createConsoleOperator(t));
    for (const url of ['/console/login', '/portal/login', '/console/no-such-page']) {
      const response = await get(url.startsWith('/console') && url !== '/console/login' ? jar : new Jar(), url);
      const csp = String(response.headers['content-security-policy']);
      assert.match(csp, /script-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.doesNotMatch(response.body, /<script(?![^>]*\ssrc=)[^>]*>/, `${url}: every script is a file`);
      assert.doesNotMatch(response.body, /\sstyle=|<style/, `${url}: no inline style`);
    }
    const missing = await get(jar, '/console/no-such-page');
    assert.equal(missing.statusCode, 404);
    assert.match(missing.body, /Page not found/);
  });

  it('writes sign-in, password replacement and sign-out to the audit log', async () => {
    const operator = await createConsoleOperator(t);
    const { jar } = await signIn('console', operator);
    const token = hiddenToken((await get(jar, '/console')).body)!;
    await post(jar, '/console/logout', { _csrf: token });
    const entries = await t.services.audit.list({}, { limit: 100, from: 0 });
    const mine = entries.data.filter((e) => e.actor.id === operator.id).map((e) => e.action);
    assert.deepEqual(mine, ['session.signed_out', 'session.signed_in']);
    assert.doesNotMatch(JSON.stringify(entries.data), new RegExp(operator.password));
  });
});
