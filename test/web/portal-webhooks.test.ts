// The portal's webhook destinations, delivery history and API clients in Chromium: a destination added
// from the page receiving a test event its receiver verifies, a failed delivery shown with the receiver's
// answer and sent again by "Retry now", secrets shown once (a reload shows nothing and rotates nothing)
// that then work, the keyboard alone, another partner's ids answering 404, forms refused without the
// CSRF token. axe-core and screenshots of every page (test-output/screenshots/portal/).
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Dispatcher } from '../../src/modules/webhooks/dispatcher.ts';
import { tenantOf } from '../../src/platform/tenancy.ts';
import { browserSkipReason, createServedContext, focusedId, launchBrowser } from '../helpers/browser.ts';
import type { TestContext, TestPartner } from '../helpers/context.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { capture, clickAndWait, createPortalUser, newWebContext, postWithoutToken, signIn } from '../helpers/web.ts';

const skip = browserSkipReason();

describe('webhook destinations, deliveries and API clients in the portal', { skip }, () => {
  let t: TestContext & { baseUrl: string };
  let browser: Browser;
  let dispatcher: Dispatcher;
  const receivers: Receiver[] = [];

  before(async () => {
    if (skip) return;
    t = await createServedContext();
    browser = await launchBrowser();
    dispatcher = t.services.createDispatcher();
  });
  after(async () => {
    await dispatcher?.stop(1000);
    for (const r of receivers) await r.close();
    await browser?.close();
    await t?.close();
  });

  /** A partner of its own with a portal user signed in; confirm dialogs (rotate, remove) are accepted. */
  async function portalOf(name: string): Promise<{ partner: TestPartner; page: Page }> {
    const partner = await t.f.partner({ name });
    const user = await createPortalUser(t, partner.partnerId);
    const page = await (await newWebContext(browser)).newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await signIn(page, t.baseUrl, 'portal', user);
    return { partner, page };
  }

  async function receiver(): Promise<Receiver> {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  }

  async function addDestination(partner: TestPartner, body: { url: string; categories?: string[] }): Promise<{ id: string; secret: string }> {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhook-destinations', headers: partner.headers, payload: body });
    assert.equal(res.statusCode, 201, res.body);
    return res.json<{ id: string; secret: string }>();
  }

  async function sendTest(partner: TestPartner, type: string, variant: string): Promise<string[]> {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhook-notifications/test', headers: partner.headers, payload: { type, variant } });
    assert.equal(res.statusCode, 202, res.body);
    return res.json<{ data: Array<{ id: string }> }>().data.map((n) => n.id);
  }

  async function auditActions(partnerId: string): Promise<string[]> {
    return (await t.services.audit.list({ partnerId }, { limit: 100, from: 0 })).data.map((e) => e.action);
  }

  const path = (page: Page) => new URL(page.url()).pathname;
  const secretShown = (page: Page) => page.locator('#secret-value').innerText();

  async function token(clientId: string, clientSecret: string): Promise<number> {
    const res = await fetch(`${t.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    });
    const body = (await res.json()) as { access_token?: string };
    if (res.status === 200) assert.ok(body.access_token, 'a token');
    return res.status;
  }

  it('adds a destination from the page, sends a test event from it, and the receiver verifies the signature', async () => {
    const { partner, page } = await portalOf('Harbour Accounting');
    const hooks = await receiver();
    await page.goto(`${t.baseUrl}/portal/destinations`);
    assert.match(await page.locator('main').innerText(), /No destinations yet/);
    await capture(page, 'portal/destinations-empty');

    await clickAndWait(page, 'a:has-text("Add a destination")');
    assert.equal(path(page), '/portal/destinations/new');
    const boxes = page.locator('input[name="categories"]');
    assert.equal(await boxes.count(), 6);
    for (let i = 0; i < 6; i++) assert.ok(await boxes.nth(i).isChecked(), 'every category is checked by default (SPEC)');
    await capture(page, 'portal/destination-new');

    // Errors: a URL that is not https and no category.
    await page.getByLabel('Endpoint URL').fill('ftp://hooks.example.com/pvs');
    for (let i = 0; i < 6; i++) await boxes.nth(i).uncheck();
    const refused = await Promise.all([page.waitForNavigation(), page.click('button:has-text("Add destination")')]);
    assert.equal(refused[0]?.status(), 400);
    const summary = await page.getByRole('alert').innerText();
    assert.match(summary, /There is a problem/);
    assert.match(summary, /The endpoint URL must be https/);
    assert.match(summary, /Choose at least one event category/);
    assert.equal(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Endpoint URL').inputValue(), 'ftp://hooks.example.com/pvs', 'the URL is kept');
    await capture(page, 'portal/destination-new-errors');
    assert.equal((await t.services.destinations.list(tenantOf(partner.partnerId), { limit: 10, from: 0 })).data.length, 0, 'nothing was added');

    await page.getByLabel('Endpoint URL').fill(hooks.url);
    for (let i = 0; i < 6; i++) await boxes.nth(i).check();
    await clickAndWait(page, 'button:has-text("Add destination")');
    assert.equal(await page.locator('h1').innerText(), 'Destination added');
    const secret = await secretShown(page);
    assert.match(secret, /^whsec_/);
    hooks.setSecret(secret);
    await capture(page, 'portal/destination-created');

    await page.goto(`${t.baseUrl}/portal/destinations`);
    assert.match(await page.locator('table').innerText(), /All categories\s+ENABLED/);
    await capture(page, 'portal/destinations');
    await clickAndWait(page, `a:has-text("${hooks.url}")`);
    const destinationId = path(page).split('/').pop()!;
    assert.match(await page.locator('main').innerText(), new RegExp(hooks.url.replace(/[.?/]/g, '\\$&')));
    assert.equal(await page.locator('#secret-value').count(), 0, 'the secret is not on the destination page');
    await capture(page, 'portal/destination');

    await page.getByLabel('Event type').selectOption({ label: 'payment.succeeded' });
    await clickAndWait(page, 'button:has-text("Send test event")');
    const said = await page.getByRole('status').innerText();
    assert.match(said, /Sent a test payment\.succeeded event/);
    assert.equal(await page.getByRole('status').locator('li').count(), 1, 'one notification: one destination');
    assert.match(said, /to this destination/);
    const link = page.getByRole('status').locator('a[href^="/portal/deliveries/"]');
    const notificationId = (await link.innerText()).trim();
    assert.equal(await page.getByLabel('Event type').inputValue(), 'payment:succeeded', 'the type just sent stays chosen');
    await capture(page, 'portal/destination-test-sent');

    await dispatcher.drain();
    assert.equal(hooks.received.length, 1);
    const delivery = hooks.received[0]!;
    assert.equal(delivery.verified.ok, true, 'the signature verifies with the secret the page showed');
    assert.equal(delivery.body.type, 'payment.succeeded');
    assert.equal(delivery.body.test, true);
    assert.equal(delivery.headers['x-notification-id'], notificationId);
    assert.equal((await t.services.notifications.get(tenantOf(partner.partnerId), notificationId)).destinationId, destinationId);

    await clickAndWait(page, `a:has-text("${notificationId}")`);
    assert.equal(path(page), `/portal/deliveries/${notificationId}`);
    assert.match(await page.locator('.details').innerText(), /DELIVERED/);
    assert.deepEqual(
      (await auditActions(partner.partnerId)).filter((a) => a.startsWith('destination') || a.startsWith('webhook')).sort(),
      ['destination.created', 'webhook.test_sent'],
    );
  });

  it('shows a failing delivery with the receiver’s answer, and "Retry now" delivers it', async () => {
    const { partner, page } = await portalOf('Quay Lending');
    const hooks = await receiver();
    const destination = await addDestination(partner, { url: hooks.url, categories: ['PAYMENTS'] });
    hooks.setSecret(destination.secret);
    hooks.respond((d, res) => (hooks.received.length === 1 ? res.writeHead(500).end('receiver down for maintenance') : res.writeHead(d.verified.ok ? 200 : 401).end('ok')));
    const [failedId] = await sendTest(partner, 'payment', 'failed');
    await dispatcher.drain();
    assert.equal(hooks.received.length, 1);

    await page.goto(`${t.baseUrl}/portal/deliveries`);
    const row = page.locator('tr', { has: page.locator(`a:has-text("${failedId}")`) });
    assert.match(await row.innerText(), /PENDING\s+1\s+last answer 500/);
    await capture(page, 'portal/deliveries');

    await page.getByLabel('Status').selectOption('DELIVERED');
    await clickAndWait(page, 'button:has-text("Filter")');
    assert.equal(new URL(page.url()).searchParams.get('status'), 'DELIVERED');
    assert.match(await page.locator('main').innerText(), /No notification matches the filter/);
    await page.getByLabel('Status').selectOption('PENDING');
    await clickAndWait(page, 'button:has-text("Filter")');
    await clickAndWait(page, `a:has-text("${failedId}")`);

    assert.match(await page.locator('.details').innerText(), /PENDING/);
    const attempts = page.locator('table', { has: page.locator('caption:has-text("Delivery attempts")') });
    assert.match(await attempts.innerText(), /500/);
    assert.equal(await attempts.locator('pre.excerpt').innerText(), 'receiver down for maintenance');
    assert.match(await page.locator('pre.excerpt code').innerText(), /"type": "payment\.failed"/);
    await capture(page, 'portal/delivery-failed');

    await clickAndWait(page, 'button:has-text("Retry now")');
    assert.equal(path(page), `/portal/deliveries/${failedId}`);
    const said = await page.getByRole('status').innerText();
    assert.match(said, /Queued again as a new notification/);
    const newId = (await page.getByRole('status').locator('a[href^="/portal/deliveries/"]').innerText()).trim();
    assert.notEqual(newId, failedId);
    await capture(page, 'portal/delivery-retried');

    await dispatcher.drain();
    assert.equal(hooks.received.length, 2, 'the new notification is due at once; the old one waits 30 s');
    assert.equal(hooks.received[1]!.verified.ok, true);
    assert.equal(hooks.received[1]!.body.eventId, hooks.received[0]!.body.eventId, 'the same event');

    await clickAndWait(page, `a:has-text("${newId}")`);
    const detail = await page.locator('.details').innerText();
    assert.match(detail, /DELIVERED/);
    assert.match(detail, new RegExp(`Sent again from\\s+${failedId}`));
    assert.match(await page.locator('table', { has: page.locator('caption:has-text("Delivery attempts")') }).innerText(), /200/);
    await capture(page, 'portal/delivery');

    await page.goto(`${t.baseUrl}/portal/deliveries`);
    assert.match(await page.locator('tr', { has: page.locator(`a:has-text("${newId}")`) }).innerText(), /DELIVERED/);
    assert.ok((await auditActions(partner.partnerId)).includes('notification.retried'));
  });

  it('says plainly that an expired payload is gone and cannot be sent again', async () => {
    const { partner, page } = await portalOf('Wharf Conveyancing');
    const hooks = await receiver();
    await addDestination(partner, { url: hooks.url, categories: ['PAYMENTS', 'DEED_ANALYSIS'] });
    const [paymentId] = await sendTest(partner, 'payment', 'created');
    const [deedId] = await sendTest(partner, 'deed-analysis', 'completed');
    // 33 hours on: the retention purge nulls the payload (moved on here in the database).
    await t.services.db.query('UPDATE events SET payload = NULL, payload_purged_at = now() WHERE id = (SELECT event_id FROM webhook_notifications WHERE id = $1)', [paymentId]);

    await page.goto(`${t.baseUrl}/portal/deliveries/${paymentId}`);
    assert.match(await page.locator('main').innerText(), /The payload has expired/);
    assert.equal(await page.locator('button:has-text("Retry now")').count(), 0);
    await capture(page, 'portal/delivery-expired');
    await page.goto(`${t.baseUrl}/portal/deliveries/${deedId}`);
    assert.match(await page.locator('main').innerText(), /Deed analysis results are held encrypted only until they are delivered/);
    assert.equal(await page.locator('pre.excerpt').count(), 0, 'no payload is shown');
  });

  it('shows a rotated destination secret once; a reload neither shows it nor rotates again; the next delivery verifies with it', async () => {
    const { partner, page } = await portalOf('Anchor Trust Services');
    const hooks = await receiver();
    const destination = await addDestination(partner, { url: hooks.url, categories: ['VERIFICATIONS'] });
    await page.goto(`${t.baseUrl}/portal/destinations/${destination.id}`);
    await clickAndWait(page, 'button:has-text("Rotate signing secret")');
    assert.equal(await page.locator('h1').innerText(), 'New signing secret');
    const rotated = await secretShown(page);
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, destination.secret);
    assert.match(await page.locator('.secret').innerText(), /x-signature-previous/);
    await capture(page, 'portal/destination-secret-rotated');

    // A browser sends the form again on reload: the answer shows no secret and nothing is rotated.
    await page.reload();
    assert.equal(await page.locator('h1').innerText(), 'Already rotated');
    assert.equal(await page.locator('#secret-value').count(), 0);
    assert.ok(!(await page.content()).includes('whsec_'), 'no secret on the page');
    await page.goto(`${t.baseUrl}/portal/destinations/${destination.id}`);
    assert.ok(!(await page.content()).includes('whsec_'), 'nor on the destination page');
    assert.equal((await auditActions(partner.partnerId)).filter((a) => a === 'destination.secret_rotated').length, 1, 'rotated once');

    hooks.setSecret(rotated);
    await sendTest(partner, 'verification', 'individual_passed');
    await dispatcher.drain();
    assert.equal(hooks.received.length, 1);
    const delivery = hooks.received[0]!;
    assert.equal(delivery.verified.ok, true, 'the next delivery verifies with the secret the page showed');
    const previous = createHmac('sha256', destination.secret).update(`${delivery.headers['x-timestamp']}.${delivery.rawBody}`).digest('hex');
    assert.equal(delivery.headers['x-signature-previous'], previous, 'the old secret still signs, in x-signature-previous');
  });

  it('creates an API client and rotates a client’s secret, each shown once, and the new secrets obtain tokens', async () => {
    const { partner, page } = await portalOf('Lighthouse Payroll');
    await page.goto(`${t.baseUrl}/portal/api-clients`);
    assert.match(await page.locator('table').innerText(), new RegExp(partner.clientId));
    await capture(page, 'portal/api-clients');

    await page.getByLabel('Label').fill('x'.repeat(101));
    await clickAndWait(page, 'button:has-text("Create API client")');
    assert.match(await page.getByRole('alert').innerText(), /The label must be at most 100 characters/);
    await capture(page, 'portal/api-clients-errors');

    await page.getByLabel('Label').fill('Staging server');
    await clickAndWait(page, 'button:has-text("Create API client")');
    assert.equal(await page.locator('h1').innerText(), 'API client created');
    const created = { id: (await page.locator('.details .mono').first().innerText()).trim(), secret: await secretShown(page) };
    assert.match(created.id, /^cli_/);
    assert.match(created.secret, /^pvs_secret_/);
    await capture(page, 'portal/api-client-created');
    assert.equal(await token(created.id, created.secret), 200, 'the new client obtains a token');
    await page.reload();
    assert.equal(await page.locator('h1').innerText(), 'Already created');
    assert.equal((await t.services.apiClients.list(tenantOf(partner.partnerId), { limit: 10, from: 0 })).data.length, 2, 'a reload creates no second client');

    await page.goto(`${t.baseUrl}/portal/api-clients/${partner.clientId}`);
    await capture(page, 'portal/api-client');
    await clickAndWait(page, 'button:has-text("Rotate client secret")');
    assert.equal(await page.locator('h1').innerText(), 'New client secret');
    const rotated = await secretShown(page);
    assert.notEqual(rotated, partner.clientSecret);
    await capture(page, 'portal/api-client-secret-rotated');
    assert.equal(await token(partner.clientId, rotated), 200, 'the new secret obtains a token');
    assert.equal(await token(partner.clientId, partner.clientSecret), 401, 'the old one no longer does');
    await page.reload();
    assert.equal(await page.locator('h1').innerText(), 'Already rotated');
    assert.equal(await token(partner.clientId, rotated), 200, 'a reload rotated nothing');

    await page.goto(`${t.baseUrl}/portal/api-clients/${created.id}`);
    await clickAndWait(page, 'button:has-text("Revoke API client")');
    assert.match(await page.locator('.notice-success').innerText(), /The API client is revoked/);
    assert.equal(await token(created.id, created.secret), 401);
    const actions = await auditActions(partner.partnerId);
    for (const action of ['api_client.created', 'api_client.secret_rotated', 'api_client.revoked']) assert.ok(actions.includes(action), action);
    assert.ok(!JSON.stringify(await t.services.audit.list({ partnerId: partner.partnerId }, { limit: 100, from: 0 })).includes(rotated), 'no secret in the audit log');
  });

  it('adds a destination with the keyboard alone', async () => {
    const { partner, page } = await portalOf('Keel Bookkeeping');
    const hooks = await receiver();
    await page.goto(`${t.baseUrl}/portal/destinations/new`);
    for (let i = 0; i < 30 && (await focusedId(page)) !== 'field-url'; i++) await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'field-url', 'Tab reaches the URL field');
    await page.keyboard.type(hooks.url);
    // Untick Payments (the first box) and Monitoring (the last) with Space.
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'field-categories-0');
    await page.keyboard.press('Space');
    for (let i = 1; i <= 5; i++) {
      await page.keyboard.press('Tab');
      assert.equal(await focusedId(page), `field-categories-${i}`);
    }
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Add destination');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('h1').innerText(), 'Destination added');
    assert.match(await secretShown(page), /^whsec_/);
    const [destination] = (await t.services.destinations.list(tenantOf(partner.partnerId), { limit: 10, from: 0 })).data;
    assert.equal(destination?.url, hooks.url);
    assert.deepEqual(destination?.categories, ['VERIFICATIONS', 'BUSINESS_LOOKUPS', 'CONTACT_BILLING', 'DEED_ANALYSIS']);
  });

  it('answers 404 for another partner’s destination and notification, and changes nothing of theirs', async () => {
    const other = await t.f.partner({ name: 'Other Partner' });
    const hooks = await receiver();
    const theirs = await addDestination(other, { url: hooks.url, categories: ['PAYMENTS'] });
    const [theirNotification] = await sendTest(other, 'payment', 'created');
    const { page } = await portalOf('Curious Partner');

    for (const address of [`/portal/destinations/${theirs.id}`, `/portal/deliveries/${theirNotification}`]) {
      const response = await page.goto(`${t.baseUrl}${address}`);
      assert.equal(response?.status(), 404, address);
      assert.equal(await page.locator('h1').innerText(), 'Page not found');
      assert.ok(!(await page.content()).includes(hooks.url), 'nothing of theirs is shown');
    }
    await page.goto(`${t.baseUrl}/portal/deliveries`);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    for (const action of [`/portal/destinations/${theirs.id}/rotate-secret`, `/portal/destinations/${theirs.id}/disable`, `/portal/deliveries/${theirNotification}/retry`]) {
      const response = await page.request.post(`${t.baseUrl}${action}`, { form: { _csrf: csrf, formKey: 'k'.repeat(24) }, maxRedirects: 0 });
      assert.equal(response.status(), 404, action);
    }
    const after = await t.services.destinations.get(tenantOf(other.partnerId), theirs.id);
    assert.equal(after.enabled, true, 'still enabled');
    assert.equal((await t.services.notifications.list(tenantOf(other.partnerId), { limit: 10, from: 0 })).data.length, 1, 'no retry was made');
    assert.deepEqual(await auditActions(other.partnerId), []);
  });

  it('refuses forms sent without the CSRF token, and nothing changes', async () => {
    const { partner, page } = await portalOf('Forged Requests Ltd');
    const hooks = await receiver();
    const destination = await addDestination(partner, { url: hooks.url, categories: ['PAYMENTS'] });
    const [notificationId] = await sendTest(partner, 'payment', 'created');
    await page.goto(`${t.baseUrl}/portal/destinations`);
    const before = await t.services.destinations.get(tenantOf(partner.partnerId), destination.id);

    const forged: Array<[string, Record<string, string>]> = [
      ['/portal/destinations', { url: 'https://attacker.example/hooks', categories: 'PAYMENTS' }],
      [`/portal/destinations/${destination.id}`, { url: 'https://attacker.example/hooks', categories: 'PAYMENTS', enabled: 'true' }],
      [`/portal/destinations/${destination.id}/rotate-secret`, {}],
      [`/portal/destinations/${destination.id}/disable`, {}],
      [`/portal/destinations/${destination.id}/test`, { event: 'payment:created' }],
      [`/portal/deliveries/${notificationId}/retry`, {}],
      ['/portal/api-clients', { label: 'Forged' }],
      [`/portal/api-clients/${partner.clientId}/rotate-secret`, {}],
    ];
    for (const [action, fields] of forged) {
      const refused = await postWithoutToken(page, `${t.baseUrl}${action}`, fields);
      assert.equal(refused.status, 403, action);
      assert.match(refused.body, /This form could not be accepted/);
    }
    assert.deepEqual(await t.services.destinations.get(tenantOf(partner.partnerId), destination.id), before, 'the destination is unchanged');
    assert.equal((await t.services.destinations.list(tenantOf(partner.partnerId), { limit: 10, from: 0 })).data.length, 1);
    assert.equal((await t.services.notifications.list(tenantOf(partner.partnerId), { limit: 10, from: 0 })).data.length, 1);
    assert.equal((await t.services.apiClients.list(tenantOf(partner.partnerId), { limit: 10, from: 0 })).data.length, 1);
    assert.equal(await token(partner.clientId, partner.clientSecret), 200, 'the client secret is unchanged');
    assert.deepEqual((await auditActions(partner.partnerId)).filter((a) => !a.startsWith('session.')), []);
  });
});
