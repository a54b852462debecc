// Operators signing in at POST /ops/v1/token: the one-time password, new passwords, the second factor
// (none yet: no token; then a code from the app or a recovery code at every token), wrong credentials
// and wrong codes, the lockout and its release, disabled accounts, and that no password, code or key
// ever reaches the logs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { totpPeriodSeconds } from '../../src/modules/accounts/totp.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { enrolTestFactor, nextTotpCode, type TestTotp } from '../helpers/second-factor.ts';

const clock = createManualClock(new Date());
let t: TestContext;
/** Every password any test sent or was given: none of them may appear in the logs. */
const passwords = new Set<string>();
/** Every code any test sent (from the app or a recovery code), and every app's key: none may appear in the logs either. */
const codes = new Set<string>();
const keys = new Set<string>();

before(async () => {
  // The per-address limit on the token route has its own test below; here it would end the file early.
  t = await createTestContext({ clock, env: { TOKEN_RATE_LIMIT_PER_MINUTE: '100000' } });
});
after(() => t.close());

let counter = 0;
async function newOperator(email = `ops-${++counter}@pvs.test`) {
  const created = await t.services.operators.create({ email });
  passwords.add(created.password);
  return created;
}

async function signIn(body: Record<string, unknown>) {
  for (const key of ['password', 'newPassword']) if (typeof body[key] === 'string') passwords.add(body[key] as string);
  if (typeof body.code === 'string' && body.code !== '') codes.add(body.code);
  return t.app.inject({ method: 'POST', url: '/ops/v1/token', payload: body });
}

function me(authorization?: string) {
  return t.app.inject({ method: 'GET', url: '/ops/v1/me', headers: authorization ? { authorization } : {} });
}

/** Enrols the operator in the tests' authenticator app, as the console's enrolment page does. */
async function enrol(operator: { operatorId: string; email: string }): Promise<TestTotp> {
  const totp = await enrolTestFactor(t.services.operatorFactors, { id: operator.operatorId, email: operator.email }, clock.now());
  keys.add(totp.secret);
  for (const code of totp.recoveryCodes) codes.add(code);
  return totp;
}

/**
 * The app's next code. When every step within reach of the clock is spent, the clock is moved on to the
 * next step first (nextTotpCode would wait for the real clock, which does not move this one).
 */
async function codeOf(totp: TestTotp): Promise<string> {
  const periodMs = totpPeriodSeconds * 1000;
  if (totp.lastStep > Math.floor(clock.now().getTime() / periodMs)) clock.advance(totp.lastStep * periodMs - clock.now().getTime());
  return nextTotpCode(totp, () => clock.now());
}

async function failedLogins(operatorId: string): Promise<number> {
  const [row] = await t.services.db.query<{ failed_logins: number }>('SELECT failed_logins FROM operators WHERE id = $1', [operatorId]);
  return row!.failed_logins;
}

/**
 * An operator past the first sign-in: the one-time password replaced through the API (403: no second
 * factor yet), an authenticator app enrolled, then a token for the password and a code.
 */
async function activeOperator() {
  const created = await newOperator();
  const password = `a password of my own ${counter}`;
  const first = await signIn({ email: created.email, password: created.password, newPassword: password });
  assert.equal(first.statusCode, 403, first.body);
  const totp = await enrol(created);
  const res = await signIn({ email: created.email, password, code: await codeOf(totp) });
  assert.equal(res.statusCode, 200, res.body);
  return { ...created, password, totp, token: res.json<{ access_token: string }>().access_token };
}

