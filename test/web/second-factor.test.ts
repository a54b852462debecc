// Second factors through the services and the admin commands, on both database back-ends: a code once,
// one step either side, a recovery code once, wrong codes toward the lockout, the reset command (audited,
// sessions ended), and sign-in throttling per address across accounts. The pages in a browser:
// second-factor-browser.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCommands } from '../../src/admin/commands.ts';
import { totpCodeAt } from '../../src/modules/accounts/totp.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { createTestContext, type TestContext, type TestOperator } from '../helpers/context.ts';

describe('second factors', () => {
  let t: TestContext;
  const clock = createManualClock(new Date('2026-03-02T09:00:10Z'));
  let operator: TestOperator;

  before(async () => {
    t = await createTestContext({ clock, env: { SIGN_IN_RATE_LIMIT_PER_MINUTE: '2' } });
    operator = await t.f.operator();
  });
  after(() => t.close());

  const factors = () => t.services.operatorFactors;
  const at = (seconds: number) => new Date(clock.now().getTime() + seconds * 1000);

  it('accepts a code of the step before or after, once; refuses one two steps away and any code used or older', async () => {
    const secret = operator.totp!.secret;
    // Enrolment used the current step: its code, and the one before it, are spent.
    assert.deepEqual(await factors().verify(operator.operatorId, totpCodeAt(secret, clock.now())), { ok: false, reason: 'REPLAYED' });
    assert.deepEqual(await factors().verify(operator.operatorId, totpCodeAt(secret, at(-30))), { ok: false, reason: 'REPLAYED' });
    assert.deepEqual(await factors().verify(operator.operatorId, totpCodeAt(secret, at(60))), { ok: false, reason: 'WRONG' });
    assert.deepEqual(await factors().verify(operator.operatorId, totpCodeAt(secret, at(30))), { ok: true, method: 'TOTP' });
    assert.deepEqual(await factors().verify(operator.operatorId, totpCodeAt(secret, at(30))), { ok: false, reason: 'REPLAYED' });
    // Two requests with the same fresh code at once: one passes.
    clock.advance(60_000);
    const code = totpCodeAt(secret, clock.now());
    const both = await Promise.all([factors().verify(operator.operatorId, code), factors().verify(operator.operatorId, code)]);
    assert.deepEqual(both.map((r) => r.ok).sort(), [false, true]);
  });

  it('takes a recovery code once, in any case and spacing, and says how many are left', async () => {
    const code = operator.totp!.recoveryCodes[0]!;
    assert.deepEqual(await factors().verify(operator.operatorId, code.toUpperCase().replace(/-/g, ' ')), { ok: true, method: 'RECOVERY_CODE', recoveryCodesLeft: 9 });
    assert.deepEqual(await factors().verify(operator.operatorId, code), { ok: false, reason: 'WRONG' });
    assert.equal(await factors().recoveryCodesLeft(operator.operatorId), 9);
  });

  it('counts wrong codes toward the account’s lockout; a right one ends the count', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await factors().verify(operator.operatorId, '000000')).ok, false);
    const [row] = await t.services.db.query<{ failed_logins: number }>('SELECT failed_logins FROM operators WHERE id = $1', [operator.operatorId]);
    assert.equal(row!.failed_logins, 3 + 1, 'three here and the spent recovery code before');
    await factors().verify(operator.operatorId, '000001');
    await assert.rejects(factors().verify(operator.operatorId, totpCodeAt(operator.totp!.secret, at(30))), (error: { code?: string; retryAfter?: number }) => error.code === 'RATE_LIMITED' && error.retryAfter! > 0);
    clock.advance(61_000);
    assert.deepEqual(await factors().verify(operator.operatorId, totpCodeAt(operator.totp!.secret, clock.now())), { ok: true, method: 'TOTP' });
    const [after] = await t.services.db.query<{ failed_logins: number }>('SELECT failed_logins FROM operators WHERE id = $1', [operator.operatorId]);
    assert.equal(after!.failed_logins, 0);
  });

  it('resets an operator’s and a portal user’s factor from the command line: codes gone, sessions ended, audited', async () => {
    const session = await t.services.webSessions.open('console', operator.operatorId, { passwordChangeRequired: false });
    const reset = await adminCommands['operator-reset-mfa']!.run(t.services, { email: operator.email.toUpperCase() });
    assert.deepEqual(reset, { operatorId: operator.operatorId, email: operator.email, hadSecondFactor: true, recoveryCodesRemoved: 10, passkeysRemoved: 0, sessionsEnded: 1 });
    assert.equal(await t.services.webSessions.find('console', session.token), undefined);
    assert.equal((await t.services.operators.accounts.current(operator.operatorId))!.totp_enrolled_at, null);
    assert.equal(await factors().recoveryCodesLeft(operator.operatorId), 0);
    assert.deepEqual(await factors().verify(operator.operatorId, totpCodeAt(operator.totp!.secret, at(30))), { ok: false, reason: 'NOT_ENROLLED' });
    const entry = (await t.services.audit.list({ action: 'operator.second_factor_reset' }, { limit: 10, from: 0 })).data[0]!;
    assert.deepEqual(entry.actor, { kind: 'ADMIN', id: 'cli', email: 'pvs command' });
    assert.equal(entry.targetId, operator.operatorId);

    const partner = await t.f.partner();
    const user = await t.services.portalUsers.create({ partnerId: partner.partnerId, email: `reset-${Date.now()}@partner.test` });
    const again = await adminCommands['portal-user-reset-mfa']!.run(t.services, { email: user.email });
    assert.deepEqual(again, { portalUserId: user.portalUserId, email: user.email, hadSecondFactor: false, recoveryCodesRemoved: 0, passkeysRemoved: 0, sessionsEnded: 0 });
    const portalEntry = (await t.services.audit.list({ action: 'portal_user.second_factor_reset' }, { limit: 10, from: 0 })).data[0]!;
    assert.equal(portalEntry.partnerId, partner.partnerId);
    await assert.rejects(adminCommands['operator-reset-mfa']!.run(t.services, { email: 'nobody@pvs.test' }), /nobody@pvs\.test/);
  });

  it('limits sign-in posts per address, whatever the account, with a 429 page and Retry-After; the limit refills with time', async () => {
    clock.advance(120_000);
    const post = (url: string, email: string) =>
      t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ email, password: 'a guess' }).toString() });
    assert.equal((await post('/console/login', 'one@pvs.test')).statusCode, 403);
    assert.equal((await post('/console/login', 'two@pvs.test')).statusCode, 403);
    const refused = await post('/console/login', 'three@pvs.test');
    assert.equal(refused.statusCode, 429);
    assert.match(String(refused.headers['retry-after']), /^[1-9][0-9]*$/);
    assert.match(refused.headers['content-type'] as string, /text\/html/);
    assert.match(refused.body, /Too many sign-in attempts from your network address\. Try again in \d+ seconds?\./);
    // Another address is not held back, nor the other area.
    const elsewhere = await t.app.inject({ method: 'POST', url: '/console/login', remoteAddress: '203.0.113.9', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=x%40pvs.test&password=y' });
    assert.equal(elsewhere.statusCode, 403);
    assert.equal((await post('/portal/login', 'one@partner.test')).statusCode, 403);
    clock.advance(30_000);
    assert.equal((await post('/console/login', 'four@pvs.test')).statusCode, 403, 'a token back after half a minute');
  });
});
