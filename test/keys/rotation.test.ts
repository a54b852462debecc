// SECRET_KEY rotated with the old key kept in PREVIOUS_SECRET_KEYS: what was sealed, signed and digested
// under the old key goes on working with the new one. The same database is served first under key A, then
// under B with A as previous: a partner's token signed before still holds, a verification link minted
// before opens and a session opened before continues, a payment's PRN and link, a card link, a webhook
// destination's secret, a report URL, a deed's upload URL, an operator's authenticator and console form token, and a
// person's saved details all work; new values are sealed and digested under B, and the re-seal job leaves
// nothing under A, so that B alone then serves the same database.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { keyIdOf } from '../../src/platform/keys/key-ring.ts';
import { keyUsage } from '../../src/platform/keys/key-usage.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { createContact, mintCardLink, runDueJobs } from '../helpers/billing.ts';
import { createPayment, getPayment } from '../helpers/payments.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { createVerification, mintLinks, openLink, person, personDetails } from '../helpers/verifications.ts';
import { createDeed, upload } from '../helpers/deeds.ts';
import { tinyPdf } from '../helpers/tiny-pdf.ts';
import { nextTotpCode } from '../helpers/second-factor.ts';
import { sameToken } from '../../src/web/session/sessions.service.ts';

const keyA = 'A'.repeat(24) + '-first-secret-key';
const keyB = 'B'.repeat(24) + '-second-secret-key';

let a: TestContext;
let b: TestContext;
let receiver: Receiver;
/** What the first test made under A, for the second. */
const kept = {} as { partner: TestPartner; paymentId: string; prn: string; sessionToken: string };

before(async () => {
  a = await createTestContext({ env: { SECRET_KEY: keyA } });
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
  await b?.close();
  await a.app.close();
  await a.services.close();
});

