// The operator console in Chromium, as an operator works in it: the review queue, a review with its
// evidence fetched live and a decision (refused without a note) that reaches the partner's webhook, the
// evidence-read trail and the audit log; the kill switch; the keyboard alone; a forged form; monitoring
// alerts decided once; partners added, changed, disabled and enabled. axe-core and screenshots of every
// page (test-output/screenshots/console/).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { createContact, runDueJobs } from '../helpers/billing.ts';
import { browserSkipReason, createServedContext, focusedId, launchBrowser } from '../helpers/browser.ts';
import type { TestContext, TestPartner } from '../helpers/context.ts';
import { enable, monitoringEvents } from '../helpers/monitoring.ts';
import { generateOtherPhoto } from '../helpers/passport-images.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { createVerification, mintLinks, openLink, passport, personDetails, photo, type PersonDetailsBody } from '../helpers/verifications.ts';
import { capture, clickAndWait, createConsoleOperator, createPortalUser, newWebContext, postWithoutToken, signIn, type WebAccount } from '../helpers/web.ts';

const skip = browserSkipReason();

/** capture(): axe, both screenshots, and nothing wider than a phone's screen. */
const look = (page: Page, name: string) => capture(page, name);

describe('the operator console in a browser', { skip }, () => {
  let t: TestContext & { baseUrl: string };
  let browser: Browser;
  let operator: WebAccount;
  let page: Page;
  let partner: TestPartner;
  let receiver: Receiver;

  before(async () => {
    if (skip) return;
    t = await createServedContext();
    await t.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
    browser = await launchBrowser();
    operator = await createConsoleOperator(t);
    partner = await t.f.partner({ name: 'Harbour Accounting', monitoring: true });
    receiver = await startReceiver();
    const destination = await t.app.inject({ method: 'POST', url: '/v1/webhook-destinations', headers: partner.headers, payload: { url: receiver.url, categories: ['VERIFICATIONS'] } });
    assert.equal(destination.statusCode, 201, destination.body);
    receiver.setSecret(destination.json<{ secret: string }>().secret);
    page = await (await newWebContext(browser)).newPage();
    await signIn(page, t.baseUrl, 'console', operator);
  });
  after(async () => {
    await receiver?.close();
    await browser?.close();
    await t?.close();
  });

  const individualStatus = async (id: string) => (await t.services.db.query<{ status: string }>('SELECT status FROM verification_individuals WHERE id = $1', [id]))[0]?.status;
  const path = () => new URL(page.url()).pathname;

  /** An individual of `partner` sent to MANUAL_REVIEW by the sandbox (CONTRACT §13: a listed name, or `Review`). */
  async function individualInReview(lastName: string, details: Partial<PersonDetailsBody> = {}, images = { front: photo(), selfie: photo() }) {
    partner = await t.f.signIn(partner);
    const created = await createVerification(t, partner, { mode: 'TPB_POI', individuals: [{ role: 'AUTHORISED_REP', externalId: `client-${lastName}` }] });
    const individualId = created.individuals[0]!.id;
    const person = await openLink(t, (await mintLinks(t, partner, created.id)).get(individualId)!);
    for (const res of [await person.details(personDetails(lastName, details)), await person.document(passport, { front: images.front }), await person.selfie(images.selfie)]) {
      assert.equal(res.statusCode, 200, res.body);
    }
    assert.equal((await person.submit()).statusCode, 200);
    await runDueJobs(t);
    assert.equal(await individualStatus(individualId), 'MANUAL_REVIEW');
    return { requestId: created.id, individualId, path: `/console/reviews/${created.id}/${individualId}` };
  }

  it('reviews a listed person with the evidence fetched live, needs a note, and tells the partner, the read trail and the audit log', async () => {
    await page.goto(`${t.baseUrl}/console`);
    assert.match(await page.locator('main').innerText(), /Nobody is waiting for review/);
    await look(page, 'console/queue-empty');

    const front = await generateOtherPhoto(7, { width: 480, height: 320 });
    const selfie = await generateOtherPhoto(8, { width: 300, height: 400 });
    const review = await individualInReview('Karlov', { firstName: 'Boris', middleName: 'Ivanovich', dateOfBirth: '1961-03-14' }, {
      front: { bytes: front.bytes, filename: 'front.jpg', contentType: 'image/jpeg' },
      selfie: { bytes: selfie.bytes, filename: 'selfie.jpg', contentType: 'image/jpeg' },
    });

    await page.goto(`${t.baseUrl}/console`);
    const row = page.locator('tr', { hasText: review.individualId });
    assert.match(await row.innerText(), new RegExp(`${review.individualId}\\s+AUTHORISED_REP\\s+${review.requestId}\\s+TPB_POI\\s+Harbour Accounting\\s+[\\d-]+ [\\d:]+ UTC\\s+AML screening\\s+HIGH`));
    assert.equal(await page.locator('.stat-value').innerText(), '1');
    await look(page, 'console/queue');

    await clickAndWait(page, `a[href="${review.path}"]`);
    assert.equal(path(), review.path);
    const images = await page.locator('.evidence-images img').evaluateAll((els) => els.map((el) => [el.getAttribute('src')?.slice(0, 23), el.getAttribute('alt')]));
    assert.deepEqual(images, [
      ['data:image/jpeg;base64,', 'Document, front as the person uploaded it'],
      ['data:image/jpeg;base64,', 'Selfie as the person uploaded it'],
    ]);
    assert.ok(await page.locator('.evidence-images img').first().evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0), 'the image decodes');
    const main = await page.locator('main').innerText();
    for (const expected of ['Boris Ivanovich Karlov', '1961-03-14', 'PB7730412', 'Boris Ivanovich KARLOV', 'pvs-fx-karlov-boris', 'Face comparison']) assert.ok(main.includes(expected), `the review shows ${expected}`);
    await look(page, 'console/review');

    // A note of spaces passes the browser's `required` but not the server.
    await page.getByRole('radio', { name: /^Pass/ }).check();
    await page.getByLabel('Note').fill('   ');
    await clickAndWait(page, 'button:has-text("Record decision")');
    assert.match(await page.locator('.error-summary').innerText(), /Write why you decided so/);
    assert.equal(await page.getByLabel('Note').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByRole('radio', { name: /^Pass/ }).isChecked(), true, 'the choice is kept');
    assert.equal(await individualStatus(review.individualId), 'MANUAL_REVIEW', 'nothing decided');
    await look(page, 'console/review-error');

    const note = 'Selfie matches the document; the listed Karlov has another face and passport history.';
    await page.getByLabel('Note').fill(note);
    await clickAndWait(page, 'button:has-text("Record decision")');
    assert.equal(path(), review.path);
    assert.match(await page.locator('.notice-success').innerText(), /Your decision is recorded/);
    assert.match(await page.locator('main').innerText(), new RegExp(`MANUALLY PASSED[\\s\\S]*The decision[\\s\\S]*PASSED[\\s\\S]*${operator.email.replace(/\./g, '\\.')}[\\s\\S]*${note}`));
    assert.equal(await page.locator('form button:has-text("Record decision")').count(), 0, 'no form once decided');
    assert.equal(await individualStatus(review.individualId), 'MANUALLY_PASSED');
    await look(page, 'console/review-decided');

    const dispatcher = t.services.createDispatcher();
    await dispatcher.drain();
    await dispatcher.stop(1000);
    const passed = receiver.received.find((d) => d.body.type === 'verification.individual.passed' && d.body.individualId === review.individualId);
    assert.ok(passed, `the partner's receiver got .passed (got ${receiver.received.map((d) => d.body.type).join(', ')})`);
    assert.equal(passed.verified.ok, true, 'with a valid signature');
    assert.deepEqual([passed.body.status, passed.body.manualOverride], ['MANUALLY_PASSED', true]);

    await page.goto(`${t.baseUrl}/console/evidence-reads`);
    const reads = page.locator('tr', { hasText: review.individualId });
    // Two views in review (its page, the refused decision; not the decided page), each reading both.
    assert.equal(await reads.count(), 4, 'the document and the list matches, read for each view in review');
    assert.match(await reads.first().innerText(), new RegExp(`${operator.email.replace(/\./g, '\\.')}[\\s\\S]*operator[\\s\\S]*Harbour Accounting`));
    const operatorReads = await t.services.db.query<{ kind: string }>('SELECT kind FROM evidence_reads WHERE individual_id = $1 AND operator_id = $2 AND api_client_id IS NULL ORDER BY kind', [
      review.individualId,
      operator.id,
    ]);
    assert.deepEqual(operatorReads.map((r) => r.kind), ['AML_MATCHES', 'AML_MATCHES', 'DOCUMENT_DETAILS', 'DOCUMENT_DETAILS']);
    await look(page, 'console/evidence-reads');

    await page.goto(`${t.baseUrl}/console/audit`);
    const entry = await page.locator('tbody tr').first().innerText();
    assert.match(entry, /verification\.individual\.decided/);
    assert.ok(entry.includes(operator.email) && entry.includes(review.individualId) && entry.includes('MANUALLY_PASSED'), entry);
    assert.ok(!entry.includes('Selfie matches'), 'the note is not in the audit log');
    await look(page, 'console/audit');
  });

  it('says plainly when evidence is switched off, and reads it again once the switch is back', async () => {
    const review = await individualInReview('Review');
    await t.services.settings.set('EVIDENCE_DETAIL_ENABLED', false, operator.id);
    try {
      await page.goto(`${t.baseUrl}${review.path}`);
      const main = await page.locator('main').innerText();
      assert.match(main, /Document evidence cannot be shown right now\.\s*Evidence detail is switched off for now \(EVIDENCE_DETAIL_ENABLED\)/);
      assert.match(main, /List screening cannot be shown right now\./);
      assert.equal(await page.locator('img').count(), 0, 'no image while switched off');
      assert.equal(await page.locator('button:has-text("Record decision")').count(), 1, 'the operator may still decide');
      await look(page, 'console/review-evidence-off');
    } finally {
      await t.services.settings.reset('EVIDENCE_DETAIL_ENABLED');
    }
    const reads = await t.services.db.query<{ status: string }>('SELECT DISTINCT status FROM evidence_reads WHERE individual_id = $1', [review.individualId]);
    assert.deepEqual(reads, [{ status: 'UPSTREAM_UNAVAILABLE' }], 'the refused reads are in the trail too');
    await page.reload();
    assert.equal(await page.locator('.evidence-images img').count(), 2);
    assert.match(await page.locator('main').innerText(), /Why\s+Face match \(FACE_MATCH_SCORE_INCONCLUSIVE\): The selfie may not be of the person/);
  });

  it('opens the first review from the queue and decides it with the keyboard alone', async () => {
    await page.goto(`${t.baseUrl}/console`);
    const first = await page.locator('tbody tr a[href^="/console/reviews/"]').first().getAttribute('href');
    assert.ok(first, 'the queue has a review');
    for (let i = 0; i < 30 && (await page.evaluate('document.activeElement && document.activeElement.getAttribute("href")')) !== first; i++) await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.getAttribute("href")'), first, 'Tab reaches the first review');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(path(), first);

    for (let i = 0; i < 60 && (await focusedId(page)) !== 'field-decision-0'; i++) await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'field-decision-0', 'Tab reaches the decision, on its first choice');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedId(page), 'field-decision-1');
    assert.equal(await page.getByRole('radio', { name: /^Fail/ }).isChecked(), true, 'the arrow chooses Fail');
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'field-note');
    await page.keyboard.type('The selfie is of someone else.');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Record decision');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.match(await page.locator('.notice-success').innerText(), /Your decision is recorded/);
    assert.equal(await individualStatus(first.split('/').at(-1)!), 'FAILED');
  });

  it('refuses a decision or a change posted without the session’s token, and changes nothing', async () => {
    const review = await individualInReview('Review');
    const forged = await postWithoutToken(page, `${t.baseUrl}${review.path}`, { decision: 'PASS', note: 'forged' });
    assert.equal(forged.status, 403);
    assert.match(forged.body, /This form could not be accepted/);
    assert.equal(await individualStatus(review.individualId), 'MANUAL_REVIEW');
    const disable = await postWithoutToken(page, `${t.baseUrl}/console/partners/${partner.partnerId}/disable`, {});
    assert.equal(disable.status, 403);
    assert.equal((await t.services.partners.get(partner.partnerId)).disabledAt, null);
  });

  it('pages through the queue, oldest first', async () => {
    const later = await individualInReview('Review');
    await page.goto(`${t.baseUrl}/console?limit=1`);
    const first = await page.locator('tbody a[href^="/console/reviews/"]').getAttribute('href');
    assert.notEqual(first, later.path, 'the one waiting longer comes first');
    await clickAndWait(page, 'a[rel="next"]');
    assert.deepEqual(await page.locator('tbody a[href^="/console/reviews/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href'))), [later.path]);
    assert.match(new URL(page.url()).search, /limit=1/, 'the page size is kept');
    assert.equal(await page.locator('a[rel="prev"]').count(), 1);
  });

  it('answers an unknown review or alert with a 404 page', async () => {
    for (const address of ['/console/reviews/ver_nothing/ind_nothing', '/console/alerts/mal_nothing', '/console/partners/ptn_nothing']) {
      const res = await page.goto(`${t.baseUrl}${address}`);
      assert.equal(res?.status(), 404, address);
      assert.match(await page.locator('h1').innerText(), /Page not found/);
    }
  });

  it('dismisses a monitoring alert from its page once: monitoring.alert.updated, and a second decision is only shown', async () => {
    partner = await t.f.signIn(partner);
    const contact = await createContact(t, partner, { name: 'Northwind Trading FZE' });
    await enable(t, partner, contact.id, { countries: ['AE'] });
    await runDueJobs(t);
    await page.goto(`${t.baseUrl}/console/alerts`);
    const row = page.locator('tr', { hasText: contact.id });
    assert.match(await row.innerText(), /OPEN[\s\S]*Harbour Accounting[\s\S]*Northwind Trading FZE[\s\S]*SANCTIONS/);
    await look(page, 'console/alerts');
    const href = (await row.locator('a[href^="/console/alerts/"]').getAttribute('href'))!;
    const alertId = href.split('/').at(-1)!;

    // A second tab with the same alert open, to decide after this one has.
    const stale = await page.context().newPage();
    await stale.goto(`${t.baseUrl}${href}`);

    await clickAndWait(page, `a[href="${href}"]`);
    const main = await page.locator('main').innerText();
    for (const expected of ['Northwind Trading FZE', 'The list entry, as version', 'What made the score', 'Name similarity', 'SANCTIONS', contact.id]) assert.ok(main.includes(expected), `the alert shows ${expected}`);
    await look(page, 'console/alert');
    await page.getByRole('radio', { name: /^False positive/ }).check();
    await page.getByLabel('Note').fill('A trading company in Brisbane, not the listed Dubai free-zone entity.');
    await clickAndWait(page, 'button:has-text("Record decision")');
    assert.match(await page.locator('.notice-success').innerText(), /monitoring\.alert\.updated/);
    assert.match(await page.locator('main').innerText(), new RegExp(`DISMISSED[\\s\\S]*False positive[\\s\\S]*${operator.email.replace(/\./g, '\\.')} \\(operator\\)`));
    await look(page, 'console/alert-decided');
    assert.deepEqual((await monitoringEvents(t, partner.partnerId)).at(-1), {
      type: 'monitoring.alert.updated',
      payload: { contactId: contact.id, product: 'SCREENING', monitoringAlertId: alertId, categories: ['SANCTIONS'], status: 'DISMISSED' },
    });

    await stale.getByRole('radio', { name: /^True match/ }).check();
    await stale.getByLabel('Note').fill('Looks like them.');
    const [response] = await Promise.all([stale.waitForNavigation(), stale.click('button:has-text("Record decision")')]);
    assert.equal(response?.status(), 409);
    assert.match(await stale.locator('.notice-error').innerText(), /decided already/);
    assert.match(await stale.locator('main').innerText(), /DISMISSED/);
    await stale.close();
    const updates = (await monitoringEvents(t, partner.partnerId)).filter((e) => e.type === 'monitoring.alert.updated' && e.payload.monitoringAlertId === alertId);
    assert.equal(updates.length, 1, 'one decision, one event');

    await page.goto(`${t.baseUrl}/console/alerts?status=OPEN`);
    assert.equal(await page.locator('tr', { hasText: alertId }).count(), 0, 'not among the open ones');
    await page.goto(`${t.baseUrl}/console/alerts?status=DISMISSED`);
    assert.equal(await page.locator('tr', { hasText: alertId }).count(), 1);
    const [entry] = (await t.services.audit.list({ action: 'monitoring.alert.decided' }, { limit: 1, from: 0 })).data;
    assert.deepEqual([entry?.actor.email, entry?.targetId, entry?.partnerId, entry?.detail], [operator.email, alertId, partner.partnerId, { decision: 'FALSE_POSITIVE', status: 'DISMISSED' }]);
  });

  it('adds a partner (its secret shown once), sets its commission, disables it (no tokens, portal signed out) and enables it', async () => {
    await page.goto(`${t.baseUrl}/console/partners`);
    await look(page, 'console/partners');
    await page.getByLabel('Name').fill('Banksia Bookkeeping');
    await page.getByRole('checkbox', { name: /Eligible for monitoring/ }).check();
    await page.getByLabel('Commission on ATO payments, in basis points').fill('150');
    await clickAndWait(page, 'button:has-text("Add partner")');
    const created = await page.locator('main').innerText();
    const secret = await page.locator('#secret-value').innerText();
    assert.match(secret, /^pvs_secret_/);
    const partnerId = /Partner id\s+(ptn_\w+)/.exec(created)![1]!;
    const clientId = /Client id\s+(\w+)/.exec(created)![1]!;
    await look(page, 'console/partner-created');

    const token = (id = clientId) =>
      fetch(`${t.baseUrl}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }) });
    const issued = await token();
    assert.equal(issued.status, 200, 'the new client gets a token');
    const unused = (await issued.json()) as { access_token: string };

    await page.goto(`${t.baseUrl}/console/partners`);
    assert.match(await page.locator('tr', { hasText: partnerId }).innerText(), /Banksia Bookkeeping[\s\S]*sandbox[\s\S]*Eligible[\s\S]*150 bps \(1\.5 %\)[\s\S]*ACTIVE[\s\S]*0/);
    await clickAndWait(page, `a[href="/console/partners/${partnerId}"]`);
    assert.ok(!(await page.content()).includes(secret), 'the secret is never shown again');
    await look(page, 'console/partner');

    const commission = page.getByLabel('Commission on ATO payments, in basis points');
    for (const [value, message] of [
      ['1.5', /whole number of basis points/],
      ['10001', /at most 10000 basis points/],
      ['', /Enter the commission/],
    ] as const) {
      await commission.fill(value);
      await commission.evaluate((input) => input.removeAttribute('required'));
      await clickAndWait(page, 'button:has-text("Save settings")');
      assert.match(await page.locator('.error-summary').innerText(), message, `${value || 'blank'} is refused`);
      assert.equal(await commission.getAttribute('aria-invalid'), 'true');
    }
    await look(page, 'console/partner-error');
    await commission.fill('250');
    await clickAndWait(page, 'button:has-text("Save settings")');
    assert.match(await page.locator('.notice-success').innerText(), /settings are saved/);
    assert.equal((await t.services.partners.get(partnerId)).commissionBps, 250);

    const user = await createPortalUser(t, partnerId);
    const portal = await (await newWebContext(browser)).newPage();
    await signIn(portal, t.baseUrl, 'portal', user);

    page.once('dialog', (dialog) => void dialog.accept());
    await clickAndWait(page, 'button:has-text("Disable partner")');
    assert.match(await page.locator('.notice-success').innerText(), /The partner is disabled[\s\S]*1 portal session was ended/);
    assert.match(await page.locator('main').innerText(), /DISABLED/);
    await look(page, 'console/partner-disabled');
    const refused = await token();
    assert.deepEqual([refused.status, ((await refused.json()) as { error: string }).error], [401, 'invalid_client']);
    const call = await fetch(`${t.baseUrl}/v1/contacts`, { headers: { authorization: `Bearer ${unused.access_token}`, 'x-partner-id': partnerId } });
    assert.equal(call.status, 401, 'a token issued before, not used yet, no longer works');
    await portal.goto(`${t.baseUrl}/portal`);
    assert.equal(new URL(portal.url()).pathname, '/portal/login', 'the portal user is signed out');

    await clickAndWait(page, 'button:has-text("Enable partner")');
    assert.match(await page.locator('.notice-success').innerText(), /enabled/);
    assert.equal((await token()).status, 200, 'its client gets tokens again');
    await signIn(portal, t.baseUrl, 'portal', user);
    await portal.context().close();

    const actions = (await t.services.audit.list({ partnerId, actorKind: 'OPERATOR' }, { limit: 10, from: 0 })).data.map((e) => [e.action, e.actor.email]);
    assert.deepEqual(actions, [
      ['partner.enabled', operator.email],
      ['partner.disabled', operator.email],
      ['partner.updated', operator.email],
      ['partner.created', operator.email],
    ]);
    const audit = JSON.stringify(await t.services.audit.list({ partnerId }, { limit: 10, from: 0 }));
    assert.ok(!audit.includes(secret), 'no secret in the audit log');
  });
});
