// Continuous monitoring as a partner meets it: eligibility, each subscription event, coverage, alerts
// raised when a new list version names a monitored contact (never twice), decisions, the privacy rule
// on every monitoring payload, and tenancy.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createManualClock } from '../../src/platform/clock.ts';
import { createContact, runDueJobs } from '../helpers/billing.ts';
import { createTestContext, type TestContext, type TestPartner } from '../helpers/context.ts';
import { alertsOf, enable, importList, listRows, monitoringEvents, putMonitoring, subscriptionOf, type AlertBody } from '../helpers/monitoring.ts';

const clock = createManualClock(new Date('2026-11-24T09:00:00.000Z'));

/** The only fields a monitoring payload may carry (SPEC: no name, entity id, snippet, URL or raw match). */
const allowedFields = new Set(['contactId', 'product', 'monitoringAlertId', 'categories', 'status', 'coverage', 'requestedCoverage', 'observedCoverage', 'errorCode']);

describe('eligibility', () => {
  let t: TestContext;
  let partner: TestPartner;
  before(async () => {
    t = await createTestContext({ clock });
    partner = await t.f.partner();
  });
  after(() => t.close());

  it('refuses every monitoring route to a partner not eligible for it, with 403 FORBIDDEN', async () => {
    const contact = await createContact(t, partner, { name: 'Northwind Trading FZE' });
    const calls = [
      { method: 'PUT' as const, url: `/v1/contacts/${contact.id}/monitoring`, payload: { enabled: true, coverage: ['SANCTIONS'] } },
      { method: 'GET' as const, url: `/v1/contacts/${contact.id}/monitoring` },
      { method: 'GET' as const, url: '/v1/monitoring/alerts' },
      { method: 'GET' as const, url: '/v1/monitoring/alerts/mal_01JD0000000000000000000000' },
      { method: 'POST' as const, url: '/v1/monitoring/alerts/mal_01JD0000000000000000000000/decision', payload: { decision: 'FALSE_POSITIVE' } },
    ];
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: partner.headers });
      assert.equal(res.statusCode, 403, `${call.method} ${call.url}: ${res.body}`);
      assert.equal(res.json<{ code: string }>().code, 'FORBIDDEN');
    }
    assert.deepEqual(await monitoringEvents(t, partner.partnerId), []);
  });
});

