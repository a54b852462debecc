// The Onfido stand-in (test/helpers/onfido-stand-in) driven by Onfido's own client, @onfido/api: the
// flow PVS runs (applicant, document front and back, live photo, check, reports), each scenario by last
// name, the signed check.completed webhook as WebhookEventVerifier reads it, the refusals Onfido
// documents, authentication, outages, deletion, and what the spec validation catches. The main stand-in
// must see nothing against the spec from start to end.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Configuration, DefaultApi, FileTransfer, OnfidoInvalidSignatureError, Region, WebhookEventVerifier, type DocumentTypes } from '@onfido/api';
import sharp from 'sharp';
import { sampleJpeg, samplePng } from './fixtures/images.ts';
import { startOnfidoStandIn, type OnfidoStandIn } from './helpers/onfido-stand-in/index.ts';
import { loadSpec } from './helpers/onfido-stand-in/spec.ts';
import { specValidator } from './helpers/onfido-stand-in/spec-validator.ts';

let standIn: OnfidoStandIn;
let api: DefaultApi;
let flatPng: Buffer;

before(async () => {
  standIn = await startOnfidoStandIn({ completeAfterMs: 100 });
  api = clientFor(standIn);
  flatPng = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 200, b: 200 } } }).png().toBuffer();
});
after(() => standIn.close());

function clientFor(s: OnfidoStandIn, apiToken = s.apiToken) {
  return new DefaultApi(new Configuration({ apiToken, region: Region.EU, basePath: s.url }));
}

/** A value down a dotted path of an answer (`breakdown.face_comparison.result`). */
function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}

/** The status and body of a refused call (@onfido/api throws axios's error). */
async function refusal(call: Promise<unknown>): Promise<{ status: number; data: unknown }> {
  const error = await call.then(
    () => assert.fail('expected the call to be refused'),
    (e: unknown) => e as { response?: { status: number; data: unknown } },
  );
  assert.ok(error.response, `no HTTP answer: ${String(error)}`);
  return error.response;
}

async function person(lastName: string, client = api) {
  const address = { building_number: '1', street: 'George Street', town: 'Sydney', postcode: '2000', country: 'AUS' as const };
  return (await client.createApplicant({ first_name: 'Ada', last_name: lastName, dob: '1990-02-03', address })).data;
}

async function completedCheck(lastName: string, tags: string[] = []) {
  const applicant = await person(lastName);
  const front = (await api.uploadDocument('passport', applicant.id, new FileTransfer(sampleJpeg(), 'front.jpg'), undefined, 'front', 'AUS')).data;
  await api.uploadLivePhoto(applicant.id, new FileTransfer(samplePng(), 'selfie.png'), true);
  const created = (await api.createCheck({ applicant_id: applicant.id, report_names: ['document', 'facial_similarity_photo', 'identity_enhanced'], tags })).data;
  const check = await until(created.id, 'complete');
  const reports = (await api.listReports(check.id)).data.reports;
  const report = (name: string) => reports.find((r) => r.name === name)!;
  return { applicant, front, created, check, reports, report };
}