describe('the first sign-in', () => {
  it('refuses the one-time password alone: 403 FORBIDDEN saying newPassword must be sent, and no token', async () => {
    const created = await newOperator();
    const res = await signIn({ email: created.email, password: created.password });
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    const body = res.json<{ code: string; detail: string }>();
    assert.equal(body.code, 'FORBIDDEN');
    assert.match(body.detail, /one-time password must be replaced/);
    assert.match(body.detail, /newPassword/);
    assert.equal('access_token' in body, false);
  });

  it('with newPassword: the password is replaced, but no token without a second factor: 403 FORBIDDEN pointing to the console', async () => {
    const created = await newOperator();
    const newPassword = 'correct horse battery staple';
    const res = await signIn({ email: created.email, password: created.password, newPassword });
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    const refused = res.json<{ code: string; detail: string }>();
    assert.equal(refused.code, 'FORBIDDEN');
    assert.match(refused.detail, /^The new password is saved, but this operator has no second factor yet/);
    assert.match(refused.detail, /sign in to the console \(http:\/\/pvs\.test\/console\) first to set up an authenticator app/);
    assert.equal('access_token' in refused, false);

    const again = await signIn({ email: created.email, password: created.password, newPassword: 'yet another password' });
    assert.equal(again.statusCode, 401, 'the one-time password no longer works');
    assert.equal(again.json<{ detail: string }>().detail, 'Unknown email or wrong password');
    // The new password is the password now; still no token, and a code is not looked at without a factor.
    for (const body of [{ email: created.email, password: newPassword }, { email: created.email, password: newPassword, code: '123456' }]) {
      const own = await signIn(body);
      assert.equal(own.statusCode, 403, own.body);
      assert.match(own.json<{ detail: string }>().detail, /^This operator has no second factor yet, and no token is issued without one: sign in to the console/);
    }
    assert.equal(await failedLogins(created.operatorId), 0, 'a refusal for want of a factor is no failed sign-in');
  });

  it('once an authenticator app is enrolled: 200 and an ES256 operator token for 15 minutes, not cached, for the password and a code', async () => {
    const created = await newOperator();
    const newPassword = 'correct horse battery staple';
    assert.equal((await signIn({ email: created.email, password: created.password, newPassword })).statusCode, 403);
    const totp = await enrol(created);
    const res = await signIn({ email: created.email, password: newPassword, code: await codeOf(totp) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json<{ access_token: string; token_type: string; expires_in: number }>();
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'token_type']);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 900);

    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const { payload, protectedHeader } = await jwtVerify(body.access_token, createLocalJWKSet(jwks), { currentDate: clock.now() });
    assert.equal(protectedHeader.alg, 'ES256');
    assert.equal(payload.sub, created.operatorId);
    assert.equal(payload.aud, 'pvs-ops');
    assert.equal(payload.scope, 'ops');
    assert.equal(payload.env, 'sandbox');
    assert.equal(payload.iss, 'http://pvs.test');
    assert.equal(payload.partner_id, undefined);
    assert.equal((payload.exp as number) - (payload.iat as number), 900);
    assert.equal((await me(`Bearer ${body.access_token}`)).statusCode, 200);
  });

  it('takes the email in any case', async () => {
    const created = await newOperator(`Mixed.Case.${++counter}@PVS.test`);
    assert.equal(created.email, `mixed.case.${counter}@pvs.test`, 'stored normalised');
    const res = await signIn({ email: created.email.toUpperCase(), password: created.password, newPassword: 'twelve chars or more' });
    assert.equal(res.statusCode, 403, res.body);
    assert.match(res.json<{ detail: string }>().detail, /^The new password is saved/);
    const totp = await enrol(created);
    const own = await signIn({ email: created.email.toUpperCase(), password: 'twelve chars or more', code: await codeOf(totp) });
    assert.equal(own.statusCode, 200, own.body);
  });

  it('refuses a new password under 12 characters, or the current one, at /newPassword; the password stays', async () => {
    const created = await newOperator();
    const short = await signIn({ email: created.email, password: created.password, newPassword: 'elevenchars' });
    assert.equal(short.statusCode, 400, short.body);
    assert.deepEqual(
      short.json<{ errors: Array<{ pointer: string }> }>().errors.map((e) => e.pointer),
      ['/newPassword'],
    );
    const same = await signIn({ email: created.email, password: created.password, newPassword: created.password });
    assert.equal(same.statusCode, 400, same.body);
    assert.deepEqual(same.json<{ errors: unknown }>().errors, [{ pointer: '/newPassword', message: 'must differ from the current password' }]);
    const still = await signIn({ email: created.email, password: created.password });
    assert.equal(still.statusCode, 403, 'still the one-time password, still to be replaced');
    assert.match(still.json<{ detail: string }>().detail, /one-time password must be replaced/);
  });
});

