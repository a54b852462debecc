// The reports as a partner gets them (SPEC rules 3 and 4): POST …/report answers a signed URL, which
// serves the PDF rendered then, with no token. Checked by the PDF's own text: the registry identity and
// the ownership tree (with the holding company's ACN) for a lookup-bound request, the note for a
// hand-built one, the person's verified identity and checks. The URL expires after 15 minutes and any
// change to it is 403; TPB_POI has no entity report; another partner's request is 404.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { formatDate } from '../../src/modules/verifications/reports/report-format.ts';
import { createManualClock } from '../../src/platform/clock.ts';
import { runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestOperator, type TestPartner } from '../helpers/context.ts';
import { settledLookup } from '../helpers/lookups.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { anotherDate, attemptChecked, createVerification, lookupBoundKingsley, mintLinks, openLink, passport, personDetails, submitAttempt } from '../helpers/verifications.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));
let t: TestContext;
let partner: TestPartner;
let other: TestPartner;
let operator: TestOperator;

before(async () => {
  t = await createTestContext({ clock });
  await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
  partner = await t.f.partner({ name: 'Ledger Tax' });
  other = await t.f.partner({ name: 'Other Practice' });
});
after(() => t.close());
beforeEach(async () => {
  partner = await t.f.signIn(partner);
  other = await t.f.signIn(other);
  operator = await t.f.operator();
});

const reportPath = (requestId: string, individualId?: string) => (individualId ? `/v1/verifications/${requestId}/individuals/${individualId}/report` : `/v1/verifications/${requestId}/report`);

async function reportUrl(requestId: string, individualId?: string): Promise<{ url: string; expiresAt: string }> {
  const res = await t.app.inject({ method: 'POST', url: reportPath(requestId, individualId), headers: partner.headers });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['cache-control'], 'no-store');
  return res.json();
}

/** Opens a report URL as a browser would: its path and query, no Authorization header. */
const open = (url: string) => t.app.inject({ method: 'GET', url: url.replace('http://pvs.test', '') });

async function reportText(url: string): Promise<string[]> {
  const res = await open(url);
  // REPORTS_OUT=dir keeps each PDF, to look at its pages (pdftoppm).
  if (process.env.REPORTS_OUT) writeFileSync(path.join(process.env.REPORTS_OUT, `${new URL(url).pathname.split('/').slice(-3).join('-')}`), res.rawPayload);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'application/pdf');
  assert.equal(res.headers['cache-control'], 'no-store');
  return pdfText(res.rawPayload);
}

/** A hand-built request of either mode with one person who passed as `lastName`. */
async function handBuilt(mode: 'AUSTRAC_CDD' | 'TPB_POI', lastName = 'Okafor') {
  const created = await createVerification(t, partner, { mode, structureConfirmed: true, entityName: 'Hand Built Pty Ltd', individuals: [{ role: 'DIRECTOR', externalId: 'dir-1' }] });
  const individualId = created.individuals[0]!.id;
  const tokens = await mintLinks(t, partner, created.id);
  await submitAttempt(await openLink(t, tokens.get(individualId)!), lastName);
  await runDueJobs(t);
  return { requestId: created.id, individualId };
}

