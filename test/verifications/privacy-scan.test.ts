// After a full sandbox run (a lookup-bound request and a hand-built one, people through every outcome,
// an operator's decision, the events written and delivered), no PVS table holds what the people typed:
// not a name, email, phone, date of birth, address or document number. Only the identity provider's
// own store holds them, sealed. Every table is read raw, whatever it is, so a new one is scanned too;
// the run is traced, and no span holds them either.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { settledLookup } from '../helpers/lookups.ts';
import { placesHolding } from '../helpers/privacy.ts';
import { captureSpans, type SpanCapture } from '../helpers/span-capture.ts';
import { createVerification, mintLinks, openLink, photo } from '../helpers/verifications.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;
let spans: SpanCapture;

before(async () => {
  // Traced, so that every span of the run is scanned too.
  spans = await captureSpans();
  t = await createTestContext({ clock });
  await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
  partner = await t.f.partner({ name: 'Ledger Tax' });
});
after(async () => {
  await t.close();
  await spans.stop();
});

/** Distinctive values, so that a hit is this run's and not a register's or a fixture's. */
function personOf(n: number, lastName: string) {
  return {
    details: {
      firstName: `Zephyrine${n}`,
      middleName: `Quillon${n}`,
      lastName,
      dateOfBirth: `1983-0${n}-2${n}`,
      address: { line1: `${n}7 Marramarra Crescent`, line2: `Unit ${n}9`, locality: `Wollombi${n}`, state: 'NSW', postcode: '2325', country: 'AU' },
      email: `zephyrine${n}.private@example.org`,
      phone: `+61 491 57${n} 88${n}`,
    },
    document: { type: 'DRIVER_LICENCE', number: `XQ${n}48213`, issuingCountry: 'AU', issuingState: 'NSW', cardNumber: `CN${n}9981234`, expiryDate: '2030-01-31' },
  };
}

/** The date of birth the sandbox register holds for a bound individual's party; undefined for a hand-built one. */
async function registerDateOfBirthOf(individualId: string): Promise<string | undefined> {
  const [row] = await t.services.db.query<{ party_ref: string }>(
    'SELECT e.party_ref FROM verification_individuals i JOIN idv_entities e ON e.id = i.idv_entity_id WHERE i.id = $1',
    [individualId],
  );
  if (!row) return undefined;
  const read = await t.services.registers.reports.personDetails([row.party_ref]);
  return (read.ok && read.value[0]?.dateOfBirth) || undefined;
}

it('no PVS table holds a name, email, phone, date of birth, address or document number a person entered', async () => {
  const lookup = await settledLookup(t, partner, { abn: '32 111 111 114', scope: 'FULL' });
  const bound = await createVerification(t, partner, { mode: 'AUSTRAC_CDD', lookupRequestId: lookup.lookupRequestId });
  const handBuilt = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP', externalId: 'scan-1' }, { role: 'OTHER' }] });
  const people = [...bound.individuals.map((i) => [bound.id, i.id] as const), ...handBuilt.individuals.map((i) => [handBuilt.id, i.id] as const)];
  const tokens = new Map([...(await mintLinks(t, partner, bound.id)), ...(await mintLinks(t, partner, handBuilt.id))]);
  const lastNames = ['Wintergreen', 'Review', 'Fail', 'Fraud', 'Unavailable'];
  const entered: string[] = [];

  for (const [n, [, individualId]] of people.entries()) {
    const lastName = `${lastNames[n % lastNames.length]!}`;
    const { details, document } = personOf(n + 1, lastName);
    // A bound person enters the date of birth the register holds for their party, or the difference
    // alone would send them to review (decision 122); the register's date must be in no table either.
    const registerBorn = await registerDateOfBirthOf(individualId);
    if (registerBorn) details.dateOfBirth = registerBorn;
    const person = await openLink(t, tokens.get(individualId)!);
    assert.equal((await person.details(details)).statusCode, 200);
    assert.equal((await person.document(document, { front: photo(), back: photo() })).statusCode, 200);
    assert.equal((await person.selfie()).statusCode, 200);
    assert.equal((await person.submit()).statusCode, 200);
    entered.push(details.firstName, details.middleName, details.dateOfBirth, details.address.line1, details.address.line2, details.address.locality, details.email, details.phone, details.phone.replace(/\D/g, ''));
    entered.push(document.number, document.cardNumber, `${details.firstName} ${details.middleName} ${details.lastName}`);
    if (lastName === 'Wintergreen') entered.push(lastName);
  }
  await runDueJobs(t);
  // The one in review is decided by an operator; the unavailable one recovers an hour later.
  const operator = await t.f.operator();
  const reviewing = people[1]!;
  const decided = await t.app.inject({ method: 'POST', url: `/ops/v1/verifications/${reviewing[0]}/individuals/${reviewing[1]}/decision`, headers: operator.headers, payload: { decision: 'PASS', note: 'compared the photos' } });
  assert.equal(decided.statusCode, 200, decided.body);
  for (const wait of [30, 60, 120, 300, 600, 1800, 3600]) {
    clock.advance(wait * 1000);
    await runDueJobs(t);
  }

  const { found, scanned } = await placesHolding(t, entered, { spans });
  assert.deepEqual(found, []);
  assert.ok(['verification_individuals', 'events', 'jobs', 'spans'].every((place) => scanned.includes(place)), `scanned ${scanned.join(', ')}`);
  // The spans scanned are the run's: requests, jobs and statements.
  const names = new Set((await spans.spans()).map((s) => s.name));
  for (const name of ['POST /hosted/v1/verification-session/submit', 'job verifications.check']) assert.ok([...names].some((n) => n.startsWith(name)), `no ${name} among ${[...names].join(', ')}`);

  // The provider's own store does hold them, sealed: a raw read shows none.
  const sealed = JSON.stringify(await t.services.db.query('SELECT * FROM sandbox_identity_steps')).toLowerCase();
  for (const value of entered) assert.ok(!sealed.includes(value.toLowerCase()), `sandbox_identity_steps holds "${value}" in the clear`);
  const statuses = (await t.services.db.query<{ status: string }>('SELECT status FROM verification_individuals ORDER BY status')).map((r) => r.status);
  assert.ok(statuses.includes('PASSED') && statuses.includes('MANUALLY_PASSED') && statuses.includes('FAILED'), statuses.join(','));
});
