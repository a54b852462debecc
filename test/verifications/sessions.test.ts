// A verification link's first use, as the person's page makes it: the link is exchanged for a session
// (spent, so it cannot be shared), the individual becomes IN_PROGRESS once with its event, the session
// answers a reload, and replaced, expired, spent and unknown links are refused. Only HMACs are stored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;

before(async () => {
  t = await createTestContext({ clock });
  partner = await t.f.partner({ name: 'Ledger Tax' });
});
after(() => t.close());

/** A TPB_POI request with one individual and its link token. */
async function linked(externalId?: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/verifications',
    headers: partner.headers,
    payload: { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP', roleDescription: 'signs the BAS', ...(externalId ? { externalId } : {}) }] },
  });
  const v = created.json<{ id: string; individuals: Array<{ id: string }> }>();
  const links = await t.app.inject({ method: 'POST', url: `/v1/verifications/${v.id}/links`, headers: partner.headers, payload: {} });
  const url = links.json<{ individuals: Array<{ verificationUrl: string }> }>().individuals[0]!.verificationUrl;
  return { requestId: v.id, individualId: v.individuals[0]!.id, token: url.split('/v/')[1]! };
}

const open = (token: string) => t.app.inject({ method: 'POST', url: '/hosted/v1/verification-sessions', payload: { token } });
const session = (sessionToken?: string) =>
  t.app.inject({ method: 'GET', url: '/hosted/v1/verification-session', headers: sessionToken ? { authorization: `Bearer ${sessionToken}` } : {} });

describe('opening a link', () => {
  it('answers a session once: who asked and why, attempts left; the individual is IN_PROGRESS with one event', async () => {
    const { requestId, individualId, token } = await linked('client-7');
    const res = await open(token);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json<{ sessionToken: string }>();
    assert.match(body.sessionToken, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      { ...body, sessionToken: undefined },
      {
        sessionToken: undefined,
        expiresAt: '2026-11-25T09:00:00.000Z',
        individual: { role: 'AUTHORISED_REP', roleDescription: 'signs the BAS', status: 'IN_PROGRESS' },
        partner: { name: 'Ledger Tax' },
        attemptsRemaining: 3,
        completedSteps: [],
        attempt: null,
      },
    );
    const read = await t.app.inject({ method: 'GET', url: `/v1/verifications/${requestId}`, headers: partner.headers });
    assert.equal(read.json<{ individuals: Array<{ status: string }> }>().individuals[0]!.status, 'IN_PROGRESS');
    const events = await t.services.db.query<{ type: string; payload: unknown }>("SELECT type, payload FROM events WHERE subject_id = $1 AND type = 'verification.individual.in_progress'", [
      requestId,
    ]);
    assert.deepEqual(events, [{ type: 'verification.individual.in_progress', payload: { verificationRequestId: requestId, individualId, externalId: 'client-7', status: 'IN_PROGRESS' } }]);

    // A reload keeps the session; the link itself is spent.
    const again = await session(body.sessionToken);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json<{ individual: { status: string } }>().individual.status, 'IN_PROGRESS');
    const reopen = await open(token);
    assert.deepEqual([reopen.statusCode, reopen.json<{ code: string }>().code], [410, 'LINK_INVALID']);
    const stored = JSON.stringify(await t.services.db.query('SELECT * FROM verification_sessions'));
    assert.ok(!stored.includes(body.sessionToken) && !stored.includes(token), 'only digests are stored');
  });

  it('a new link ends the session opened with the old one, and the old link answers 410; the new one opens without a second in_progress', async () => {
    const { requestId, individualId, token } = await linked();
    const first = (await open(token)).json<{ sessionToken: string }>().sessionToken;
    const minted = await t.app.inject({ method: 'POST', url: `/v1/verifications/${requestId}/links`, headers: partner.headers, payload: { individualIds: [individualId] } });
    const newToken = minted.json<{ individuals: Array<{ verificationUrl: string }> }>().individuals[0]!.verificationUrl.split('/v/')[1]!;
    assert.equal((await session(first)).statusCode, 401, 'the old session ended');
    assert.equal((await open(newToken)).statusCode, 201);
    const events = await t.services.db.query("SELECT 1 FROM events WHERE subject_id = $1 AND type = 'verification.individual.in_progress'", [requestId]);
    assert.equal(events.length, 1);
  });

  it('refuses a replaced or expired link with 410, an unknown one with 404, and a session without a valid token with 401', async () => {
    const replaced = await linked();
    await t.app.inject({ method: 'POST', url: `/v1/verifications/${replaced.requestId}/links`, headers: partner.headers, payload: {} });
    assert.equal((await open(replaced.token)).statusCode, 410);
    const expired = await linked();
    clock.advance(7 * 86_400_000);
    partner = await t.f.signIn(partner);
    const late = await open(expired.token);
    assert.deepEqual([late.statusCode, late.json<{ detail: string }>().detail], [410, 'This verification link has expired; ask for a new one']);
    assert.equal((await open('A'.repeat(43))).statusCode, 404);
    assert.equal((await open('short')).statusCode, 404);
    assert.equal((await session()).statusCode, 401);
    assert.equal((await session('A'.repeat(43))).statusCode, 401);
  });

  it('a session ends after 24 hours', async () => {
    const { token } = await linked();
    const opened = (await open(token)).json<{ sessionToken: string }>().sessionToken;
    clock.advance(24 * 3600_000);
    partner = await t.f.signIn(partner);
    assert.equal((await session(opened)).statusCode, 401);
  });
});

