// The sandbox registers against CONTRACT §13: the test values that are not companies, the failure modes,
// the call log and personal details. The synthetic businesses of every other number:
// sandbox/sandbox-synthetic.test.ts. The CONTRACT §13 companies, whose promise is what a lookup makes of
// their ownership: modules/lookups/sandbox-ownership.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createManualClock } from '../../platform/clock.ts';
import type { RegisterResult } from './register.ts';
import { createSandboxRegister } from './sandbox-register.ts';

function value<T>(result: RegisterResult<T>): T {
  assert.ok(result.ok, `expected an answer, got ${JSON.stringify(result)}`);
  return result.value;
}

/** The ACN with these first eight digits and its check digit. */
function acnOf(first8: string): string {
  const sum = [...first8].reduce((total, digit, i) => total + Number(digit) * (8 - i), 0);
  return `${first8}${(10 - (sum % 10)) % 10}`;
}

describe('sandbox register: the CONTRACT §13 businesses that are not companies, and the failures', () => {
  const register = createSandboxRegister();

  it('53 900 000 001 is a sole trader named as a person, with no ACN', async () => {
    const record = value(await register.findByAbn('53 900 000 001'));
    assert.deepEqual([record.entityType, record.entityTypeCode, record.entityName, record.acn], ['SOLE_TRADER', 'IND', 'ABERCROMBIE, FIONA MAREE', null]);
  });

  it('34 900 000 002 is a trust with nothing else useful: no ACN, no business names, no GST', async () => {
    const record = value(await register.findByAbn('34900000002'));
    assert.deepEqual([record.entityType, record.entityTypeCode, record.acn, record.businessNames, record.gstRegisteredFrom], ['TRUST', 'DTT', null, [], null]);
    assert.equal(record.entityName, 'The Trustee for the WOLLEMI FAMILY TRUST');
  });

  it('15 900 000 003 is a partnership', async () => {
    const record = value(await register.findByAbn('15900000003'));
    assert.deepEqual([record.entityType, record.entityName, record.acn], ['PARTNERSHIP', 'D K FAIRWEATHER & S L MONTGOMERY', null]);
  });

  it('85 900 000 004 is not on the register: NOT_FOUND', async () => {
    assert.deepEqual(await register.findByAbn('85 900 000 004'), {
      ok: false, reason: 'NOT_FOUND', detail: 'Sandbox ABN register: ABN 85900000004 is not on the register (CONTRACT §13 test value).',
    });
  });

  it('66 900 000 005: the register is unavailable, on every call', async () => {
    for (let call = 0; call < 4; call++) {
      const result = await register.findByAbn('66900000005');
      assert.deepEqual([result.ok, !result.ok && result.reason], [false, 'UNAVAILABLE']);
    }
  });

  it('51 824 753 556 is unavailable on the first two calls of an instance, then found; a new instance starts over', async () => {
    const fresh = createSandboxRegister();
    await fresh.findByAbn('32111111114'); // other numbers do not use up the failures
    const answers = [];
    for (let call = 0; call < 4; call++) answers.push(await fresh.findByAbn('51 824 753 556'));
    assert.deepEqual(answers.map((a) => (a.ok ? 'ok' : a.reason)), ['UNAVAILABLE', 'UNAVAILABLE', 'ok', 'ok']);
    assert.match((answers[0] as { detail: string }).detail, /call 1 of the first 2/);
    assert.deepEqual(answers[3], answers[2]);
    assert.ok(['SOLE_TRADER', 'PARTNERSHIP'].includes(value(answers[2]!).entityType));
    assert.equal((await createSandboxRegister().findByAbn('51824753556')).ok, false);
  });

  it('logs every call with its method, digits and the time of its clock', async () => {
    const clock = createManualClock(new Date('2026-03-01T09:00:00.000Z'));
    const logged = createSandboxRegister({ clock });
    await logged.findByAbn('85 900 000 004');
    clock.advance(1500);
    await logged.findCompany('111 111 114');
    await logged.personDetails(['SBX-111111114-1', 'SBX-111111114-2']);
    assert.deepEqual(logged.calls(), [
      { method: 'findByAbn', id: '85900000004', at: new Date('2026-03-01T09:00:00.000Z') },
      { method: 'findCompany', id: '111111114', at: new Date('2026-03-01T09:00:01.500Z') },
      { method: 'personDetails', id: 'SBX-111111114-1,SBX-111111114-2', at: new Date('2026-03-01T09:00:01.500Z') },
    ]);
    logged.calls().pop();
    assert.equal(logged.calls().length, 3, 'calls() is a copy');
    assert.equal(createSandboxRegister().calls().length, 0, 'each instance has its own log');
  });

  it('keeps the last 1 000 calls only (a sandbox server runs for days)', async () => {
    const logged = createSandboxRegister();
    for (let i = 0; i < 1005; i++) await logged.findCompany('111111114');
    await logged.findByAbn('85900000004');
    const calls = logged.calls();
    assert.equal(calls.length, 1000);
    assert.deepEqual([calls.at(-1)!.method, calls.at(-1)!.id], ['findByAbn', '85900000004'], 'the newest is kept');
  });

  it('throws for an identifier that is not a valid ABN or ACN: the caller validates first', async () => {
    await assert.rejects(register.findByAbn('32111111115'), /not a valid ABN/);
    await assert.rejects(register.findByAcn('11111111'), /not a valid ACN/);
    await assert.rejects(register.findCompany('111-111-114'), /not a valid ACN/);
    await assert.rejects(register.ownership('111111115'), /not a valid ACN/);
  });

  it('hands out copies: changing an answer does not change the register', async () => {
    value(await register.findByAbn('53900000001')).businessNames.push('Changed');
    value(await register.findByAcn('111111114')).businessNames.length = 0;
    value(await register.ownership('111111114')).graph!.edges.length = 0;
    assert.deepEqual(value(await register.findByAbn('53900000001')).businessNames, ['Fiona Abercrombie Photography']);
    assert.deepEqual(value(await register.findByAcn('111111114')).businessNames, ['Bluegum Orchards']);
    assert.equal(value(await register.ownership('111111114')).graph!.edges.length, 1);
  });
});