describe('subscriptions', () => {
  let t: TestContext;
  let partner: TestPartner;
  before(async () => {
    t = await createTestContext({ clock });
    partner = await t.f.partner({ monitoring: true });
  });
  after(() => t.close());

  it('validates the body, each problem at its pointer', async () => {
    const contact = await createContact(t, partner);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ enabled: true }, '/coverage'],
      [{ enabled: true, coverage: [] }, '/coverage'],
      [{ enabled: true, coverage: ['SANCTIONS', 'SANCTIONS'] }, '/coverage'],
      [{ enabled: true, coverage: ['WATCHLIST'] }, '/coverage/0'],
      [{ enabled: true, coverage: ['PEP'], screenAs: 'BUSINESS', dateOfBirth: '1961-03-14' }, '/dateOfBirth'],
      [{ enabled: true, coverage: ['PEP'], screenAs: 'PERSON', dateOfBirth: '14/03/1961' }, '/dateOfBirth'],
      [{ enabled: true, coverage: ['PEP'], countries: ['Australia'] }, '/countries/0'],
      [{ enabled: 'yes', coverage: ['PEP'] }, '/enabled'],
      [{ enabled: true, coverage: ['PEP'], name: 'x' }, '/name'],
    ];
    for (const [body, pointer] of cases) {
      const res = await putMonitoring(t, partner, contact.id, body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      const problem = res.json<{ code: string; errors: Array<{ pointer: string }> }>();
      assert.equal(problem.code, 'VALIDATION_ERROR');
      assert.ok(
        problem.errors.some((e) => e.pointer === pointer),
        `${JSON.stringify(body)} should point at ${pointer}: ${res.body}`,
      );
    }
    assert.equal((await subscriptionOf(t, partner, contact.id)).status, 'DISABLED');
  });

  it('answers a never-subscribed contact as DISABLED, and 404 for a contact that is not the partner’s', async () => {
    const contact = await createContact(t, partner);
    const never = await subscriptionOf(t, partner, contact.id);
    assert.deepEqual({ enabled: never.enabled, status: never.status, coverage: never.coverage, updatedAt: never.updatedAt }, { enabled: false, status: 'DISABLED', coverage: [], updatedAt: null });
    const other = await t.f.partner({ monitoring: true });
    const res = await putMonitoring(t, other, contact.id, { enabled: true, coverage: ['SANCTIONS'] });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/contacts/${contact.id}/monitoring`, headers: other.headers })).statusCode, 404);
  });

  it('with no list loaded: PENDING, then ERROR NO_LIST_LOADED with an error event; the first import enables it', async () => {
    const contact = await createContact(t, partner, { name: 'Harbourside Bakery Pty Ltd' });
    const put = await enable(t, partner, contact.id, { coverage: ['PEP', 'SANCTIONS'] });
    assert.deepEqual({ status: put.status, coverage: put.coverage, enabled: put.enabled }, { status: 'PENDING', coverage: ['SANCTIONS', 'PEP'], enabled: true });
    await runDueJobs(t);
    const errored = await subscriptionOf(t, partner, contact.id);
    assert.deepEqual({ status: errored.status, errorCode: errored.errorCode }, { status: 'ERROR', errorCode: 'NO_LIST_LOADED' });
    assert.deepEqual(await monitoringEvents(t, partner.partnerId), [
      { type: 'monitoring.subscription.error', payload: { contactId: contact.id, product: 'SCREENING', errorCode: 'NO_LIST_LOADED' } },
    ]);

    // An entry tagged ADVERSE_MEDIA (as some OpenSanctions entries are) is not an adverse-media source.
    const version = await importList(t, [listRows.karlov, listRows.elSayed, listRows.northwind, 'fx-media,person,Quentin ADVERSARIO,,,IT,ADVERSE_MEDIA,Test media list']);
    await runDueJobs(t);
    const active = await subscriptionOf(t, partner, contact.id);
    assert.deepEqual(
      { status: active.status, errorCode: active.errorCode, listVersion: active.listVersion, observedCoverage: active.observedCoverage },
      { status: 'ACTIVE', errorCode: null, listVersion: version, observedCoverage: ['SANCTIONS', 'PEP'] },
    );
    assert.deepEqual((await monitoringEvents(t, partner.partnerId)).at(-1), {
      type: 'monitoring.subscription.enabled',
      payload: { contactId: contact.id, product: 'SCREENING', coverage: ['SANCTIONS', 'PEP'] },
    });
  });

  it('screens a contact at once when enabled: an alert for a listed business, and .enabled', async () => {
    const contact = await createContact(t, partner, { name: 'NORTHWIND TRADING F.Z.E.' });
    const before = (await monitoringEvents(t, partner.partnerId)).length;
    await enable(t, partner, contact.id, { countries: ['AE'] });
    await runDueJobs(t);
    const [alert] = await alertsOf(t, partner, `?contactId=${contact.id}`);
    assert.ok(alert, 'an alert is open');
    assert.deepEqual(
      { status: alert.status, categories: alert.categories, entry: alert.entry.entryId, decision: alert.decision },
      { status: 'OPEN', categories: ['SANCTIONS'], entry: 'fx-northwind', decision: null },
    );
    assert.deepEqual((await monitoringEvents(t, partner.partnerId)).slice(before), [
      { type: 'monitoring.subscription.enabled', payload: { contactId: contact.id, product: 'SCREENING', coverage: ['SANCTIONS', 'PEP'] } },
      { type: 'monitoring.alert.created', payload: { contactId: contact.id, product: 'SCREENING', monitoringAlertId: alert.id, categories: ['SANCTIONS'], status: 'OPEN' } },
    ]);
  });

  it('screens a person with the date of birth given, and keeps the date of birth sealed', async () => {
    const contact = await createContact(t, partner, { name: 'Boris Karlov' });
    await enable(t, partner, contact.id, { screenAs: 'PERSON', dateOfBirth: '1961-03-14', countries: ['RU'] });
    await runDueJobs(t);
    const [alert] = await alertsOf(t, partner, `?contactId=${contact.id}`);
    assert.equal(alert?.entry.entryId, 'fx-karlov');
    assert.equal(alert.score, 1, 'an exact date of birth and country lift the match');
    const subscription = await subscriptionOf(t, partner, contact.id);
    assert.deepEqual({ screenAs: subscription.screenAs, dateOfBirth: subscription.dateOfBirth }, { screenAs: 'PERSON', dateOfBirth: '1961-03-14' });
    const [stored] = await t.services.db.query<Record<string, unknown>>('SELECT * FROM monitoring_subscriptions WHERE contact_id = $1', [contact.id]);
    assert.ok(!JSON.stringify(stored).includes('1961-03-14'), 'the date of birth is stored sealed');
  });

  it('asks for ADVERSE_MEDIA: coverage_mismatch with what is requested and observed', async () => {
    const contact = await createContact(t, partner, { name: 'Quokka Accounting Services' });
    const before = (await monitoringEvents(t, partner.partnerId)).length;
    await enable(t, partner, contact.id, { coverage: ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'] });
    await runDueJobs(t);
    assert.deepEqual((await monitoringEvents(t, partner.partnerId)).slice(before), [
      { type: 'monitoring.subscription.enabled', payload: { contactId: contact.id, product: 'SCREENING', coverage: ['SANCTIONS', 'PEP'] } },
      {
        type: 'monitoring.subscription.coverage_mismatch',
        payload: { contactId: contact.id, product: 'SCREENING', requestedCoverage: ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA'], observedCoverage: ['SANCTIONS', 'PEP'] },
      },
    ]);
    assert.deepEqual((await subscriptionOf(t, partner, contact.id)).observedCoverage, ['SANCTIONS', 'PEP']);
  });

  it('sends nothing for the same settings again, and .disabled once when switched off', async () => {
    const contact = await createContact(t, partner, { name: 'Tranquil Waters Dental' });
    await enable(t, partner, contact.id);
    await runDueJobs(t);
    const before = (await monitoringEvents(t, partner.partnerId)).length;
    const again = await enable(t, partner, contact.id, { coverage: ['PEP', 'SANCTIONS'] });
    assert.equal(again.status, 'ACTIVE');
    assert.equal(await runDueJobs(t), 0, 'no screening queued');
    const off = await putMonitoring(t, partner, contact.id, { enabled: false });
    assert.equal(off.statusCode, 200, off.body);
    assert.deepEqual({ enabled: off.json().enabled, status: off.json().status }, { enabled: false, status: 'DISABLED' });
    assert.equal((await putMonitoring(t, partner, contact.id, { enabled: false })).statusCode, 200);
    assert.deepEqual((await monitoringEvents(t, partner.partnerId)).slice(before), [
      { type: 'monitoring.subscription.disabled', payload: { contactId: contact.id, product: 'SCREENING' } },
    ]);
  });

  it('stops monitoring an archived contact (.disabled), and will not enable one', async () => {
    const contact = await createContact(t, partner, { name: 'Bilby Freight Co' });
    await enable(t, partner, contact.id);
    await runDueJobs(t);
    const before = (await monitoringEvents(t, partner.partnerId)).length;
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${contact.id}`, headers: partner.headers })).statusCode, 200);
    assert.deepEqual((await monitoringEvents(t, partner.partnerId)).slice(before), [
      { type: 'monitoring.subscription.disabled', payload: { contactId: contact.id, product: 'SCREENING' } },
    ]);
    const res = await putMonitoring(t, partner, contact.id, { enabled: true, coverage: ['SANCTIONS'] });
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json<{ code: string }>().code, 'INVALID_STATE');
  });

  it('screens a renamed contact again, against the whole list', async () => {
    const contact = await createContact(t, partner, { name: 'Emu Parade Cafe' });
    await enable(t, partner, contact.id);
    await runDueJobs(t);
    assert.deepEqual(await alertsOf(t, partner, `?contactId=${contact.id}`), []);
    const renamed = await t.app.inject({ method: 'PATCH', url: `/v1/contacts/${contact.id}`, headers: partner.headers, payload: { name: 'Amira El Sayed' } });
    assert.equal(renamed.statusCode, 200, renamed.body);
    await enable(t, partner, contact.id, { screenAs: 'PERSON' });
    await runDueJobs(t);
    const alerts = await alertsOf(t, partner, `?contactId=${contact.id}`);
    assert.deepEqual(
      alerts.map((a) => [a.entry.entryId, a.categories]),
      [['fx-el-sayed', ['PEP']]],
    );
  });
});

