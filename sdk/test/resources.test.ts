// Every namespace of the client against the real app over HTTP, on PGlite or PostgreSQL
// (TEST_DATABASE): the paths, verbs and bodies the client sends are the ones PVS serves, and the
// answers come back as PVS gives them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestPartner } from '../../test/helpers/context.ts';
import { runDueJobs } from '../../test/helpers/billing.ts';
import { tinyPdf } from '../../test/helpers/tiny-pdf.ts';
import { NotFoundError, PageList, type Pvs } from '../src/index.ts';
import { clientFor, serve, type Served } from './helpers.ts';

let served: Served;
let partner: TestPartner;
let pvs: Pvs;

before(async () => {
  served = await serve();
  partner = await served.t.f.partner({ monitoring: true });
  pvs = clientFor(served, partner);
});
after(() => served.close());

describe('the client, namespace by namespace, against PVS', () => {
  it('channelPartners.me and apiClients: who the credentials are', async () => {
    const me = await pvs.channelPartners.me();
    assert.equal(me.id, partner.partnerId);
    assert.equal(me.monitoringEligible, true);
    const clients = await pvs.apiClients.list();
    assert.ok(clients.data.some((c) => c.id === partner.clientId));
    assert.equal((await pvs.apiClients.retrieve(partner.clientId)).id, partner.clientId);
  });

  it('businessLookups: create, retrieve once settled, registry, ownership, list', async () => {
    const { lookupRequestId } = await pvs.businessLookups.create({ abn: '54 222 222 228' });
    assert.match(lookupRequestId, /^lkp_/);
    await runDueJobs(served.t);
    const lookup = await pvs.businessLookups.retrieve(lookupRequestId);
    assert.equal(lookup.status, 'COMPLETED');
    assert.equal((await pvs.businessLookups.registry(lookupRequestId)).lookupRequestId ?? lookupRequestId, lookupRequestId);
    const ownership = await pvs.businessLookups.ownership(lookupRequestId);
    assert.ok(ownership, 'the ownership answer');
    const list = pvs.businessLookups.list({ status: 'COMPLETED' });
    assert.ok(list instanceof PageList);
    assert.deepEqual((await list).data.map((l) => l.lookupRequestId), [lookupRequestId]);
  });

  it('verifications: create from a lookup, list, add someone, mint links, evidence reads and reports', async () => {
    const { lookupRequestId } = await pvs.businessLookups.create({ abn: '54 222 222 228' });
    await runDueJobs(served.t);
    const lookup = await pvs.businessLookups.retrieve(lookupRequestId);
    const created = await pvs.verifications.create({ mode: 'AUSTRAC_CDD', lookupRequestId, individuals: lookup.individuals.slice(0, 1).map((i) => ({ idvEntityId: i.idvEntityId })) });
    assert.match(created.id, /^ver_/);
    assert.equal((await pvs.verifications.retrieve(created.id)).id, created.id);
    assert.ok((await pvs.verifications.list({ lookupRequestId })).data.some((v) => v.id === created.id));

    const added = await pvs.verifications.addIndividual(created.id, { role: 'DIRECTOR', externalId: 'client-42' });
    assert.equal(added.externalId, 'client-42');

    const links = await pvs.verifications.mintLinks(created.id, { individualIds: [added.id] });
    assert.deepEqual(links.individuals.map((i) => i.id), [added.id]);
    assert.match(links.individuals[0]!.verificationUrl, /\/v\//);

    const individualId = created.individuals[0]!.id;
    const details = await pvs.verifications.documentDetails(created.id, individualId, { includeScans: false });
    assert.equal(typeof details.status, 'string');
    const matches = await pvs.verifications.amlMatches(created.id, individualId);
    assert.equal(typeof matches.status, 'string');

    const report = await pvs.verifications.report(created.id);
    assert.match(report.url, /report\.pdf\?/);
    const individualReport = await pvs.verifications.individualReport(created.id, individualId);
    assert.match(individualReport.url, /report\.pdf\?/);
  });

  it('verifications.confirmStructure: a hand-built request moves from UBO_REVIEW to READY_TO_SEND', async () => {
    const created = await pvs.verifications.create({ mode: 'AUSTRAC_CDD', entityName: 'Sole Co', individuals: [{ role: 'DIRECTOR' }] });
    assert.equal(created.status, 'UBO_REVIEW');
    const confirmed = await pvs.verifications.confirmStructure(created.id, { confirmed: true });
    assert.equal(confirmed.status, 'READY_TO_SEND');
    assert.equal(confirmed.structureConfirmed, true);
  });

  it('deedAnalyses: create, uploadPdf to the signed URL with its headers, start, retrieve, list, discard', async () => {
    const created = await pvs.deedAnalyses.create();
    assert.equal(created.deedAnalysis.status, 'AWAITING_UPLOAD');
    await pvs.deedAnalyses.uploadPdf(created.upload, tinyPdf());
    const started = await pvs.deedAnalyses.start(created.deedAnalysis.id);
    assert.equal(started.deedAnalysis.status, 'PROCESSING');
    assert.equal((await pvs.deedAnalyses.retrieve(created.deedAnalysis.id)).id, created.deedAnalysis.id);
    assert.ok((await pvs.deedAnalyses.list()).data.some((d) => d.id === created.deedAnalysis.id));

    const other = await pvs.deedAnalyses.create();
    assert.equal((await pvs.deedAnalyses.discard(other.deedAnalysis.id)).status, 'DISCARDED');
    assert.equal((await pvs.deedAnalyses.retrieve(other.deedAnalysis.id)).status, 'DISCARDED');
  });

  it('deedAnalyses.uploadPdf: a changed header is refused by storage, as a typed error', async () => {
    const created = await pvs.deedAnalyses.create();
    const tampered = { ...created.upload, headers: { ...created.upload.headers, 'x-pvs-upload-id': 'dda_someone_else' } };
    await assert.rejects(pvs.deedAnalyses.uploadPdf(tampered, tinyPdf()), (error: { status?: number }) => error.status !== undefined && error.status >= 400);
  });

  it('contacts: create, retrieve, update, list, card link, monitoring, archive', async () => {
    const contact = await pvs.contacts.create({ name: 'Harbour Bookkeeping Pty Ltd', externalId: 'crm-7' });
    assert.match(contact.id, /^con_/);
    assert.equal((await pvs.contacts.retrieve(contact.id)).name, 'Harbour Bookkeeping Pty Ltd');
    assert.equal((await pvs.contacts.update(contact.id, { email: 'accounts@harbour.example' })).email, 'accounts@harbour.example');
    assert.deepEqual((await pvs.contacts.list({ externalId: 'crm-7' })).data.map((c) => c.id), [contact.id]);
    const link = await pvs.contacts.createCardLink(contact.id);
    assert.ok(link.url);
    const monitoring = await pvs.contacts.monitoring.update(contact.id, { enabled: true, coverage: ['SANCTIONS', 'PEP'] });
    assert.equal(monitoring.enabled, true);
    assert.equal((await pvs.contacts.monitoring.retrieve(contact.id)).contactId, contact.id);
    await pvs.contacts.archive(contact.id);
  });

  it('charges and monitoring alerts: lists and a miss', async () => {
    assert.ok(Array.isArray((await pvs.charges.list()).data));
    await assert.rejects(pvs.charges.retrieve('chg_01JD0000000000000000000000'), NotFoundError);
    assert.ok(Array.isArray((await pvs.monitoring.alerts.list({ status: 'OPEN' })).data));
    await assert.rejects(pvs.monitoring.alerts.retrieve('mal_01JD0000000000000000000000'), NotFoundError);
  });

  it('payments: create, retrieve, list, regenerate the link, cancel', async () => {
    const payment = await pvs.payments.create({ amount: 125_000, prn: '551234567890123' });
    assert.match(payment.id, /^pay_/);
    assert.equal((await pvs.payments.retrieve(payment.id)).amount, 125_000);
    assert.ok((await pvs.payments.list()).data.some((p) => p.id === payment.id));
    const relinked = await pvs.payments.regenerateLink(payment.id);
    assert.equal(relinked.id, payment.id);
    assert.equal((await pvs.payments.cancel(payment.id)).status, 'CANCELLED');
  });

  it('webhookDestinations and webhookNotifications: add, read, change, test event, history, retry, rotate, delete', async () => {
    const destination = await pvs.webhookDestinations.create({ url: 'http://127.0.0.1:9/hooks', categories: ['VERIFICATIONS'] });
    assert.match(destination.secret ?? '', /^whsec_/);
    assert.equal((await pvs.webhookDestinations.retrieve(destination.id)).url, 'http://127.0.0.1:9/hooks');
    assert.ok((await pvs.webhookDestinations.list()).data.some((d) => d.id === destination.id));
    assert.deepEqual((await pvs.webhookDestinations.update(destination.id, { categories: ['VERIFICATIONS', 'PAYMENTS'] })).categories, ['VERIFICATIONS', 'PAYMENTS']);

    const sent = await pvs.webhookNotifications.sendTest({ type: 'verification', variant: 'individual_passed' });
    const notification = sent.data[0]!;
    assert.equal(notification.type, 'verification.individual.passed');
    assert.equal((await pvs.webhookNotifications.retrieve(notification.id)).id, notification.id);
    assert.ok((await pvs.webhookNotifications.list({ type: 'verification.individual.passed' })).data.some((n) => n.id === notification.id));
    const retried = await pvs.webhookNotifications.retry(notification.id);
    assert.equal(retried.data[0]!.retryOf, notification.id);

    const rotated = await pvs.webhookDestinations.rotateSecret(destination.id);
    assert.notEqual(rotated.secret, destination.secret);
    await pvs.webhookDestinations.delete(destination.id);
    await assert.rejects(pvs.webhookDestinations.retrieve(destination.id), NotFoundError);
  });

  it('webhookNotifications.retrieveForPayment: a payment\'s notification, else 404', async () => {
    const payment = await pvs.payments.create({ amount: 1_000, prn: '551234567890123' });
    await assert.rejects(pvs.webhookNotifications.retrieveForPayment(payment.id, 'whn_01JD0000000000000000000000'), NotFoundError);
  });
});