async function until(checkId: string, status: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const check = (await api.findCheck(checkId)).data;
    if (check.status === status) return check;
    if (Date.now() > deadline) assert.fail(`check still ${check.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('onfido stand-in: the flow PVS runs', () => {
  it('takes an applicant, both sides of a document and a live photo, and completes a tagged check', async () => {
    const applicant = await person('Lovelace');
    assert.match(applicant.id, /^[0-9a-f-]{36}$/);
    assert.equal(applicant.href, `/v3.6/applicants/${applicant.id}`);
    const front = (await api.uploadDocument('driving_licence', applicant.id, new FileTransfer(sampleJpeg(), 'front.jpg'), undefined, 'front', 'AUS', true)).data;
    const back = (await api.uploadDocument('driving_licence', applicant.id, new FileTransfer(samplePng(), 'back.png'), undefined, 'back', 'AUS')).data;
    assert.deepEqual([front.file_type, front.side, back.file_type, back.side], ['jpg', 'front', 'png', 'back']);
    const photo = (await api.uploadLivePhoto(applicant.id, new FileTransfer(samplePng(), 'selfie.png'), true)).data;

    const created = (await api.createCheck({ applicant_id: applicant.id, report_names: ['document', 'facial_similarity_photo', 'identity_enhanced'], tags: ['pvs', 'session-1'] })).data;
    assert.equal(created.status, 'in_progress');
    assert.equal(created.result, undefined);
    const pending = (await api.listReports(created.id)).data.reports;
    assert.deepEqual(pending.map((r) => [r.name, r.status]), [['document', 'awaiting_data'], ['facial_similarity_photo', 'awaiting_data'], ['identity_enhanced', 'awaiting_data']]);

    const check = await until(created.id, 'complete');
    assert.equal(check.result, 'clear');
    assert.deepEqual((await api.listChecks(applicant.id)).data.checks.map((c) => [c.id, c.tags]), [[check.id, ['pvs', 'session-1']]]);
    const reports = (await api.listReports(check.id)).data.reports;
    const document = reports.find((r) => r.name === 'document')!;
    assert.deepEqual([document.result, document.sub_result], ['clear', 'clear']);
    assert.deepEqual(at(document, 'documents'), [{ id: front.id }, { id: back.id }]);
    assert.equal(at(document, 'properties.document_type'), 'driving_licence');
    assert.equal(at(document, 'properties.issuing_country'), 'AUS');
    assert.match(String(at(document, 'properties.document_numbers.0.value')), /^PA\d{7}$/);
    assert.deepEqual([at(document, 'properties.first_name'), at(document, 'properties.last_name'), at(document, 'properties.date_of_birth')], ['Ada', 'Lovelace', '1990-02-03']);
    const face = reports.find((r) => r.name === 'facial_similarity_photo')!;
    assert.deepEqual(at(face, 'live_photos'), [{ id: photo.id }]);
    assert.equal(at(face, 'properties.score'), 0.93);
    assert.equal(at(face, 'breakdown.face_comparison.breakdown.face_match.properties.document_id'), front.id);
    assert.deepEqual((await api.findReport(face.id)).data, face);

    // Downloads are the bytes as uploaded; @onfido/api needs `responseType: 'arraybuffer'` to keep them.
    const bytes = (await api.downloadDocument(back.id, { responseType: 'arraybuffer' })).data;
    assert.deepEqual(Buffer.from(bytes.buffer), samplePng());
    assert.deepEqual(Buffer.from((await api.downloadLivePhoto(photo.id, { responseType: 'arraybuffer' })).data.buffer), samplePng());
    const raw = await fetch(`${standIn.url}/documents/${front.id}/download`, { headers: { Authorization: `Token token=${standIn.apiToken}` } });
    assert.equal(raw.headers.get('content-type'), 'image/jpeg');
    assert.deepEqual(Buffer.from(await raw.arrayBuffer()), sampleJpeg());
    assert.deepEqual((await api.findDocument(front.id)).data, front);
    assert.deepEqual((await api.findLivePhoto(photo.id)).data, photo);
    assert.deepEqual(standIn.applicants().find((a) => a.id === applicant.id), { id: applicant.id, deleted: false, checks: 1, documents: 2, livePhotos: 1 });
  });

  it('refuses to update an applicant once a check exists, as the spec says', async () => {
    const { applicant } = await completedCheck('Clear');
    const refused = await refusal(api.updateApplicant(applicant.id, { first_name: 'Augusta' }));
    assert.equal(refused.status, 422);
    assert.equal(at(refused.data, 'error.type'), 'validation_error');
  });

  it('deletes an applicant, after which it and everything of it is gone', async () => {
    const { applicant, front, check } = await completedCheck('Clear');
    assert.equal((await api.deleteApplicant(applicant.id)).status, 204);
    const calls = [
      () => api.findApplicant(applicant.id),
      () => api.findDocument(front.id),
      () => api.findCheck(check.id),
      () => api.uploadLivePhoto(applicant.id, new FileTransfer(samplePng(), 'again.png')),
    ];
    for (const call of calls) {
      const refused = await refusal(call());
      assert.equal(refused.status, 410);
      assert.equal(at(refused.data, 'error.type'), 'gone');
    }
    assert.equal(standIn.applicants().find((a) => a.id === applicant.id)?.deleted, true);
    assert.equal((await refusal(api.findApplicant(randomUUID()))).status, 404);
  });
});

describe('onfido stand-in: scenarios by last name', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['Someone', { check: 'clear', document: 'clear/clear', facial_similarity_photo: 'clear', identity_enhanced: 'clear', 'facial_similarity_photo:properties.score': 0.93 }],
    ['  consider ', { check: 'consider', document: 'consider/caution', facial_similarity_photo: 'consider', identity_enhanced: 'consider' }],
    ['Review', { check: 'consider', document: 'clear/clear', facial_similarity_photo: 'consider', identity_enhanced: 'clear', 'facial_similarity_photo:breakdown.face_comparison.result': 'consider', 'facial_similarity_photo:properties.score': 0.41 }],
    ['Rejected', { check: 'consider', document: 'consider/rejected', 'document:breakdown.image_integrity.breakdown.image_quality.result': 'consider', facial_similarity_photo: 'clear' }],
    ['Suspected', { check: 'consider', document: 'consider/suspected', 'document:breakdown.visual_authenticity.breakdown.digital_tampering.result': 'consider' }],
    ['CAUTION', { check: 'consider', document: 'consider/caution', 'document:breakdown.data_validation.breakdown.document_expiration.result': 'consider' }],
    ['Spoof', { check: 'consider', document: 'clear/clear', facial_similarity_photo: 'consider', 'facial_similarity_photo:breakdown.visual_authenticity.breakdown.spoofing_detection.result': 'consider', 'facial_similarity_photo:properties.score': 0.08 }],
    ['Unidentified', { check: 'consider', document: 'clear/clear', facial_similarity_photo: 'clear', identity_enhanced: 'unidentified' }],
  ];
  for (const [lastName, expected] of cases) {
    it(`${JSON.stringify(lastName)}: ${JSON.stringify(expected)}`, async () => {
      const { check, report } = await completedCheck(lastName);
      for (const [key, value] of Object.entries(expected)) {
        const [name, path] = key.split(':');
        if (name === 'check') assert.equal(check.result, value, 'check result');
        else if (path) assert.equal(at(report(name!), path), value, key);
        else {
          const got = report(name!);
          assert.equal(got.sub_result ? `${got.result}/${got.sub_result}` : got.result, value, name);
        }
      }
    });
  }

  it('"Slow": the check stays in progress well past completeAfterMs', async () => {
    const applicant = await person('Slow');
    await api.uploadDocument('passport', applicant.id, new FileTransfer(sampleJpeg(), 'front.jpg'));
    const created = (await api.createCheck({ applicant_id: applicant.id, report_names: ['document'] })).data;
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal((await api.findCheck(created.id)).data.status, 'in_progress');
  });
});

describe('onfido stand-in: the check.completed webhook', () => {
  let server: Server;
  const received: Array<{ raw: Buffer; signature: string }> = [];
  let answers: number[] = [];
  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ raw: Buffer.concat(chunks), signature: String(req.headers['x-sha2-signature']) });
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn.setWebhookUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/providers/onfido/webhooks`);
  });
  after(() => {
    standIn.setWebhookUrl(null);
    server.closeAllConnections();
    server.close();
  });

  const deliveriesFor = async (checkId: string, count: number) => {
    const deadline = Date.now() + 5_000;
    while (received.filter((r) => r.raw.includes(checkId)).length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return received.filter((r) => r.raw.includes(checkId));
  };

  it('is signed so that WebhookEventVerifier accepts it, and a tampered copy is refused', async () => {
    const { check } = await completedCheck('Clear');
    const [delivery] = await deliveriesFor(check.id, 1);
    const payload: unknown = new WebhookEventVerifier(standIn.webhookToken).readPayload(delivery!.raw, delivery!.signature);
    assert.equal(at(payload, 'payload.resource_type'), 'check');
    assert.equal(at(payload, 'payload.action'), 'check.completed');
    assert.equal(at(payload, 'payload.object.id'), check.id);
    assert.equal(at(payload, 'payload.object.status'), 'complete');
    assert.equal(at(payload, 'payload.object.href'), `${standIn.url}/checks/${check.id}`);
    assert.match(String(at(payload, 'payload.object.completed_at_iso8601')), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(standIn.signature(delivery!.raw), delivery!.signature);
    const tampered = Buffer.from(delivery!.raw.toString().replace('complete"', 'withdrawn"'));
    assert.throws(() => new WebhookEventVerifier(standIn.webhookToken).readPayload(tampered, delivery!.signature), OnfidoInvalidSignatureError);
  });

  it('is tried again when the receiver fails, the same body each time', async () => {
    answers = [500, 503];
    const { check } = await completedCheck('Clear');
    const deliveries = await deliveriesFor(check.id, 3);
    assert.equal(deliveries.length, 3);
    assert.ok(deliveries.every((d) => d.raw.equals(deliveries[0]!.raw) && d.signature === deliveries[0]!.signature));
  });
});