describe('alerts on list changes', () => {
  let t: TestContext;
  let partner: TestPartner;
  let other: TestPartner;
  let dunmore: string;
  let quiet: string;
  before(async () => {
    t = await createTestContext({ clock });
    partner = await t.f.partner({ monitoring: true });
    other = await t.f.partner({ monitoring: true });
    await importList(t, [listRows.karlov, listRows.elSayed, listRows.unrelated]);
    dunmore = (await createContact(t, partner, { name: 'Dunmore Shipping Holdings Pty Ltd' })).id;
    quiet = (await createContact(t, partner, { name: 'Wombat Hollow Vineyards' })).id;
    await enable(t, partner, dunmore);
    await enable(t, partner, quiet);
    await runDueJobs(t);
  });
  after(() => t.close());

  it('raises monitoring.alert.created when a new version adds an entry naming a monitored contact', async () => {
    assert.deepEqual(await alertsOf(t, partner), [], 'clear before');
    const before = (await monitoringEvents(t, partner.partnerId)).length;
    const version = await importList(t, [listRows.karlov, listRows.elSayed, listRows.unrelated, listRows.dunmore]);
    await runDueJobs(t);
    const alerts = await alertsOf(t, partner);
    assert.equal(alerts.length, 1);
    const [alert] = alerts as [AlertBody];
    assert.deepEqual(
      { contactId: alert.contactId, entry: alert.entry.entryId, listVersion: alert.listVersion, status: alert.status },
      { contactId: dunmore, entry: 'fx-dunmore', listVersion: version, status: 'OPEN' },
    );
    assert.deepEqual((await monitoringEvents(t, partner.partnerId)).slice(before), [
      { type: 'monitoring.alert.created', payload: { contactId: dunmore, product: 'SCREENING', monitoringAlertId: alert.id, categories: ['SANCTIONS'], status: 'OPEN' } },
    ]);
    const [progress] = await t.services.db.query<{ screened: number; finished_at: Date | null }>('SELECT screened, finished_at FROM monitoring_rescreens WHERE version = $1', [version]);
    assert.equal(progress?.screened, 2);
    assert.ok(progress?.finished_at);
  });

  it('gives the match detail a partner needs to decide', async () => {
    const [summary] = await alertsOf(t, partner);
    const res = await t.app.inject({ method: 'GET', url: `/v1/monitoring/alerts/${summary!.id}`, headers: partner.headers });
    assert.equal(res.statusCode, 200, res.body);
    const alert = res.json<AlertBody & { features: Record<string, unknown> }>();
    assert.deepEqual(alert.entry, {
      list: 'watch',
      entryId: 'fx-dunmore',
      kind: 'business',
      name: 'Dunmore Shipping Holdings LLC',
      aliases: ['Данмор Шиппинг Холдингс'],
      datesOfBirth: [],
      countries: ['RU'],
      categories: ['SANCTIONS'],
      source: 'Test sanctions',
    });
    assert.ok(alert.score >= 0.8 && alert.score <= 1);
    assert.equal(typeof alert.features.nameScore, 'number');
  });

  it('never raises the same contact and entry twice: the entry changed in a later version, and the same file again', async () => {
    const changed = listRows.dunmore.replace('Данмор Шиппинг Холдингс', 'Dunmore Shipping;Данмор Шиппинг Холдингс');
    await importList(t, [listRows.karlov, listRows.elSayed, listRows.unrelated, changed]);
    await runDueJobs(t);
    await importList(t, [listRows.karlov, listRows.elSayed, listRows.unrelated, changed, listRows.northwind]);
    await runDueJobs(t);
    assert.equal((await alertsOf(t, partner)).length, 1);
    const created = (await monitoringEvents(t, partner.partnerId)).filter((e) => e.type === 'monitoring.alert.created');
    assert.equal(created.length, 1);
  });

  it('decides an alert once: CONFIRMED with .updated, then 409; FALSE_POSITIVE dismisses another', async () => {
    const [alert] = (await alertsOf(t, partner)) as [AlertBody];
    const decide = (id: string, body: Record<string, unknown>, who = partner) =>
      t.app.inject({ method: 'POST', url: `/v1/monitoring/alerts/${id}/decision`, headers: who.headers, payload: body });
    assert.equal((await decide(alert.id, { decision: 'MAYBE' })).statusCode, 400);
    assert.equal((await decide(alert.id, { decision: 'TRUE_MATCH' }, other)).statusCode, 404, 'another partner’s alert is not found');
    const before = (await monitoringEvents(t, partner.partnerId)).length;
    const res = await decide(alert.id, { decision: 'TRUE_MATCH', note: 'Same company: matched on the Russian registry extract.' });
    assert.equal(res.statusCode, 200, res.body);
    const decided = res.json<AlertBody>();
    assert.equal(decided.status, 'CONFIRMED');
    assert.deepEqual(
      { decision: decided.decision?.decision, note: decided.decision?.note, decidedBy: decided.decision?.decidedBy },
      { decision: 'TRUE_MATCH', note: 'Same company: matched on the Russian registry extract.', decidedBy: 'PARTNER' },
    );
    const again = await decide(alert.id, { decision: 'FALSE_POSITIVE' });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json<{ code: string }>().code, 'INVALID_STATE');
    assert.deepEqual((await monitoringEvents(t, partner.partnerId)).slice(before), [
      { type: 'monitoring.alert.updated', payload: { contactId: dunmore, product: 'SCREENING', monitoringAlertId: alert.id, categories: ['SANCTIONS'], status: 'CONFIRMED' } },
    ]);

    const karlov = (await createContact(t, partner, { name: 'Boris Karlof' })).id;
    await enable(t, partner, karlov, { screenAs: 'PERSON' });
    await runDueJobs(t);
    const [second] = await alertsOf(t, partner, `?contactId=${karlov}`);
    const dismissed = await decide(second!.id, { decision: 'FALSE_POSITIVE' });
    assert.equal(dismissed.json<AlertBody>().status, 'DISMISSED');
    assert.deepEqual(
      (await alertsOf(t, partner, '?status=OPEN')).map((a) => a.id),
      [],
    );
    assert.deepEqual(
      (await alertsOf(t, partner, '?status=DISMISSED')).map((a) => a.id),
      [second!.id],
    );
  });

  it('keeps each partner’s alerts apart', async () => {
    assert.deepEqual(await alertsOf(t, other), []);
    const [alert] = await alertsOf(t, partner);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/monitoring/alerts/${alert!.id}`, headers: other.headers })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/monitoring/alerts?contactId=${dunmore}`, headers: other.headers })).json<{ data: unknown[] }>().data.length, 0);
  });

  it('sends coverage_mismatch when a category a subscription relies on disappears, and .enabled when it returns', async () => {
    const before = (await monitoringEvents(t, partner.partnerId)).length;
    // The PEP entry leaves the list: nothing PEP is screened any more.
    await importList(t, [listRows.karlov, listRows.unrelated]);
    await runDueJobs(t);
    const events = (await monitoringEvents(t, partner.partnerId)).slice(before);
    const mismatches = events.filter((e) => e.type === 'monitoring.subscription.coverage_mismatch');
    assert.deepEqual(
      mismatches.find((e) => e.payload.contactId === quiet),
      { type: 'monitoring.subscription.coverage_mismatch', payload: { contactId: quiet, product: 'SCREENING', requestedCoverage: ['SANCTIONS', 'PEP'], observedCoverage: ['SANCTIONS'] } },
    );
    assert.equal((await subscriptionOf(t, partner, quiet)).status, 'ACTIVE', 'still monitored for what can be covered');

    const back = (await monitoringEvents(t, partner.partnerId)).length;
    await importList(t, [listRows.karlov, listRows.unrelated, listRows.elSayed]);
    await runDueJobs(t);
    const restored = (await monitoringEvents(t, partner.partnerId)).slice(back).find((e) => e.payload.contactId === quiet);
    assert.deepEqual(restored, { type: 'monitoring.subscription.enabled', payload: { contactId: quiet, product: 'SCREENING', coverage: ['SANCTIONS', 'PEP'] } });
  });

  it('puts subscriptions in ERROR when a re-screen cannot run, and enables them again when it recovers', async () => {
    const before = (await monitoringEvents(t, partner.partnerId)).length;
    const monitored = (await t.services.db.query<{ contact_id: string }>('SELECT contact_id FROM monitoring_subscriptions WHERE partner_id = $1 AND enabled', [partner.partnerId])).map(
      (r) => r.contact_id,
    );
    assert.equal(monitored.length, 3);
    let version: number;
    try {
      // The version is made, then its entries cannot be read when the re-screen loads them.
      version = await importList(t, [listRows.karlov, listRows.unrelated, listRows.elSayed, listRows.northwind]);
      await t.services.db.query('ALTER TABLE screening_entries RENAME TO screening_entries_away');
      await runDueJobs(t);
    } finally {
      await t.services.db.query('ALTER TABLE IF EXISTS screening_entries_away RENAME TO screening_entries');
    }
    const errors = (await monitoringEvents(t, partner.partnerId)).slice(before);
    assert.deepEqual(
      errors.map((e) => [e.type, e.payload.contactId, e.payload.errorCode]).sort(),
      monitored.sort().map((id) => ['monitoring.subscription.error', id, 'SCREENING_FAILED']),
    );
    assert.equal((await subscriptionOf(t, partner, quiet)).status, 'ERROR');
    assert.ok(t.logText().includes('monitoring screening failed'));

    // The job is retried after its backoff.
    clock.advance(31_000);
    await runDueJobs(t);
    const recovered = (await monitoringEvents(t, partner.partnerId)).slice(before + errors.length);
    assert.deepEqual(
      recovered.filter((e) => e.type === 'monitoring.subscription.enabled').map((e) => e.payload.contactId).sort(),
      monitored.sort(),
    );
    const subscription = await subscriptionOf(t, partner, quiet);
    assert.deepEqual({ status: subscription.status, listVersion: subscription.listVersion }, { status: 'ACTIVE', listVersion: version });
  });

  it('carries nothing but the allowed fields in any monitoring payload, and reaches only eligible partners', async () => {
    const events = await t.services.db.query<{ type: string; payload: Record<string, unknown> }>("SELECT type, payload FROM events WHERE type LIKE 'monitoring.%'");
    assert.ok(events.length >= 8);
    const types = new Set(events.map((e) => e.type));
    for (const type of ['monitoring.alert.created', 'monitoring.alert.updated', 'monitoring.subscription.enabled', 'monitoring.subscription.coverage_mismatch', 'monitoring.subscription.error']) {
      assert.ok(types.has(type), `${type} was raised`);
    }
    for (const event of events) {
      for (const key of Object.keys(event.payload)) assert.ok(allowedFields.has(key), `${event.type} carries ${key}`);
      const text = JSON.stringify(event.payload).toLowerCase();
      for (const forbidden of ['dunmore', 'karlov', 'karlof', 'el-sayed', 'fx-', 'northwind', 'http', 'wombat']) assert.ok(!text.includes(forbidden), `${event.type} carries "${forbidden}"`);
    }
  });

  it('raises an alert for a person monitored under another transliteration of a newly listed name', async () => {
    const contact = (await createContact(t, partner, { name: 'Elena Mordvintseva' })).id;
    await enable(t, partner, contact, { screenAs: 'PERSON', countries: ['RU'] });
    await runDueJobs(t);
    assert.deepEqual(await alertsOf(t, partner, `?contactId=${contact}`), []);
    // Listed in Cyrillic only: the contact's Latin name is a transliteration of it.
    await importList(t, [listRows.karlov, listRows.elSayed, listRows.unrelated, listRows.dunmore, 'fx-mordvintseva,person,Елена Викторовна Мордвинцева,,1972-11-05,RU,SANCTIONS,Test sanctions']);
    await runDueJobs(t);
    const alerts = await alertsOf(t, partner, `?contactId=${contact}`);
    assert.deepEqual(
      alerts.map((a) => a.entry.entryId),
      ['fx-mordvintseva'],
    );
  });
});