describe('the second factor', () => {
  it('without a code: 401 UNAUTHENTICATED asking for it at /code, not counted as a failure; with a right code, a token /ops/v1/me answers', async () => {
    const operator = await activeOperator();
    for (let i = 1; i <= 6; i++) {
      const res = await signIn({ email: operator.email, password: operator.password });
      assert.equal(res.statusCode, 401, `attempt ${i}: ${res.body}`);
      const body = res.json<{ code: string; detail: string; errors: Array<{ pointer: string }> }>();
      assert.equal(body.code, 'UNAUTHENTICATED');
      assert.equal(body.detail, 'This operator signs in with a second factor: send the code your authenticator app shows (or one of your recovery codes: a passkey works only in the console) as code');
      assert.deepEqual(body.errors.map((e) => e.pointer), ['/code']);
      assert.equal('access_token' in body, false);
    }
    assert.equal(await failedLogins(operator.operatorId), 0);

    const res = await signIn({ email: operator.email, password: operator.password, code: await codeOf(operator.totp) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await me(`Bearer ${res.json<{ access_token: string }>().access_token}`)).statusCode, 200);
    const wrongPassword = await signIn({ email: operator.email, password: 'not the password at all', code: await codeOf(operator.totp) });
    assert.equal(wrongPassword.json<{ detail: string }>().detail, 'Unknown email or wrong password', 'the password is checked first, the code never reached');
  });

  it('a wrong code: 401 "The code is wrong" at /code; five in a row lock the account like five wrong passwords, and the password again buys no more', async () => {
    const operator = await activeOperator();
    const wrongCode = async () => signIn({ email: operator.email, password: operator.password, code: '000000' });
    for (let i = 1; i <= 4; i++) {
      const res = await wrongCode();
      assert.equal(res.statusCode, 401, `failure ${i}: ${res.body}`);
      const body = res.json<{ code: string; detail: string; errors: Array<{ pointer: string }> }>();
      assert.equal(body.code, 'UNAUTHENTICATED');
      assert.match(body.detail, /^The code is wrong/);
      assert.deepEqual(body.errors.map((e) => e.pointer), ['/code']);
    }
    // The right password without a code does not end the count.
    assert.equal((await signIn({ email: operator.email, password: operator.password })).statusCode, 401);
    assert.equal(await failedLogins(operator.operatorId), 4);
    assert.equal((await wrongCode()).statusCode, 401, 'the fifth wrong code');

    const locked = await signIn({ email: operator.email, password: operator.password, code: operator.totp.recoveryCodes[0] });
    assert.equal(locked.statusCode, 429, locked.body);
    assert.equal(locked.json<{ code: string }>().code, 'RATE_LIMITED');
    assert.equal(locked.headers['retry-after'], '60');
    assert.equal(await t.services.operatorFactors.recoveryCodesLeft(operator.operatorId), 10, 'the recovery code was not looked at, nor spent');
    assert.ok(t.logs.some((l) => l.msg === 'operator account locked after failed sign-ins' && l.operatorId === operator.operatorId && l.lockedSeconds === 60));

    clock.advance(60_000);
    const released = await signIn({ email: operator.email, password: operator.password, code: await codeOf(operator.totp) });
    assert.equal(released.statusCode, 200, released.body);
    assert.equal(await failedLogins(operator.operatorId), 0, 'the right code ends the count');
  });

  it('a code used already: 401 saying so and to wait for the next one, which works', async () => {
    const operator = await activeOperator();
    const code = await codeOf(operator.totp);
    assert.equal((await signIn({ email: operator.email, password: operator.password, code })).statusCode, 200);
    const replayed = await signIn({ email: operator.email, password: operator.password, code });
    assert.equal(replayed.statusCode, 401, replayed.body);
    const body = replayed.json<{ code: string; detail: string; errors: Array<{ pointer: string }> }>();
    assert.equal(body.code, 'UNAUTHENTICATED');
    assert.equal(body.detail, 'That code has been used already: wait for your authenticator app to show the next one, and send that as code');
    assert.deepEqual(body.errors.map((e) => e.pointer), ['/code']);
    assert.equal(await failedLogins(operator.operatorId), 1, 'a replayed code counts as a failure');
    assert.equal((await signIn({ email: operator.email, password: operator.password, code: await codeOf(operator.totp) })).statusCode, 200);
  });

  it('a recovery code gives a token once, in any case and spacing', async () => {
    const operator = await activeOperator();
    const [first, second] = operator.totp.recoveryCodes;
    const res = await signIn({ email: operator.email, password: operator.password, code: first });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await me(`Bearer ${res.json<{ access_token: string }>().access_token}`)).statusCode, 200);
    const again = await signIn({ email: operator.email, password: operator.password, code: first });
    assert.equal(again.statusCode, 401, again.body);
    assert.match(again.json<{ detail: string }>().detail, /^The code is wrong/);
    const spaced = second!.toUpperCase().replace(/-/g, ' ');
    assert.equal((await signIn({ email: operator.email, password: operator.password, code: spaced })).statusCode, 200);
    assert.equal(await t.services.operatorFactors.recoveryCodesLeft(operator.operatorId), 8);
  });

  it('an empty code is refused at /code before anything is checked', async () => {
    const operator = await activeOperator();
    const res = await signIn({ email: operator.email, password: operator.password, code: '' });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json<{ errors: Array<{ pointer: string }> }>().errors.map((e) => e.pointer), ['/code']);
  });

  it('replaces the password of an operator with a second factor only with the right code: the password alone changes nothing', async () => {
    const operator = await activeOperator();
    const newer = `a newer password ${counter}`;
    assert.equal((await signIn({ email: operator.email, password: operator.password, newPassword: newer })).statusCode, 401);
    assert.equal((await signIn({ email: operator.email, password: operator.password, newPassword: newer, code: '000000' })).statusCode, 401);
    assert.equal((await me(`Bearer ${operator.token}`)).statusCode, 200, 'the token from before is still good: nothing changed');
    assert.equal((await signIn({ email: operator.email, password: newer, code: await codeOf(operator.totp) })).json<{ detail: string }>().detail, 'Unknown email or wrong password');

    clock.advance(1_000);
    const changed = await signIn({ email: operator.email, password: operator.password, newPassword: newer, code: await codeOf(operator.totp) });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal((await me(`Bearer ${operator.token}`)).statusCode, 401, 'the change ends the tokens before it');
    assert.equal((await signIn({ email: operator.email, password: newer, code: await codeOf(operator.totp) })).statusCode, 200);
  });
});