describe('the details step', () => {
  const details = { firstName: 'Jo', middleName: 'Anne', lastName: 'Citizen', dateOfBirth: '1988-04-12', address: { line1: '1 George St', locality: 'Sydney', state: 'NSW', postcode: '2000', country: 'AU' }, email: 'jo@example.com', phone: '+61 400 000 000' };
  const put = (sessionToken: string | undefined, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: '/hosted/v1/verification-session/details', headers: sessionToken ? { authorization: `Bearer ${sessionToken}` } : {}, payload: payload as object });

  it('sends the details to the identity provider and keeps only its subject reference', async () => {
    const { individualId, token } = await linked();
    const sessionToken = (await open(token)).json<{ sessionToken: string }>().sessionToken;
    const res = await put(sessionToken, details);
    assert.equal(res.statusCode, 200, res.body);
    const [row] = await t.services.db.query<{ subject_ref: string | null }>('SELECT subject_ref FROM verification_individuals WHERE id = $1', [individualId]);
    assert.ok(row!.subject_ref, 'a subject was made at the provider');
    assert.deepEqual((await t.services.identity.missing(row!.subject_ref!)), { ok: true, missing: ['document', 'selfie'] });
    // Saved again: the same subject, replaced details.
    assert.equal((await put(sessionToken, { ...details, firstName: 'Joanne' })).statusCode, 200);
    const [again] = await t.services.db.query<{ subject_ref: string }>('SELECT subject_ref FROM verification_individuals WHERE id = $1', [individualId]);
    assert.equal(again!.subject_ref, row!.subject_ref);
    // Nothing of it in PVS's own tables.
    const pvs = JSON.stringify(await t.services.db.query('SELECT * FROM verification_individuals'));
    for (const value of ['Citizen', '1988-04-12', 'jo@example.com', '400 000 000', 'George St']) assert.ok(!pvs.includes(value), `${value} in verification_individuals`);
    assert.ok(!t.logText().includes('Citizen') && !t.logText().includes('1988-04-12'), 'nor in the logs');
  });

  it('asks for state and postcode on an Australian address only', async () => {
    const { token } = await linked();
    const sessionToken = (await open(token)).json<{ sessionToken: string }>().sessionToken;
    const abroad = { ...details, address: { line1: '4 Rue Cler', locality: 'Paris', country: 'FR' } };
    assert.equal((await put(sessionToken, abroad)).statusCode, 200);
    const home = await put(sessionToken, { ...details, address: { line1: '1 George St', locality: 'Sydney', country: 'AU' } });
    assert.deepEqual(
      [home.statusCode, home.json<{ errors: Array<{ pointer: string; message: string }> }>().errors],
      [
        400,
        [
          { pointer: '/address/state', message: 'is required for an Australian address' },
          { pointer: '/address/postcode', message: 'is required for an Australian address' },
        ],
      ],
    );
  });

  it('refuses what is wrong in words, each at its pointer; without a session it is 401 before the body is read', async () => {
    const { token } = await linked();
    const sessionToken = (await open(token)).json<{ sessionToken: string }>().sessionToken;
    const cases: Array<[unknown, string, RegExp]> = [
      [{ ...details, dateOfBirth: '2999-01-01' }, '/dateOfBirth', /future/],
      [{ ...details, dateOfBirth: '12/04/1988' }, '/dateOfBirth', /YYYY-MM-DD/],
      [{ ...details, address: { ...details.address, country: 'ZZ' } }, '/address/country', /country code/],
      [{ ...details, address: { ...details.address, country: 'Australia' } }, '/address/country', /two-letter/],
      [{ ...details, address: { ...details.address, postcode: '20000' } }, '/address/postcode', /4 digits/],
      [{ ...details, phone: 'call me' }, '/phone', /phone number/],
      [{ ...details, email: 'jo at example' }, '/email', /email/],
      [{ ...details, lastName: '' }, '/lastName', /.+/],
    ];
    for (const [payload, pointer, message] of cases) {
      const res = await put(sessionToken, payload);
      assert.equal(res.statusCode, 400, `${pointer}: ${res.body}`);
      const found = res.json<{ errors: Array<{ pointer: string; message: string }> }>().errors.find((e) => e.pointer === pointer);
      assert.ok(found, `${pointer} not in ${res.body}`);
      assert.match(found.message, message);
    }
    const anonymous = await put(undefined, { nonsense: true });
    assert.equal(anonymous.statusCode, 401);
  });
});
