// The ABR client against a local stand-in for ABN Lookup's JSON services (test/fixtures/abr-api.ts):
// what it asks (asserted on the recorded requests), how it reads the JSONP answers and ABR's error
// messages, how it fails on outages, and that the GUID never leaks into a detail or a log line.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { abrMessages, startAbrApi, type AbrApi, type AbrOutage } from '../../../test/fixtures/abr-api.ts';
import { abrConfigurationError, createAbrClient, entityTypeOf, parseJsonp } from './abr-client.ts';
import type { AbnRegister, RegisterResult, AbnRecord } from './register.ts';

let api: AbrApi;
let abr: AbnRegister;

before(async () => {
  api = await startAbrApi();
  abr = createAbrClient({ guid: api.guid, baseUrl: api.url, timeoutMs: 2_000 });
});
afterEach(() => api.setOutage(null));
after(() => api.close());

const harbourview: AbnRecord = {
  abn: '10643812953',
  status: 'ACTIVE',
  statusFrom: '2020-09-14',
  entityName: 'HARBOURVIEW JOINERY PTY LTD',
  entityType: 'COMPANY',
  entityTypeCode: 'PRV',
  entityTypeName: 'Australian Private Company',
  acn: '643812953',
  gstRegisteredFrom: '2020-10-01',
  businessNames: ['Harbourview Joinery', 'Harbourview Kitchens & Wardrobes'],
  state: 'NSW',
  postcode: '2065',
};

function found(result: RegisterResult<AbnRecord>): AbnRecord {
  assert.ok(result.ok, `expected a record, got ${JSON.stringify(result)}`);
  return result.value;
}

function failed(result: RegisterResult<AbnRecord>, reason: 'NOT_FOUND' | 'UNAVAILABLE'): string {
  assert.ok(!result.ok, `expected ${reason}, got a record`);
  assert.equal(result.reason, reason, result.detail);
  assert.ok(result.detail, 'a failure says what happened');
  return result.detail;
}

describe('abr client: lookups', () => {
  it('finds a company by ABN, asking AbnDetails with the abn, callback and guid parameters', async () => {
    assert.deepEqual(found(await abr.findByAbn('10643812953')), harbourview);
    const request = api.requests.at(-1)!;
    assert.equal(request.method, 'GET');
    assert.equal(request.path, '/json/AbnDetails.aspx');
    assert.deepEqual(Object.keys(request.query).sort(), ['abn', 'callback', 'guid']);
    assert.equal(request.query.abn, '10643812953');
    assert.equal(request.query.guid, api.guid);
    assert.match(request.query.callback!, /^[A-Za-z_$][\w$]*$/);
  });

  it('finds the same company by ACN through AcnDetails', async () => {
    assert.deepEqual(found(await abr.findByAcn('643 812 953')), harbourview);
    const request = api.requests.at(-1)!;
    assert.equal(request.path, '/json/AcnDetails.aspx');
    assert.deepEqual(Object.keys(request.query).sort(), ['acn', 'callback', 'guid']);
    assert.equal(request.query.acn, '643812953');
    assert.equal(request.query.guid, api.guid);
  });

  it('sends the ABN without the spaces it was written with', async () => {
    found(await abr.findByAbn('10 643 812 953'));
    assert.equal(api.requests.at(-1)!.query.abn, '10643812953');
  });

  it('reads a sole trader (IND), with no ACN and GST null', async () => {
    assert.deepEqual(found(await abr.findByAbn('29587203316')), {
      abn: '29587203316',
      status: 'ACTIVE',
      statusFrom: '2017-05-22',
      entityName: 'TANNER, ROSALIND MAE',
      entityType: 'SOLE_TRADER',
      entityTypeCode: 'IND',
      entityTypeName: 'Individual/Sole Trader',
      acn: null,
      gstRegisteredFrom: null,
      businessNames: ['Ros Tanner Bookkeeping'],
      state: 'QLD',
      postcode: '4551',
    });
  });

  it('reads a discretionary trading trust as a TRUST', async () => {
    const trust = found(await abr.findByAbn('44729018453'));
    assert.equal(trust.entityType, 'TRUST');
    assert.equal(trust.entityTypeCode, 'DTT');
    assert.equal(trust.entityName, 'The Trustee for KESTREL FAMILY TRUST');
    assert.deepEqual(trust.businessNames, []);
    assert.equal(trust.acn, null);
    assert.equal(trust.gstRegisteredFrom, '2016-07-01');
  });

  it('reads a family partnership (FPT) as a PARTNERSHIP', async () => {
    const partnership = found(await abr.findByAbn('84406612987'));
    assert.equal(partnership.entityType, 'PARTNERSHIP');
    assert.equal(partnership.entityTypeName, 'Family Partnership');
  });

  it('reads a cancelled ABN with the date it was cancelled, and an empty Gst as null', async () => {
    const cancelled = found(await abr.findByAbn('50157028647'));
    assert.equal(cancelled.status, 'CANCELLED');
    assert.equal(cancelled.statusFrom, '2021-06-30');
    assert.equal(cancelled.gstRegisteredFrom, null);
    assert.equal(cancelled.entityType, 'COMPANY');
    assert.equal(cancelled.acn, '157028647');
  });
});

