// A subscription that does not say screenAs screens the contact's name against people and businesses
// alike (decision 127): a person named on a list is never missed because nobody said the contact was a
// person. Migration 0019 moves the subscriptions that screened as BUSINESS by default to ANY and screens
// each once against the current list: alerts for what they missed, none twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sandboxScreeningFixture } from '../../src/cli/serve.ts';
import { screenContactJob } from '../../src/modules/monitoring/monitoring.jobs.ts';
import { readMigrations } from '../../src/platform/db/migrate.ts';
import { createContact, runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { alertsOf, enable, importList, listRows, monitoringEvents, subscriptionOf } from '../helpers/monitoring.ts';
import { webhookHarness } from '../fixtures/webhook-helpers.ts';

describe('screenAs not said: people and businesses alike', () => {
  let t: TestContext;
  let partner: TestPartner;
  before(async () => {
    t = await createTestContext();
    partner = await t.f.partner({ monitoring: true });
    await importList(t, [listRows.karlov, listRows.elSayed, listRows.northwind, listRows.unrelated]);
  });
  after(() => t.close());

  it('a contact named as a person, enabled with CONTRACT §11’s body, is alerted by a person entry, and reads back ANY', async () => {
    const contact = await createContact(t, partner, { name: 'Amira Hassan El-Sayed' });
    const put = await enable(t, partner, contact.id, { coverage: ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'] });
    assert.equal(put.screenAs, 'ANY');
    await runDueJobs(t);
    const alerts = await alertsOf(t, partner, `?contactId=${contact.id}`);
    assert.deepEqual(
      alerts.map((a) => ({ entry: a.entry.entryId, categories: a.categories })),
      [{ entry: 'fx-el-sayed', categories: ['PEP'] }],
    );
    assert.equal((await subscriptionOf(t, partner, contact.id)).screenAs, 'ANY');
  });

  it('a contact named as a business is alerted by a business entry, as before', async () => {
    const contact = await createContact(t, partner, { name: 'Northwind Trading FZE' });
    await enable(t, partner, contact.id);
    await runDueJobs(t);
    assert.deepEqual((await alertsOf(t, partner, `?contactId=${contact.id}`)).map((a) => a.entry.entryId), ['fx-northwind']);
  });

  it('a name that says it is a business’s (legal form, entity word, ampersand) meets business entries only', async () => {
    for (const name of ['Boris Karlov Pty Ltd', 'Karlov & Sons', 'Boris Karlov Family Trust']) {
      const contact = await createContact(t, partner, { name });
      await enable(t, partner, contact.id);
      await runDueJobs(t);
      assert.deepEqual(await alertsOf(t, partner, `?contactId=${contact.id}`), [], name);
      assert.equal((await subscriptionOf(t, partner, contact.id)).status, 'ACTIVE', name);
    }
  });

  it('BUSINESS still narrows it: a person-named contact screened as a business is not alerted by a person entry', async () => {
    const contact = await createContact(t, partner, { name: 'Boris Ivanovich Karlov' });
    await enable(t, partner, contact.id, { screenAs: 'BUSINESS' });
    await runDueJobs(t);
    assert.deepEqual(await alertsOf(t, partner, `?contactId=${contact.id}`), []);
    assert.equal((await subscriptionOf(t, partner, contact.id)).status, 'ACTIVE');
  });

  it('a date of birth may be given without screenAs (it weighs on person entries only), and not with BUSINESS', async () => {
    const contact = await createContact(t, partner, { name: 'Boris Karlov' });
    const put = await enable(t, partner, contact.id, { dateOfBirth: '1961-03-14' });
    assert.deepEqual({ screenAs: put.screenAs, dateOfBirth: put.dateOfBirth }, { screenAs: 'ANY', dateOfBirth: '1961-03-14' });
    await runDueJobs(t);
    assert.deepEqual((await alertsOf(t, partner, `?contactId=${contact.id}`)).map((a) => a.entry.entryId), ['fx-karlov']);
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/v1/contacts/${contact.id}/monitoring`,
      headers: partner.headers,
      payload: { enabled: true, coverage: ['SANCTIONS'], screenAs: 'BUSINESS', dateOfBirth: '1961-03-14' },
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.deepEqual(refused.json<{ errors: Array<{ pointer: string }> }>().errors.map((e) => e.pointer), ['/dateOfBirth']);
  });
});

describe('migration 0019: subscriptions that screened as BUSINESS by default', () => {
  let t: TestContext;
  let partner: TestPartner;
  before(async () => {
    t = await createTestContext();
    partner = await t.f.partner({ monitoring: true });
    await importList(t, [listRows.karlov, listRows.elSayed, listRows.unrelated]);
  });
  after(() => t.close());

  it('become ANY and are screened once against the current list: the missed person alerted, never twice', async () => {
    // As before decision 127: enabled without screenAs, screened as a business, no alert for a person entry.
    const missed = await createContact(t, partner, { name: 'Amira Hassan EL-SAYED' });
    const chose = await createContact(t, partner, { name: 'Zoltan Quibbleworth' });
    await enable(t, partner, missed.id, { screenAs: 'BUSINESS' });
    await enable(t, partner, chose.id, { screenAs: 'PERSON' });
    await runDueJobs(t);
    assert.deepEqual(await alertsOf(t, partner, `?contactId=${missed.id}`), []);
    const alertsBefore = (await alertsOf(t, partner)).length;
    assert.equal(alertsBefore, 1, 'the PERSON subscription was alerted already');

    const migration = readMigrations().find((m) => m.version === 19)!;
    await t.services.db.transaction((tx) => tx.exec(migration.sql));
    assert.equal((await subscriptionOf(t, partner, missed.id)).screenAs, 'ANY');
    assert.equal((await subscriptionOf(t, partner, chose.id)).screenAs, 'PERSON', 'a subscription that said PERSON is left as it is');
    await runDueJobs(t);

    const alerts = await alertsOf(t, partner, `?contactId=${missed.id}`);
    assert.deepEqual(alerts.map((a) => a.entry.entryId), ['fx-el-sayed']);
    const created = (await monitoringEvents(t, partner.partnerId)).filter((e) => e.type === 'monitoring.alert.created');
    assert.equal(created.length, 2, 'one alert event for the PERSON subscription, one for the migrated one');

    // Another screening of the same version (a re-screen job, a new screen-contact) raises nothing twice.
    const version = (await t.services.screening.status()).version!;
    await t.services.db.query("UPDATE monitoring_subscriptions SET screened_subject = 'changed' WHERE contact_id = $1", [missed.id]);
    await t.services.db.transaction((tx) => t.services.queue.enqueue(tx, screenContactJob, { contactId: missed.id }));
    await runDueJobs(t);
    assert.equal((await alertsOf(t, partner)).length, alertsBefore + 1);
    assert.equal((await subscriptionOf(t, partner, missed.id)).listVersion, version);
  });
});

describe('the fixture PEP, end to end', () => {
  it('enabled with CONTRACT §11’s body, the sandbox list’s Amira Hassan EL-SAYED reaches a signature-checking receiver as monitoring.alert.created', async (nodeTest) => {
    const h = await webhookHarness(nodeTest);
    await h.ctx.services.screening.importList({ format: 'opensanctions', filePath: sandboxScreeningFixture, list: 'sandbox-fixture' });
    const partner = await h.ctx.f.partner({ monitoring: true });
    const receiver = await h.receiver();
    const destination = await h.addDestination(partner, { url: receiver.url, categories: ['MONITORING'] });
    receiver.setSecret(destination.secret);
    const contact = await createContact(h.ctx, partner, { name: 'Amira Hassan EL-SAYED' });
    const res = await h.ctx.app.inject({
      method: 'PUT',
      url: `/v1/contacts/${contact.id}/monitoring`,
      headers: await h.headers(partner),
      payload: { enabled: true, coverage: ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'] },
    });
    assert.equal(res.statusCode, 200, res.body);
    await runDueJobs(h.ctx);
    await h.drain();
    const alert = receiver.received.find((d) => d.body.type === 'monitoring.alert.created');
    assert.ok(alert, `received: ${receiver.received.map((d) => d.body.type).join(', ')}`);
    assert.equal(alert.verified.ok, true, 'the delivery verifies with the destination’s secret');
    assert.deepEqual({ contactId: alert.body.contactId, categories: alert.body.categories, status: alert.body.status }, { contactId: contact.id, categories: ['PEP'], status: 'OPEN' });
  });
});