describe('the entity report', () => {
  it('for a lookup-bound request prints the registry identity, the two-level ownership with the holding company’s ACN, and the operator who passed someone', async () => {
    const lookup = await settledLookup(t, partner, { abn: '54 222 222 228', scope: 'FULL' });
    const created = await createVerification(t, partner, { mode: 'AUSTRAC_CDD', lookupRequestId: lookup.lookupRequestId });
    const reviewed = created.individuals[0]!.id;
    const tokens = await mintLinks(t, partner, created.id);
    await attemptChecked(t, await openLink(t, tokens.get(reviewed)!), 'Review');
    const decided = await t.app.inject({
      method: 'POST',
      url: `/ops/v1/verifications/${created.id}/individuals/${reviewed}/decision`,
      headers: operator.headers,
      payload: { decision: 'PASS', note: 'Compared the selfie with the passport photo by video call' },
    });
    assert.equal(decided.statusCode, 200, decided.body);

    const { url, expiresAt } = await reportUrl(created.id);
    assert.equal(expiresAt, new Date(clock.now().getTime() + 15 * 60_000).toISOString());
    assert.match(url, new RegExp(`^http://pvs\\.test/reports/v1/verifications/${created.id}/report\\.pdf\\?client=`));
    const pages = await reportText(url);
    const text = pages.join('\n');
    for (const expected of ['54 222 222 228', '222 222 228', '333 333 332', 'Register data', 'Harriet Quill Review', operator.operatorId, 'Verified by manual review']) {
      assert.ok(text.includes(expected), `the report prints ${expected}`);
    }
    assert.ok(!text.includes('video call'), 'the operator’s note stays with PVS (decision 94)');
    // The person verified as Harriet Quill Review, which is not the name the register gave the party.
    assert.match(text, /On the register as [A-Z][a-z]+ .*[A-Z]{3,}/);
    assert.ok(text.includes('The verified name is not the name on the register.'));
    assert.ok(!text.includes('Register data is unavailable'), 'a lookup-bound request has register data');
    // The individual report compares the verified name with the register's too.
    const individual = (await reportText((await reportUrl(created.id, reviewed)).url)).join('\n');
    assert.match(individual, /On the register as [A-Z][a-z]+ .*[A-Z]{3,}/);
    assert.ok(individual.includes('The verified name is not the name on the register.'));
    for (const [i, page] of pages.entries()) {
      assert.ok(page.includes(created.id), `page ${i + 1} names the request`);
      assert.ok(page.includes(`Page ${i + 1} of ${pages.length}`), `page ${i + 1} is numbered`);
      assert.ok(page.includes('24 Nov 2026'), `page ${i + 1} carries the generation time`);
    }
  });

  it('says each person’s roles in the hosted page’s words, never the register’s codes, in both reports', async () => {
    const lookup = await settledLookup(t, partner, { abn: '54 222 222 228', scope: 'FULL' });
    const created = await createVerification(t, partner, { mode: 'AUSTRAC_CDD', lookupRequestId: lookup.lookupRequestId });
    const individuals = await t.services.db.query<{ id: string; role: string; role_description: string | null }>(
      'SELECT id, role, role_description FROM verification_individuals WHERE request_id = $1 ORDER BY id',
      [created.id],
    );
    // The sandbox register's Wattle Creek: one party is its beneficial owner, director and secretary, one a beneficial owner and director.
    const ownerDirectorSecretary = individuals.find((i) => i.role === 'UBO' && i.role_description === 'DIRECTOR, SECRETARY');
    assert.ok(ownerDirectorSecretary && individuals.some((i) => i.role === 'UBO' && i.role_description === 'DIRECTOR'), JSON.stringify(individuals));

    const entity = (await reportText((await reportUrl(created.id)).url)).join('\n');
    for (const expected of ['Beneficial owner, director and company secretary', 'Beneficial owner and director']) {
      assert.ok(entity.includes(expected), `the entity report says ${expected}`);
    }
    const individual = (await reportText((await reportUrl(created.id, ownerDirectorSecretary.id)).url)).join('\n');
    assert.ok(
      individual.includes('Beneficial owner, director and company secretary of WATTLE CREEK LOGISTICS PTY LTD'),
      'the individual report says the roles, and the entity through the lookup, as the hosted page does',
    );
    for (const [report, text] of [['entity', entity], ['individual', individual]]) {
      assert.doesNotMatch(text!, /DIRECTOR|SECRETARY|Beneficial owner ·/, `the ${report} report says no register code`);
    }
  });

  it('sets a date of birth that is not the register’s beside the register’s, in both reports (decision 122)', async () => {
    const { requestId, individualId, person, registerBorn } = await lookupBoundKingsley(t, partner);
    const created = { id: requestId };
    const entered = anotherDate(registerBorn);
    for (const res of [await person.details(personDetails('Kingsley', { firstName: 'Oliver', middleName: 'James', dateOfBirth: entered })), await person.document(), await person.selfie()]) {
      assert.equal(res.statusCode, 200, res.body);
    }
    await person.submit();
    await runDueJobs(t);

    const said = formatDate;
    const text = (await reportText((await reportUrl(created.id)).url)).join('\n');
    for (const expected of ['1 person to verify; 1 date of birth differs from the register’s', 'The date of birth entered is not the one on the register.', `The person entered ${said(entered)}; the register holds ${said(registerBorn)} for this party.`]) {
      assert.ok(text.includes(expected), `the entity report prints ${expected}`);
    }
    const individual = (await reportText((await reportUrl(created.id, individualId)).url)).join('\n');
    for (const expected of [`Date of birth ${said(entered)}`, `Date of birth on the register ${said(registerBorn)}: not the date entered`, 'REGISTER_DATE_OF_BIRTH_DIFFERS', 'Needs manual review']) {
      assert.ok(individual.includes(expected), `the individual report prints ${expected}`);
    }
  });

  it('for a hand-built request says that register data is unavailable', async () => {
    const { requestId } = await handBuilt('AUSTRAC_CDD');
    const text = (await reportText((await reportUrl(requestId)).url)).join('\n');
    assert.ok(text.includes('Register data is unavailable'), text.slice(0, 400));
    assert.ok(text.includes('Hand Built Pty Ltd') && text.includes('Harriet Quill Okafor'));
  });

  it('does not exist for TPB_POI (409 INVALID_STATE); another partner’s request is 404', async () => {
    const { requestId, individualId } = await handBuilt('TPB_POI');
    const refused = await t.app.inject({ method: 'POST', url: reportPath(requestId), headers: partner.headers });
    assert.deepEqual([refused.statusCode, refused.json<{ code: string }>().code], [409, 'INVALID_STATE']);
    assert.match(refused.json<{ detail: string }>().detail, /TPB_POI/);
    for (const path of [reportPath(requestId), reportPath(requestId, individualId)]) {
      const foreign = await t.app.inject({ method: 'POST', url: path, headers: other.headers });
      assert.deepEqual([foreign.statusCode, foreign.json<{ code: string }>().code], [404, 'NOT_FOUND'], path);
    }
  });
});