describe('abr client: numbers the register does not hold', () => {
  it('answers NOT_FOUND for a valid ABN that is not on the register', async () => {
    const detail = failed(await abr.findByAbn('25318840275'), 'NOT_FOUND');
    assert.match(detail, new RegExp(abrMessages.notFound));
    assert.equal(api.requests.at(-1)!.query.abn, '25318840275');
  });

  it('answers NOT_FOUND for a valid ACN with no ABN', async () => {
    failed(await abr.findByAcn('621093472'), 'NOT_FOUND');
  });

  it('answers NOT_FOUND when ABR says the number is not a valid ABN or ACN', async () => {
    const detail = failed(await abr.findByAbn('10643812954'), 'NOT_FOUND');
    assert.match(detail, /not a valid ABN or ACN/);
    failed(await abr.findByAcn('643812954'), 'NOT_FOUND');
  });

  it('answers NOT_FOUND without asking ABR for something that is not a number of the right length', async () => {
    const before = api.requests.length;
    failed(await abr.findByAbn('1064381295'), 'NOT_FOUND');
    failed(await abr.findByAcn('64381295X'), 'NOT_FOUND');
    failed(await abr.findByAbn('10643812953&guid=other'), 'NOT_FOUND');
    assert.equal(api.requests.length, before);
  });
});

describe('abr client: failures', () => {
  it('flags an unrecognised GUID as a configuration error, logs it, and never repeats the GUID', async () => {
    const wrongGuid = 'b1f3c2d4-0000-4a5e-9d6f-7a8b9c0d1e2f';
    const logged: unknown[][] = [];
    const client = createAbrClient({ guid: wrongGuid, baseUrl: api.url, logger: { error: (fields, message) => void logged.push([fields, message]) } });
    const detail = failed(await client.findByAbn('10643812953'), 'UNAVAILABLE');
    assert.ok(detail.startsWith(`${abrConfigurationError}:`), detail);
    assert.match(detail, /not recognised as a Registered Party/);
    assert.ok(!detail.toLowerCase().includes(wrongGuid));
    assert.equal(api.requests.at(-1)!.query.guid, wrongGuid, 'the GUID was sent, only not repeated');
    assert.equal(logged.length, 1);
    assert.ok(!JSON.stringify(logged).includes(wrongGuid));
    assert.match(JSON.stringify(logged), /ABR_GUID/);
  });

  it('redacts the GUID when ABR echoes it back in its message', async () => {
    // ABR's XML service has been recorded appending the GUID to this message (". : <guid>").
    const echoing: typeof fetch = async (input) => {
      const url = new URL(String(input));
      const guid = url.searchParams.get('guid')!.toUpperCase();
      const body = `${url.searchParams.get('callback')}(${JSON.stringify({ Abn: '', Message: `${abrMessages.unknownGuid}. : ${guid}` })})`;
      return new Response(body, { headers: { 'content-type': 'text/javascript' } });
    };
    const client = createAbrClient({ guid: api.guid, baseUrl: api.url, fetch: echoing });
    const detail = failed(await client.findByAbn('10643812953'), 'UNAVAILABLE');
    assert.ok(detail.startsWith(abrConfigurationError));
    assert.ok(!detail.toLowerCase().includes(api.guid.toLowerCase()), detail);
    assert.match(detail, /\[guid\]/);
  });

  it('treats any other ABR message as UNAVAILABLE, not as a missing business', async () => {
    const troubled: typeof fetch = async (input) => {
      const url = new URL(String(input));
      const body = `${url.searchParams.get('callback')}(${JSON.stringify({ Abn: '', Message: 'System problems have prevented this request from completing' })});\n`;
      return new Response(body, { headers: { 'content-type': 'application/javascript' } });
    };
    const detail = failed(await createAbrClient({ guid: api.guid, baseUrl: api.url, fetch: troubled }).findByAbn('10643812953'), 'UNAVAILABLE');
    assert.match(detail, /System problems/);
    assert.ok(!detail.startsWith(abrConfigurationError));
  });

  it('reads an empty record with no message as not found, and a record that makes no sense as UNAVAILABLE', async () => {
    const answering = (payload: object): typeof fetch => async (input) => {
      const callback = new URL(String(input)).searchParams.get('callback');
      return new Response(`${callback}(${JSON.stringify(payload)})`, { headers: { 'content-type': 'text/javascript' } });
    };
    const client = (payload: object) => createAbrClient({ guid: api.guid, baseUrl: api.url, fetch: answering(payload) });
    const record = { ...api.records[0]! };
    failed(await client({ ...record, Abn: '', Message: '' }).findByAbn('10643812953'), 'NOT_FOUND');
    assert.match(failed(await client(record).findByAbn('29587203316'), 'UNAVAILABLE'), /another number/);
    assert.match(failed(await client(record).findByAcn('157028647'), 'UNAVAILABLE'), /another number/);
    assert.match(failed(await client({ ...record, AbnStatus: 'Pending' }).findByAbn('10643812953'), 'UNAVAILABLE'), /AbnStatus 'Pending'/);
    assert.match(failed(await client({ ...record, BusinessName: 'Harbourview Joinery' }).findByAbn('10643812953'), 'UNAVAILABLE'), /BusinessName/);
  });

  it('answers UNAVAILABLE on HTTP 500, after one request and no retry', async () => {
    api.setOutage('http500');
    const before = api.requests.length;
    const detail = failed(await abr.findByAbn('10643812953'), 'UNAVAILABLE');
    assert.match(detail, /HTTP 500/);
    assert.equal(api.requests.length, before + 1);
  });

  it('gives up at the timeout when ABR never answers', async () => {
    api.setOutage('hang');
    const client = createAbrClient({ guid: api.guid, baseUrl: api.url, timeoutMs: 300 });
    const started = Date.now();
    const detail = failed(await client.findByAbn('10643812953'), 'UNAVAILABLE');
    assert.match(detail, /did not answer within 300 ms/);
    assert.ok(Date.now() - started < 2_000);
  });

  it('gives up at the timeout when the answer stalls after its headers', async () => {
    api.setOutage('stall-body');
    const client = createAbrClient({ guid: api.guid, baseUrl: api.url, timeoutMs: 300 });
    const started = Date.now();
    const detail = failed(await client.findByAcn('643812953'), 'UNAVAILABLE');
    assert.match(detail, /did not answer within 300 ms/);
    assert.ok(Date.now() - started < 2_000);
  });

  it('answers UNAVAILABLE when the connection is cut', async () => {
    api.setOutage('drop');
    assert.match(failed(await abr.findByAbn('10643812953'), 'UNAVAILABLE'), /could not be reached/);
  });

  it('answers UNAVAILABLE when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = createAbrClient({ guid: api.guid, baseUrl: `http://127.0.0.1:${port}/json` });
    assert.match(failed(await client.findByAbn('10643812953'), 'UNAVAILABLE'), /could not be reached \(.*ECONNREFUSED/);
  });

  const malformed: Array<[AbrOutage, RegExp]> = [
    ['wrong-callback', /another callback/],
    ['truncated', /not closed|not JSON/],
    ['maintenance-page', /not JSONP/],
  ];
  for (const [outage, problem] of malformed) {
    it(`answers UNAVAILABLE for a malformed answer (${outage})`, async () => {
      api.setOutage(outage);
      assert.match(failed(await abr.findByAbn('10643812953'), 'UNAVAILABLE'), problem);
    });
  }

  it('never puts the GUID in a detail, whatever went wrong', async () => {
    const outages: AbrOutage[] = ['http500', 'drop', 'wrong-callback', 'truncated', 'maintenance-page', 'hang'];
    const client = createAbrClient({ guid: api.guid, baseUrl: api.url, timeoutMs: 200 });
    for (const outage of outages) {
      api.setOutage(outage);
      const result = await client.findByAbn('10643812953');
      assert.ok(!result.ok);
      assert.ok(!String(result.detail).includes(api.guid), `${outage}: ${result.detail}`);
    }
  });

  it('refuses to start without a GUID', () => {
    assert.throws(() => createAbrClient({ guid: '' }), /ABR_GUID/);
    assert.throws(() => createAbrClient({ guid: 'g', baseUrl: 'ftp://abr.example' }), /http/);
  });
});