describe('onfido stand-in: refusals Onfido documents', () => {
  it('a live photo of one flat colour has no face, unless advanced validation is off', async () => {
    const applicant = await person('Clear');
    const refused = await refusal(api.uploadLivePhoto(applicant.id, new FileTransfer(flatPng, 'flat.png'), true));
    assert.equal(refused.status, 422);
    assert.equal(at(refused.data, 'error.type'), 'validation_error');
    assert.match(String(at(refused.data, 'error.fields.face_detection.0')), /^Face not detected in image\./);
    assert.equal((await api.uploadLivePhoto(applicant.id, new FileTransfer(flatPng, 'flat.png'), false)).status, 201);
  });

  it('a document image of one flat colour has no document, when image quality is validated', async () => {
    const applicant = await person('Clear');
    const refused = await refusal(api.uploadDocument('passport', applicant.id, new FileTransfer(flatPng, 'flat.png'), undefined, undefined, undefined, true));
    assert.equal(refused.status, 422);
    assert.ok(Array.isArray(at(refused.data, 'error.fields.document_detection')));
    assert.equal((await api.uploadDocument('passport', applicant.id, new FileTransfer(flatPng, 'flat.png'))).status, 201);
  });

  it('a file that is not JPEG, PNG or PDF', async () => {
    const applicant = await person('Clear');
    const refused = await refusal(api.uploadDocument('passport', applicant.id, new FileTransfer(Buffer.from('not a picture\n'), 'notes.txt')));
    assert.equal(refused.status, 422);
    assert.ok(Array.isArray(at(refused.data, 'error.fields.file')));
  });
});