it('everything made under key A works under B with A previous, and what is new is under B', async () => {
  // Under A.
  const partner: TestPartner = await a.f.partner({ monitoring: true });
  const destination = await a.app.inject({ method: 'POST', url: '/v1/webhook-destinations', headers: partner.headers, payload: { url: receiver.url, categories: ['PAYMENTS'] } });
  assert.equal(destination.statusCode, 201, destination.body);
  receiver.setSecret(destination.json<{ secret: string }>().secret);
  const payment = await createPayment(a, partner);
  const contact = await createContact(a, partner);
  const cardLink = await mintCardLink(a, partner, contact.id);
  const request = await createVerification(a, partner, { mode: 'TPB_POI', individuals: [{ role: 'OTHER' }, { role: 'OTHER' }] });
  const links = await mintLinks(a, partner, request.id);
  const [first, second] = request.individuals.map((i) => i.id);
  const report = await a.app.inject({ method: 'POST', url: `/v1/verifications/${request.id}/individuals/${first!}/report`, headers: partner.headers });
  assert.equal(report.statusCode, 200, report.body);
  const reportUrl = new URL(report.json<{ url: string }>().url);
  const deed = await createDeed(a, partner);
  const operator = await a.f.operator();
  const consoleSession = await a.services.webSessions.open('console', operator.operatorId, { passwordChangeRequired: false, secondFactorAt: a.services.clock.now() });
  const opened = await openLink(a, links.get(first!)!);
  assert.equal((await opened.details(personDetails('Wintergreen'))).statusCode, 200);
  const sessionHash = async (t: TestContext) => (await t.services.db.query<{ token_hash: string }>('SELECT token_hash FROM verification_sessions'))[0]!.token_hash;
  assert.ok((await sessionHash(a)).startsWith(`${keyIdOf(keyA)}.`));

  // B alone cannot start: the database holds values sealed under A, and the refusal names A's id.
  await assert.rejects(
    createTestContext({ env: { SECRET_KEY: keyB }, database: a.database }),
    (error: Error) => error.name === 'ConfigError' && error.message.includes(keyIdOf(keyA)) && !error.message.includes(keyA),
  );

  // Served under B, A previous.
  b = await createTestContext({ env: { SECRET_KEY: keyB, PREVIOUS_SECRET_KEYS: keyA }, database: a.database });
  // The partner's token, signed by a key sealed under A.
  const me = await b.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers: partner.headers });
  assert.equal(me.statusCode, 200, me.body);
  // The payment's PRN, sealed under A; its link, digested under A.
  assert.equal((await getPayment(b, partner, payment.id)).prn, payment.prn);
  assert.equal((await b.app.inject({ method: 'GET', url: `/p/${payment.token}` })).statusCode, 200);
  assert.equal((await b.app.inject({ method: 'GET', url: new URL(cardLink.url).pathname })).statusCode, 200);
  // The session opened under A goes on (its digest is stored again under B), and its saved details open.
  Object.assign(kept, { partner, paymentId: payment.id, prn: payment.prn, sessionToken: opened.sessionToken });
  const resumed = person(b, opened.sessionToken);
  const view = await resumed.view();
  assert.equal(view.statusCode, 200, view.body);
  assert.deepEqual(view.json<{ completedSteps: string[] }>().completedSteps, ['details']);
  assert.ok((await sessionHash(b)).startsWith(`${keyIdOf(keyB)}.`), 'the session digest was stored again under B');
  // A link minted under A opens under B.
  assert.equal((await (await openLink(b, links.get(second!)!)).view()).statusCode, 200);
  // The webhook secret sealed under A signs B's delivery, and the receiver verifies it.
  await b.app.inject({ method: 'POST', url: `/v1/payments/${payment.id}/cancel`, headers: partner.headers });
  await runDueJobs(b);
  await b.services.createDispatcher().drain();
  assert.ok(receiver.received.length > 0, 'a delivery was made');
  for (const delivery of receiver.received) assert.equal(delivery.verified.ok, true);

  // The re-seal job (enqueued at B's start, run above) left nothing sealed under A or before the ring.
  const usage = await keyUsage(b.services.db);
  assert.deepEqual(new Set(usage.sealed.map((u) => u.keyId)), new Set([keyIdOf(keyB)]), JSON.stringify(usage.sealed));
  assert.ok(usage.sealed.some((u) => u.place === 'sandbox_identity_images.sealed' || u.place === 'sandbox_identity_steps.fields_sealed'));

  // A report URL signed under A opens under B.
  const pdf = await b.app.inject({ method: 'GET', url: `${reportUrl.pathname}${reportUrl.search}` });
  assert.equal(pdf.statusCode, 200, pdf.body);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  // A deed's upload URL signed under A takes the upload under B.
  assert.equal((await upload(b, deed, tinyPdf())).statusCode, 200);
  // The operator's authenticator secret, sealed under A, checks a code under B; a console form shown under
  // A carries a form token B accepts.
  const code = await nextTotpCode(operator.totp, () => b.services.clock.now());
  const token = await b.app.inject({ method: 'POST', url: '/ops/v1/token', payload: { email: operator.email, password: operator.password, code } });
  assert.equal(token.statusCode, 200, token.body);
  const seen = await b.services.webSessions.find('console', consoleSession.token);
  assert.ok(seen, 'the console session goes on');
  assert.notEqual(seen.csrfToken, consoleSession.session.csrfToken, 'new forms get B’s token');
  assert.ok(sameToken(consoleSession.session.csrfToken, seen.csrfAccepted), 'a form shown under A is accepted');

  // New values are B's.
  const newPayment = await createPayment(b, partner);
  const [stored] = await b.services.db.query<{ prn: string; token_hash: string }>('SELECT p.prn, l.token_hash FROM payments p JOIN payment_links l ON l.payment_id = p.id WHERE p.id = $1', [newPayment.id]);
  assert.ok(stored?.prn.startsWith(`v2.${keyIdOf(keyB)}.`));
  assert.ok(stored?.token_hash.startsWith(`${keyIdOf(keyB)}.`));
});

it('with A removed once nothing is sealed under it, B alone serves the same database', async () => {
  const c = await createTestContext({ env: { SECRET_KEY: keyB }, database: a.database });
  try {
    // The signing key, re-sealed under B, signs a new token and verifies it; the PRN opens; the session
    // whose digest was stored again under B goes on.
    const partner = await c.f.signIn(kept.partner);
    assert.equal((await c.app.inject({ method: 'GET', url: '/v1/channel-partners/me', headers: partner.headers })).statusCode, 200);
    assert.equal((await getPayment(c, partner, kept.paymentId)).prn, kept.prn);
    assert.equal((await person(c, kept.sessionToken).view()).statusCode, 200);
    // No value anywhere is sealed under A.
    const usage = await keyUsage(c.services.db);
    assert.ok(!usage.sealed.some((u) => u.keyId === keyIdOf(keyA)));
  } finally {
    await c.app.close();
    await c.services.close();
  }
});