describe('abr client: JSONP parsing', () => {
  it('takes the object out of our padding, with whitespace and a trailing semicolon', () => {
    assert.deepEqual(parseJsonp('\uFEFF cb({"Abn":"1"}) ;\r\n', 'cb'), { ok: true, value: { Abn: '1' } });
  });

  it('refuses anything it would have to evaluate', () => {
    const refused = [
      'other({"Abn":"1"})',
      '{"Abn":"1"}',
      'cb({"Abn":"1"}); steal()',
      'cb({"Abn":"1"}) + cb({})',
      'cb(["Abn"])',
      'cb(null)',
      'cb({"Abn":"1"}',
      'cb(new Date())',
      '',
    ];
    for (const body of refused) assert.equal(parseJsonp(body, 'cb').ok, false, body);
  });
});

describe('abr client: entity types', () => {
  it('sorts ABR entity type codes into the five PVS types', () => {
    const expected: Record<string, string> = {
      PRV: 'COMPANY',
      PUB: 'COMPANY',
      SCR: 'COMPANY',
      IND: 'SOLE_TRADER',
      PTR: 'PARTNERSHIP',
      LPT: 'PARTNERSHIP',
      FPT: 'PARTNERSHIP',
      DTT: 'TRUST',
      DIT: 'TRUST',
      FXT: 'TRUST',
      TRT: 'TRUST',
      SMF: 'OTHER',
      SUP: 'OTHER',
      PST: 'OTHER',
      CGE: 'OTHER',
      COP: 'OTHER',
      '': 'OTHER',
      ZZZ: 'OTHER',
    };
    for (const [code, type] of Object.entries(expected)) assert.equal(entityTypeOf(code), type, code);
  });
});