describe('onfido stand-in: authentication and outages', () => {
  it('answers 401 with an authorization_error without the token, or with another', async () => {
    const bare = await fetch(`${standIn.url}/applicants/${randomUUID()}`);
    assert.equal(bare.status, 401);
    assert.equal(at(await bare.json(), 'error.type'), 'authorization_error');
    assert.equal((await refusal(person('Clear', clientFor(standIn, 'api_live.someone.elses0000')))).status, 401);
  });

  it('fails the next requests as told, then recovers', async () => {
    standIn.failNext(2, { status: 503 });
    assert.equal((await refusal(person('Clear'))).status, 503);
    assert.equal((await refusal(person('Clear'))).status, 503);
    const applicant = await person('Clear');
    standIn.failNext(1, { status: 429, match: /^GET \/applicants\// });
    const limited = await fetch(`${standIn.url}/applicants/${applicant.id}`, { headers: { Authorization: `Token token=${standIn.apiToken}` } });
    assert.deepEqual([limited.status, limited.headers.get('retry-after'), at(await limited.json(), 'error.type')], [429, '1', 'rate_limit']);
    assert.equal((await api.findApplicant(applicant.id)).status, 200);
    assert.deepEqual(standIn.requests.slice(-5).map((r) => `${r.method} ${r.path.replace(applicant.id, ':id')} ${r.status}`), [
      'POST /v3.6/applicants 503',
      'POST /v3.6/applicants 503',
      'POST /v3.6/applicants 201',
      'GET /v3.6/applicants/:id 429',
      'GET /v3.6/applicants/:id 200',
    ]);
  });
});

describe('onfido stand-in: what breaks the spec', () => {
  let strict: OnfidoStandIn;
  before(async () => (strict = await startOnfidoStandIn()));
  after(() => strict.close());

  it('refuses, and records, an unknown document type and a missing last name', async () => {
    const client = clientFor(strict);
    const applicant = await person('Clear', client);
    const wrongType = await refusal(client.uploadDocument('library_card' as DocumentTypes, applicant.id, new FileTransfer(sampleJpeg(), 'card.jpg')));
    assert.equal(wrongType.status, 422);
    assert.ok(Array.isArray(at(wrongType.data, 'error.fields.type')));
    const noName = await refusal(client.createApplicant({ first_name: 'Ada' } as never));
    assert.deepEqual(at(noName.data, 'error.fields'), { last_name: ['is required'] });
    assert.deepEqual(strict.violations, ['POST /v3.6/documents: type must be one of passport, driving_licence, national_identity_card, residence_permit, passport_card, tax_id, … (78 values)', 'POST /v3.6/applicants: last_name is required']);
  });

  it('reads OpenAPI 3.0 as OpenAPI means it: discriminator, nullable, readOnly', () => {
    const validator = specValidator(loadSpec());
    const id = randomUUID();
    assert.deepEqual(validator.checkSchema('report', { id, name: 'facial_similarity_photo', properties: { score: 0.5 } }), []);
    assert.deepEqual(validator.checkSchema('report', { id, name: 'facial_similarity_photo', properties: { score: 'high' } }), [{ field: 'properties', message: 'score must be number' }]);
    assert.deepEqual(validator.checkSchema('address', { country: 'AUS', postcode: '2000', line1: null }), []);
    const createCheck = loadSpec().operations.find((o) => o.operationId === 'create_check')!;
    const problems = validator.checkRequestBody(createCheck, 'application/json', { applicant_id: id, report_names: ['us_driving_licence'], us_driving_licence: { id_number: 'x', issue_state: 'CA', first_name: 'A', gender: 'Male' } });
    assert.deepEqual(problems, [{ field: 'us_driving_licence', message: 'gender is read-only' }]);
  });
});

describe('onfido stand-in: the spec', () => {
  it('saw nothing against Onfido\'s spec in any request or answer above', () => {
    assert.deepEqual(standIn.violations, []);
  });
});