describe('the individual report', () => {
  it('prints the verified identity, the checks, the AML outcome and the attempts, for any mode', async () => {
    const { requestId, individualId } = await handBuilt('TPB_POI');
    const text = (await reportText((await reportUrl(requestId, individualId)).url)).join('\n');
    for (const expected of ['Harriet Quill Okafor', '17 February 1979', '48 Banksia Parade', passport.number, 'Face match', 'AML_CLEAR', 'Clear:', individualId, 'first opened their link on 24 Nov 2026']) {
      assert.ok(text.includes(expected), `the report prints ${expected}`);
    }
  });

  it('before the person has done anything, says their identity is not verified yet', async () => {
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'OTHER' }] });
    const text = (await reportText((await reportUrl(created.id, created.individuals[0]!.id)).url)).join('\n');
    assert.match(text, /not given their details yet/);
    assert.doesNotMatch(text, /first opened their link/);
  });
});

describe('the signed URL', () => {
  it('works until 15 minutes have passed, then answers 403; so does any change to it', async () => {
    const { requestId, individualId } = await handBuilt('AUSTRAC_CDD');
    const { url } = await reportUrl(requestId, individualId);
    const other = (await handBuilt('AUSTRAC_CDD')).individualId;
    const changed = new URL(url);
    const signature = changed.searchParams.get('signature')!;
    const tampered = [
      url.replace(`signature=${signature}`, `signature=${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`),
      url.replace(/expires=(\d+)/, (_m, s: string) => `expires=${Number(s) + 3600}`),
      url.replace(/client=[^&]+/, `client=${other}`),
      url.replace(individualId, other),
      url.replace('/individuals/', '/individual/'),
    ];
    for (const attempt of tampered.slice(0, 4)) {
      const res = await open(attempt);
      assert.deepEqual([res.statusCode, res.json<{ code: string }>().code], [403, 'FORBIDDEN'], attempt);
      assert.match(res.json<{ detail: string }>().detail, /not one PVS made, or it was changed/);
    }
    assert.equal((await open(tampered[4]!)).statusCode, 404, 'a path that is no route');
    const unsigned = await open(url.replace(/&signature=[^&]+/, ''));
    assert.equal(unsigned.statusCode, 400, 'no signature at all is a malformed request');

    clock.advance(15 * 60_000 - 1000);
    assert.equal((await open(url)).statusCode, 200, 'one second before it expires');
    clock.advance(1000);
    const expired = await open(url);
    assert.deepEqual([expired.statusCode, expired.json<{ code: string }>().code], [403, 'FORBIDDEN']);
    assert.match(expired.json<{ detail: string }>().detail, /expired/);
  });

  it('records each rendering in the evidence audit trail; a provider outage is 503 and recorded so', async () => {
    const { requestId, individualId } = await handBuilt('AUSTRAC_CDD');
    assert.equal((await open((await reportUrl(requestId)).url)).statusCode, 200);
    assert.equal((await open((await reportUrl(requestId, individualId)).url)).statusCode, 200);

    const down = await handBuilt('AUSTRAC_CDD', 'Unavailable');
    const outage = await open((await reportUrl(down.requestId, down.individualId)).url);
    assert.deepEqual([outage.statusCode, outage.json<{ code: string }>().code, outage.headers['retry-after']], [503, 'SERVICE_UNAVAILABLE', '60']);

    const rows = await t.services.db.query<{ verification_request_id: string; individual_id: string | null; kind: string; status: string; api_client_id: string }>(
      'SELECT verification_request_id, individual_id, kind, status, api_client_id FROM evidence_reads WHERE verification_request_id = ANY($1::text[]) ORDER BY id',
      [[requestId, down.requestId]],
    );
    assert.deepEqual(
      rows.map((r) => [r.verification_request_id, r.individual_id, r.kind, r.status, r.api_client_id]),
      [
        [requestId, null, 'ENTITY_REPORT', 'OK', partner.clientId],
        [requestId, individualId, 'INDIVIDUAL_REPORT', 'OK', partner.clientId],
        [down.requestId, down.individualId, 'INDIVIDUAL_REPORT', 'UPSTREAM_UNAVAILABLE', partner.clientId],
      ],
    );
  });
});
