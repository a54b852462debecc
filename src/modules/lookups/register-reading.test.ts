// What a lookup reads, in which order, and what each register answer leads to; with hand-made registers
// that log their calls.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Registers } from '../../providers/register/index.ts';
import type { OwnershipReport } from '../../providers/register/ownership-report.ts';
import type { AbnRecord, CompanyRecord, RegisterResult } from '../../providers/register/register.ts';
import { readRegisters } from './register-reading.ts';

const abr: AbnRecord = {
  abn: '32111111114', status: 'ACTIVE', statusFrom: '2012-03-19', entityName: 'ABR NAME PTY LTD', entityType: 'COMPANY', entityTypeCode: 'PRV',
  entityTypeName: 'Australian Private Company', acn: '111111114', gstRegisteredFrom: null, businessNames: [], state: 'NSW', postcode: '2800',
};
const asic: CompanyRecord = { acn: '111111114', name: 'ASIC NAME PTY LTD', type: 'APTY', class: 'LMSH', subClass: 'PROP', status: 'REGD', registeredOn: '2012-03-19', deregisteredOn: null, abn: '32111111114' };
const report: OwnershipReport = { graph: null, persons: {} };
const ok = <T>(value: T): RegisterResult<T> => ({ ok: true, value });
const down = { ok: false, reason: 'UNAVAILABLE', detail: 'down' } as const;
const missing = { ok: false, reason: 'NOT_FOUND' } as const;

type Answers = { [K in 'findByAbn' | 'findByAcn' | 'findCompany' | 'officers' | 'ownership']?: RegisterResult<never> | RegisterResult<unknown> };

function registers(answers: Answers = {}) {
  const calls: string[] = [];
  const answer = <T>(name: keyof Answers, fallback: RegisterResult<T>) => async () => {
    calls.push(name);
    return (answers[name] ?? fallback) as RegisterResult<T>;
  };
  const fake: Registers = {
    abn: { findByAbn: answer('findByAbn', ok(abr)), findByAcn: answer('findByAcn', ok(abr)) },
    companies: { findCompany: answer('findCompany', ok(asic)) },
    reports: { officers: answer('officers', ok([])), ownership: answer('ownership', ok(report)), personDetails: async () => ok([]) },
  };
  return { fake, calls };
}