describe('refusals', () => {
  it('answers a wrong password and an unknown email alike: 401 UNAUTHENTICATED, same detail', async () => {
    const operator = await activeOperator();
    const wrong = await signIn({ email: operator.email, password: 'not the password at all' });
    const unknown = await signIn({ email: `nobody-${counter}@pvs.test`, password: 'not the password at all' });
    for (const res of [wrong, unknown]) {
      assert.equal(res.statusCode, 401, res.body);
      assert.equal(res.json<{ code: string }>().code, 'UNAUTHENTICATED');
    }
    assert.equal(wrong.json<{ detail: string }>().detail, unknown.json<{ detail: string }>().detail);
    assert.equal(wrong.json<{ detail: string }>().detail, 'Unknown email or wrong password');
  });

  it('refuses an email that is not one, in words, at /email', async () => {
    const res = await signIn({ email: 'not-an-email', password: 'whatever it is' });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json<{ errors: unknown }>().errors, [{ pointer: '/email', message: 'must be an email address' }]);
  });

  it('takes JSON only: a form with the same fields is 415', async () => {
    const operator = await activeOperator();
    const res = await t.app.inject({
      method: 'POST',
      url: '/ops/v1/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: operator.email, password: operator.password }).toString(),
    });
    assert.equal(res.statusCode, 415, res.body);
    assert.equal(res.json<{ code: string }>().code, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('lockout', () => {
  const wrong = 'a wrong guess, again';

  it('locks after 5 failures in a row for a minute (429 with Retry-After), even for the right password, then lets it in', async () => {
    const operator = await activeOperator();
    for (let i = 1; i <= 5; i++) {
      const res = await signIn({ email: operator.email, password: wrong });
      assert.equal(res.statusCode, 401, `failure ${i}: ${res.body}`);
    }
    const locked = await signIn({ email: operator.email, password: operator.password });
    assert.equal(locked.statusCode, 429, locked.body);
    assert.equal(locked.json<{ code: string }>().code, 'RATE_LIMITED');
    assert.equal(locked.headers['retry-after'], '60');
    assert.match(locked.json<{ detail: string }>().detail, /locked/);

    clock.advance(30_000);
    const later = await signIn({ email: operator.email, password: operator.password });
    assert.equal(later.statusCode, 429);
    assert.equal(later.headers['retry-after'], '30');

    clock.advance(30_000);
    const released = await signIn({ email: operator.email, password: operator.password, code: await codeOf(operator.totp) });
    assert.equal(released.statusCode, 200, released.body);

    // The success reset the count: four more failures do not lock.
    for (let i = 1; i <= 4; i++) assert.equal((await signIn({ email: operator.email, password: wrong })).statusCode, 401);
    assert.equal((await signIn({ email: operator.email, password: operator.password, code: await codeOf(operator.totp) })).statusCode, 200);
    assert.ok(
      t.logs.some((l) => l.msg === 'operator account locked after failed sign-ins' && l.operatorId === operator.operatorId && l.lockedSeconds === 60),
      'the lock is logged with the operator id',
    );
  });

  it('backs off: a failure after a lock ends locks again at once, for twice as long', async () => {
    const operator = await activeOperator();
    for (let i = 1; i <= 5; i++) await signIn({ email: operator.email, password: wrong });
    clock.advance(61_000);
    assert.equal((await signIn({ email: operator.email, password: wrong })).statusCode, 401, 'the sixth failure is answered as any other');
    const locked = await signIn({ email: operator.email, password: operator.password });
    assert.equal(locked.statusCode, 429);
    assert.equal(locked.headers['retry-after'], '120');
    clock.advance(121_000);
    assert.equal((await signIn({ email: operator.email, password: operator.password, code: await codeOf(operator.totp) })).statusCode, 200);
  });

  it('does not count failures while locked, and an unknown email never locks', async () => {
    const operator = await activeOperator();
    for (let i = 1; i <= 5; i++) await signIn({ email: operator.email, password: wrong });
    for (let i = 1; i <= 5; i++) assert.equal((await signIn({ email: operator.email, password: wrong })).statusCode, 429);
    clock.advance(61_000);
    assert.equal((await signIn({ email: operator.email, password: operator.password, code: await codeOf(operator.totp) })).statusCode, 200, 'still the first lock, not a longer one');

    const nobody = `nobody-${++counter}@pvs.test`;
    for (let i = 1; i <= 7; i++) assert.equal((await signIn({ email: nobody, password: wrong })).statusCode, 401);
  });
});

describe('the /ops/v1 guard', () => {
  it('GET /ops/v1/me answers the operator for their token', async () => {
    const operator = await activeOperator();
    const res = await me(`Bearer ${operator.token}`);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<Record<string, unknown>>();
    assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'email', 'id']);
    assert.equal(body.id, operator.operatorId);
    assert.equal(body.email, operator.email);
    assert.match(String(body.createdAt), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('401 with WWW-Authenticate without a token, or with a malformed one', async () => {
    for (const authorization of [undefined, 'Bearer', 'Bearer not.a.jwt', 'Basic abc']) {
      const res = await me(authorization);
      assert.equal(res.statusCode, 401, String(authorization));
      assert.equal(res.json<{ code: string }>().code, 'UNAUTHENTICATED');
      assert.match(String(res.headers['www-authenticate']), /^Bearer/);
    }
  });

  it('an operator token is no token on /v1', async () => {
    const operator = await activeOperator();
    const partner = await t.f.partner();
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers: partner.headers })).statusCode, 200, 'control');
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/channel-partners/me',
      headers: { authorization: `Bearer ${operator.token}`, 'x-partner-id': partner.partnerId },
    });
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.json<{ code: string }>().code, 'UNAUTHENTICATED');
  });

  it('a partner token is no token on /ops/v1', async () => {
    const partner = await t.f.partner();
    const res = await t.app.inject({ method: 'GET', url: '/ops/v1/me', headers: partner.headers });
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.json<{ code: string }>().code, 'UNAUTHENTICATED');
  });

  it('401 once the token is 15 minutes old', async () => {
    const operator = await activeOperator();
    clock.advance(899_000);
    assert.equal((await me(`Bearer ${operator.token}`)).statusCode, 200);
    clock.advance(2_000);
    assert.equal((await me(`Bearer ${operator.token}`)).statusCode, 401);
  });

  it('a password change ends the tokens issued before it', async () => {
    const operator = await activeOperator();
    clock.advance(1_000);
    const res = await signIn({ email: operator.email, password: operator.password, newPassword: 'a newer password still', code: await codeOf(operator.totp) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await me(`Bearer ${operator.token}`)).statusCode, 401, 'the older token');
    assert.equal((await me(`Bearer ${res.json<{ access_token: string }>().access_token}`)).statusCode, 200, 'the new one');
  });
});