describe('sandbox register: personal details', () => {
  const register = createSandboxRegister();

  it('answers the known refs, once each and in the order asked, leaving unknown ones out', async () => {
    const details = value(await register.personDetails(['SBX-333333332-2', 'nobody', 'SBX-111111114-1', 'SBX-111111114-9', 'SBX-333333332-2']));
    assert.deepEqual(details.map((d) => [d.partyRef, d.givenNames, d.familyName]), [
      ['SBX-333333332-2', 'Daniel Hugh', 'MERRIWEATHER'],
      ['SBX-111111114-1', 'Harriet Jane', 'PENROSE'],
    ]);
    for (const d of details) {
      assert.match(d.dateOfBirth!, /^(19[4-8]\d)-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])$/);
      assert.equal(d.address!.country, 'AU');
      assert.match(d.address!.postcode, /^\d{4}$/);
      assert.match(d.address!.line1, /^\d+ [A-Z][a-z]+ [A-Z][a-z]+$/);
    }
    assert.deepEqual(value(await register.personDetails([])), []);
  });

  it('gives the same details for a ref in every instance, and different people different details', async () => {
    const [a] = value(await register.personDetails(['SBX-111111114-1']));
    const [again] = value(await createSandboxRegister().personDetails(['SBX-111111114-1']));
    const [b] = value(await register.personDetails(['SBX-111111114-2']));
    assert.deepEqual(again, a);
    assert.notDeepEqual([b!.dateOfBirth, b!.address], [a!.dateOfBirth, a!.address]);
  });

  it('knows every person of a synthetic company from its refs alone, and no one else', async () => {
    const acn = acnOf('61234567');
    const report = value(await register.ownership(acn));
    const refs = [...Object.values(report.persons), ...value(await register.officers(acn))].map((p) => p.partyRef);
    // Not people: a tenth person of this company, a ref of a table company the table does not name, an ACN with a wrong check digit.
    const strangers = [`SBX-${acn}-9`, 'SBX-111111114-7', `SBX-${acn.slice(0, 8)}${(Number(acn[8]) + 1) % 10}-1`];
    const details = value(await createSandboxRegister().personDetails([...refs, ...strangers]));
    assert.deepEqual(details.map((d) => d.partyRef), [...new Set(refs)]);
  });
});