describe('readRegisters', () => {
  it('FULL by ABN: the ABN register, the company register, officers and ownership; the company name wins', async () => {
    const { fake, calls } = registers();
    const reading = await readRegisters(fake, { abn: '32111111114', acn: null, scope: 'FULL' });
    assert.deepEqual(calls, ['findByAbn', 'findCompany', 'officers', 'ownership']);
    assert.equal(reading.kind, 'FOUND');
    if (reading.kind !== 'FOUND') return;
    assert.deepEqual(reading.facts.entity, { name: 'ASIC NAME PTY LTD', type: 'COMPANY' });
    assert.equal(reading.facts.officersSource, 'AVAILABLE');
    assert.deepEqual(reading.facts.ownership, { source: 'AVAILABLE', report });
  });

  it('by ACN alone it also asks the ABN register by ACN; ASIC_ONLY reads no ownership, UBO_ONLY no officers', async () => {
    const asicOnly = registers();
    await readRegisters(asicOnly.fake, { abn: null, acn: '111111114', scope: 'ASIC_ONLY' });
    assert.deepEqual(asicOnly.calls, ['findCompany', 'findByAcn', 'officers']);
    const uboOnly = registers();
    const reading = await readRegisters(uboOnly.fake, { abn: null, acn: '111111114', scope: 'UBO_ONLY' });
    assert.deepEqual(uboOnly.calls, ['findCompany', 'findByAcn', 'ownership']);
    assert.equal(reading.kind === 'FOUND' && reading.facts.officersSource, 'NOT_REQUESTED');
  });

  it('a register that is down stops the reading (the job tries again); the UBO report being down does not', async () => {
    for (const answers of [{ findByAbn: down }, { findCompany: down }] as Answers[]) {
      const reading = await readRegisters(registers(answers).fake, { abn: '32111111114', acn: null, scope: 'FULL' });
      assert.deepEqual(reading, { kind: 'UNAVAILABLE', detail: 'down' });
    }
    const byAcn = await readRegisters(registers({ findByAcn: down }).fake, { abn: null, acn: '111111114', scope: 'FULL' });
    assert.equal(byAcn.kind, 'UNAVAILABLE');

    const reading = await readRegisters(registers({ officers: down, ownership: down }).fake, { abn: '32111111114', acn: null, scope: 'FULL' });
    assert.equal(reading.kind, 'FOUND');
    if (reading.kind !== 'FOUND') return;
    assert.deepEqual([reading.facts.officers, reading.facts.officersSource, reading.facts.ownership], [null, 'UNAVAILABLE', { source: 'UNAVAILABLE' }]);
  });

  it('NOT_FOUND from the ABN register fails the lookup; an ABN of another company than the ACN is a mismatch', async () => {
    assert.deepEqual(await readRegisters(registers({ findByAbn: missing }).fake, { abn: '32111111114', acn: null, scope: 'FULL' }), { kind: 'FAILED', reason: 'NOT_FOUND' });
    assert.deepEqual(await readRegisters(registers().fake, { abn: '32111111114', acn: '222222228', scope: 'FULL' }), { kind: 'FAILED', reason: 'IDENTIFIER_MISMATCH' });
  });

  it('by ACN: known to one register is enough; known to neither is NOT_FOUND', async () => {
    const asicOnly = await readRegisters(registers({ findByAcn: missing }).fake, { abn: null, acn: '111111114', scope: 'ASIC_ONLY' });
    assert.equal(asicOnly.kind === 'FOUND' && asicOnly.facts.abr, null);
    assert.deepEqual(asicOnly.kind === 'FOUND' && asicOnly.facts.entity, { name: 'ASIC NAME PTY LTD', type: 'COMPANY' });
    const abrOnly = await readRegisters(registers({ findCompany: missing }).fake, { abn: null, acn: '111111114', scope: 'ASIC_ONLY' });
    assert.deepEqual(abrOnly.kind === 'FOUND' && abrOnly.facts.entity, { name: 'ABR NAME PTY LTD', type: 'COMPANY' }, 'the business register name is the fallback');
    const neither = await readRegisters(registers({ findCompany: missing, findByAcn: missing }).fake, { abn: null, acn: '111111114', scope: 'FULL' });
    assert.deepEqual(neither, { kind: 'FAILED', reason: 'NOT_FOUND' });
  });

  it('a business without an ACN has no officers or ownership to read: ownership UNAVAILABLE, nothing asked', async () => {
    const { fake, calls } = registers({ findByAbn: ok({ ...abr, acn: null, entityType: 'SOLE_TRADER', entityName: 'SMITH, JO' }) });
    const reading = await readRegisters(fake, { abn: '53900000001', acn: null, scope: 'FULL' });
    assert.deepEqual(calls, ['findByAbn']);
    assert.equal(reading.kind, 'FOUND');
    if (reading.kind !== 'FOUND') return;
    assert.deepEqual([reading.facts.entity, reading.facts.officersSource, reading.facts.ownership], [{ name: 'SMITH, JO', type: 'SOLE_TRADER' }, 'NOT_REQUESTED', { source: 'UNAVAILABLE' }]);
  });

  it('an ownership report that does not know the company is a read with no graph', async () => {
    const reading = await readRegisters(registers({ ownership: missing }).fake, { abn: '32111111114', acn: null, scope: 'UBO_ONLY' });
    assert.deepEqual(reading.kind === 'FOUND' && reading.facts.ownership, { source: 'AVAILABLE', report: { graph: null, persons: {} } });
  });
});