describe('a disabled operator', () => {
  it('loses their tokens at once and cannot sign in; a wrong password is still answered as any other', async () => {
    const operator = await activeOperator();
    assert.equal((await me(`Bearer ${operator.token}`)).statusCode, 200);
    const disabled = await t.services.operators.disable({ email: operator.email.toUpperCase() });
    assert.equal(disabled.operatorId, operator.operatorId);
    assert.equal((await me(`Bearer ${operator.token}`)).statusCode, 401);

    const res = await signIn({ email: operator.email, password: operator.password });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json<{ detail: string }>().detail, 'This operator account is disabled');
    const guess = await signIn({ email: operator.email, password: 'a wrong guess here' });
    assert.equal(guess.json<{ detail: string }>().detail, 'Unknown email or wrong password');
  });
});

describe('logs', () => {
  it('never hold a password, one-time or chosen, right or wrong, a code, an app\'s key, nor a token', async () => {
    assert.ok(passwords.size >= 10, `the tests above sent passwords (${passwords.size})`);
    assert.ok(codes.size >= 20 && keys.size >= 10, `the tests above sent codes (${codes.size}) and enrolled apps (${keys.size})`);
    const text = t.logText();
    assert.match(text, /operator signed in/, 'sign-ins were logged');
    assert.match(text, /operator token issued/, 'tokens were logged');
    assert.match(text, /second factor checked/, 'codes were checked and logged');
    for (const password of passwords) assert.ok(!text.includes(password), `a password reached the logs: ${password}`);
    for (const key of keys) assert.ok(!text.includes(key), 'an authenticator app\'s key reached the logs');
    for (const code of codes) {
      // A 6-digit code is looked for as a JSON string: the same digits inside a timestamp or a duration are no leak.
      const leaked = /^\d{6}$/.test(code) ? text.includes(`"${code}"`) : text.includes(code);
      assert.ok(!leaked, `a code reached the logs: ${code}`);
    }
    assert.doesNotMatch(text, /eyJ[A-Za-z0-9_-]{10,}\./, 'no JWT in the logs');
  });
});

describe('the token route is rate limited per address', () => {
  let limited: TestContext;
  before(async () => {
    limited = await createTestContext({ env: { TOKEN_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  after(() => limited.close());

  it('429 RATE_LIMITED with Retry-After once the address has used its budget', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await limited.app.inject({ method: 'POST', url: '/ops/v1/token', payload: { email: 'nobody@pvs.test', password: 'whatever it is' } });
      statuses.push(last.statusCode);
    }
    assert.deepEqual(statuses, [401, 401, 401, 429]);
    assert.equal(last!.json<{ code: string }>().code, 'RATE_LIMITED');
    assert.ok(Number(last!.headers['retry-after']) >= 1);
  });
});
