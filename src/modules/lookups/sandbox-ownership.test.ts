// The sandbox register's companies as a lookup reads their ownership, through this module's analysis
// (ownership.ts): the CONTRACT §13 companies give the completeness the CONTRACT promises partners who test
// against the sandbox, and every synthetic company a valid HIGH graph. The rest of the sandbox's answers
// are tested beside it (providers/register/sandbox-register.test.ts, sandbox/sandbox-synthetic.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OwnershipReport } from '../../providers/register/ownership-report.ts';
import type { AbnRecord, RegisterResult } from '../../providers/register/register.ts';
import { tableCompanies } from '../../providers/register/sandbox/sandbox-table.ts';
import { createSandboxRegister, type SandboxRegister } from '../../providers/register/sandbox-register.ts';
import { analyseOwnership, type OwnershipAnalysis } from './ownership.ts';

function value<T>(result: RegisterResult<T>): T {
  assert.ok(result.ok, `expected an answer, got ${JSON.stringify(result)}`);
  return result.value;
}

/** What the lookup service does with an ownership answer. */
function analyse(result: RegisterResult<OwnershipReport>, depthLimit?: number): OwnershipAnalysis {
  if (!result.ok) return analyseOwnership({ source: 'UNAVAILABLE' });
  const { graph } = result.value;
  return graph === null ? analyseOwnership({ source: 'AVAILABLE', graph: null }) : analyseOwnership({ source: 'AVAILABLE', graph, depthLimit });
}

/** Beneficial owners as [name, percent], names from the report's persons. */
async function ownersOf(register: SandboxRegister, acn: string): Promise<Array<[string, number]>> {
  const report = value(await register.ownership(acn));
  return analyse({ ok: true, value: report }).beneficialOwners.map((o) => {
    const person = report.persons[o.nodeId]!;
    return [`${person.givenNames} ${person.familyName}`, o.ownershipPercent];
  });
}

async function rolesOf(register: SandboxRegister, acn: string): Promise<string[]> {
  return value(await register.officers(acn)).map((o) => `${o.role} ${o.givenNames} ${o.familyName}`);
}

/** The ACN with these first eight digits and its check digit. */
function acnOf(first8: string): string {
  const sum = [...first8].reduce((total, digit, i) => total + Number(digit) * (8 - i), 0);
  return `${first8}${(10 - (sum % 10)) % 10}`;
}

const companies = [
  { abn: '32111111114', acn: '111111114', name: 'BLUEGUM ORCHARDS PTY LTD' },
  { abn: '54222222228', acn: '222222228', name: 'WATTLE CREEK LOGISTICS PTY LTD' },
  { abn: '21444444446', acn: '444444446', name: 'CORELLA CONSTRUCTIONS PTY LTD' },
  { abn: '55555555550', acn: '555555550', name: 'MYALL PASTORAL PTY LTD' },
  { abn: '77666666664', acn: '666666664', name: 'GALAH GROVE VINEYARDS PTY LTD' },
  { abn: '10777777778', acn: '777777778', name: 'TALLOWOOD TIMBER SUPPLIES PTY LTD' },
  { abn: '44888888882', acn: '888888882', name: 'COOLABAH RESOURCES LIMITED' },
  { abn: '66999999996', acn: '999999996', name: 'PADDLEWHEEL CATERING PTY LTD' },
];

describe('sandbox register: the CONTRACT §13 companies on the registers', () => {
  const register = createSandboxRegister();

  for (const { abn, acn, name } of companies) {
    it(`${acn}: the ABN names the company and its ACN, the ACN gives the same ABN record, ASIC agrees`, async () => {
      const byAbn = value(await register.findByAbn(abn));
      assert.equal(byAbn.entityName, name);
      assert.equal(byAbn.entityType, 'COMPANY');
      assert.equal(byAbn.acn, acn);
      assert.deepEqual(value(await register.findByAcn(acn)), byAbn);
      const company = value(await register.findCompany(acn));
      assert.equal(company.name, name);
      assert.equal(company.abn, abn);
      assert.equal(company.class, 'LMSH');
    });
  }

  it('111 111 114: every field of the ABN and ASIC records', async () => {
    assert.deepEqual(value(await register.findByAbn('32 111 111 114')), {
      abn: '32111111114', status: 'ACTIVE', statusFrom: '2012-03-19', entityName: 'BLUEGUM ORCHARDS PTY LTD', entityType: 'COMPANY',
      entityTypeCode: 'PRV', entityTypeName: 'Australian Private Company', acn: '111111114', gstRegisteredFrom: '2012-04-01',
      businessNames: ['Bluegum Orchards'], state: 'NSW', postcode: '2800',
    } satisfies AbnRecord);
    assert.deepEqual(value(await register.findCompany('111 111 114')), {
      acn: '111111114', name: 'BLUEGUM ORCHARDS PTY LTD', type: 'APTY', class: 'LMSH', subClass: 'PROP', status: 'REGD',
      registeredOn: '2012-03-19', deregisteredOn: null, abn: '32111111114',
    });
  });

  it('111 111 114: two directors, one of them owning 100 %: HIGH', async () => {
    const officers = value(await register.officers('111111114'));
    assert.deepEqual(officers, [
      { partyRef: 'SBX-111111114-1', givenNames: 'Harriet Jane', familyName: 'PENROSE', role: 'DIRECTOR', appointedOn: '2012-03-19' },
      { partyRef: 'SBX-111111114-2', givenNames: 'Malcolm David', familyName: 'PENROSE', role: 'DIRECTOR', appointedOn: '2015-07-01' },
    ]);
    const report = value(await register.ownership('111111114'));
    const analysis = analyse({ ok: true, value: report });
    assert.equal(analysis.completeness, 'HIGH');
    assert.deepEqual(await ownersOf(register, '111111114'), [['Harriet Jane PENROSE', 100]]);
    // The owner is the first director: one party, so the service can list her twice with one idvEntityId.
    assert.equal(report.persons[analysis.beneficialOwners[0]!.nodeId]!.partyRef, officers[0]!.partyRef);
  });

  it('222 222 228: 40 % held directly and 60 % through 333 333 332 owned 50/50: owners 40/30/30, HIGH', async () => {
    const analysis = analyse(await register.ownership('222222228'));
    assert.equal(analysis.completeness, 'HIGH');
    assert.deepEqual(await ownersOf(register, '222222228'), [['Oliver James KINGSLEY', 40], ['Priscilla Mary FAIRBAIRN', 30], ['Daniel Hugh MERRIWEATHER', 30]]);
    assert.deepEqual(analysis.nodes.map((n) => [n.id, n.kind]), [
      ['company:222222228', 'COMPANY'], ['person:SBX-222222228-1', 'PERSON'], ['company:333333332', 'COMPANY'],
      ['person:SBX-333333332-1', 'PERSON'], ['person:SBX-333333332-2', 'PERSON'],
    ]);
    // Kingsley is director and secretary: two appointments, one partyRef.
    assert.deepEqual(await rolesOf(register, '222222228'), ['DIRECTOR Oliver James KINGSLEY', 'SECRETARY Oliver James KINGSLEY', 'DIRECTOR Priscilla Mary FAIRBAIRN']);
  });

  it('333 333 332, the holding company, is on the registers with its own officers and owners', async () => {
    const company = value(await register.findCompany('333333332'));
    assert.equal(company.name, 'FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD');
    assert.equal(company.abn, '88333333332');
    assert.equal(value(await register.findByAbn('88333333332')).acn, '333333332');
    assert.deepEqual(await rolesOf(register, '333333332'), ['DIRECTOR Priscilla Mary FAIRBAIRN', 'DIRECTOR Daniel Hugh MERRIWEATHER']);
    assert.deepEqual(await ownersOf(register, '333333332'), [['Priscilla Mary FAIRBAIRN', 50], ['Daniel Hugh MERRIWEATHER', 50]]);
  });

  it('444 444 446: 50 % held by a corporate trustee for a family trust: the trust is blocked, PARTIAL', async () => {
    const analysis = analyse(await register.ownership('444444446'));
    assert.equal(analysis.completeness, 'PARTIAL');
    assert.equal(analysis.reason, 'BLOCKED_NODES');
    assert.deepEqual(analysis.blockedNodes, [{ nodeId: 'trust:444444446-2', kind: 'TRUST', ownershipPercent: 50 }]);
    assert.equal(analysis.nodes.find((n) => n.kind === 'TRUST')?.name, 'ASHCOMBE NOMINEES PTY LTD ATF THE BRADSHAW FAMILY TRUST');
    assert.deepEqual(await ownersOf(register, '444444446'), [['Lachlan Peter BRADSHAW', 50]]);
    assert.equal((await rolesOf(register, '444444446')).length, 2);
  });

  it('555 555 550: a chain of eight companies, deeper than the limit of 6: truncated, PARTIAL', async () => {
    const result = await register.ownership('555555550');
    const analysis = analyse(result);
    assert.deepEqual([analysis.completeness, analysis.reason, analysis.truncated], ['PARTIAL', 'TRUNCATED', true]);
    assert.deepEqual(analysis.beneficialOwners, []);
    // The report holds the whole chain; cutting it is the traversal's work: with a deeper limit the person at the top is found.
    const graph = value(result).graph!;
    assert.equal(graph.nodes.filter((n) => n.kind === 'COMPANY').length, 8);
    assert.deepEqual(analyse(result, 10).beneficialOwners.map((o) => [o.nodeId, o.ownershipPercent, o.paths[0]!.length]), [['person:SBX-555555550-1', 100, 9]]);
    // Every company of the chain is on the register too.
    const top = value(await register.findCompany('555000078'));
    assert.equal(top.name, 'MYALL HOLDINGS NO. 7 PTY LTD');
    assert.deepEqual(await ownersOf(register, '555000078'), [['Edwina Rose CARRINGTON', 100]]);
    assert.equal((await rolesOf(register, '555555550')).length, 2);
  });

  it('666 666 664: a holder named without an identifier is an unlinked owner, PARTIAL', async () => {
    const analysis = analyse(await register.ownership('666666664'));
    assert.deepEqual([analysis.completeness, analysis.reason], ['PARTIAL', 'UNLINKED_OWNERS']);
    assert.deepEqual(analysis.unlinkedOwners, [{ name: 'M. R. ABERNATHY', ownedId: 'company:666666664', percent: 30 }]);
    assert.deepEqual(await ownersOf(register, '666666664'), [['Beatrice Anne LINDQVIST', 70]]);
  });

  it('777 777 778: the ownership source is unavailable (UNKNOWN); the registers and officers still answer', async () => {
    const result = await register.ownership('777777778');
    assert.ok(!result.ok);
    assert.equal(result.reason, 'UNAVAILABLE');
    assert.match(result.detail!, /ownership source is unavailable for ACN 777777778/);
    assert.deepEqual([analyse(result).completeness, analyse(result).reason], ['UNKNOWN', 'SOURCE_UNAVAILABLE']);
    assert.deepEqual((await register.ownership('777777778')).ok, false, 'every call');
    assert.equal(value(await register.findByAbn('10777777778')).status, 'ACTIVE');
    assert.equal(value(await register.findCompany('777777778')).status, 'REGD');
    assert.deepEqual(await rolesOf(register, '777777778'), ['DIRECTOR Vincent Paul DOUGHERTY', 'DIRECTOR Naomi Claire DOUGHERTY', 'SECRETARY Imogen Kate FARRANT']);
  });

  it('888 888 882: a listed public company, no ownership graph: UNKNOWN', async () => {
    const abn = value(await register.findByAbn('44888888882'));
    assert.deepEqual([abn.entityTypeCode, abn.entityTypeName], ['PUB', 'Australian Public Company']);
    const company = value(await register.findCompany('888888882'));
    assert.deepEqual([company.type, company.class, company.subClass, company.status], ['APUB', 'LMSH', 'LISN', 'REGD']);
    assert.deepEqual(value(await register.ownership('888888882')), { graph: null, persons: {} });
    assert.deepEqual([analyse(await register.ownership('888888882')).completeness, analyse(await register.ownership('888888882')).reason], ['UNKNOWN', 'UNKNOWN']);
    const roles = value(await register.officers('888888882')).map((o) => o.role);
    assert.deepEqual(roles, ['DIRECTOR', 'DIRECTOR', 'DIRECTOR', 'DIRECTOR', 'SECRETARY', 'OFFICER']);
  });

  it('999 999 996: deregistered (DRGD), ABN cancelled, no current officers and no graph', async () => {
    const abn = value(await register.findByAbn('66 999 999 996'));
    assert.deepEqual([abn.status, abn.statusFrom, abn.gstRegisteredFrom], ['CANCELLED', '2021-04-30', null]);
    const company = value(await register.findCompany('999999996'));
    assert.deepEqual([company.status, company.registeredOn, company.deregisteredOn], ['DRGD', '2008-04-14', '2021-03-28']);
    assert.deepEqual(value(await register.officers('999999996')), []);
    assert.equal(analyse(await register.ownership('999999996')).completeness, 'UNKNOWN');
  });
});

describe('sandbox register: synthetic companies, as a lookup reads them', () => {
  const register = createSandboxRegister();
  const acns = Array.from({ length: 150 }, (_, i) => acnOf(String(10_000_000 + i * 600_613).slice(0, 8)))
    .filter((acn) => !tableCompanies.has(acn));

  it('every synthetic company is a registered proprietary company with 1–3 directors, a secretary sometimes, and a valid HIGH graph summing to 100 %', async () => {
    const directorCounts = new Set<number>();
    let withSecretary = 0;
    for (const acn of acns) {
      const company = value(await register.findCompany(acn));
      assert.match(company.name, /^[A-Z ]+ PTY LTD$/);
      assert.deepEqual([company.type, company.class, company.status, company.deregisteredOn], ['APTY', 'LMSH', 'REGD', null]);
      const officers = value(await register.officers(acn));
      const directors = officers.filter((o) => o.role === 'DIRECTOR').length;
      directorCounts.add(directors);
      if (officers.some((o) => o.role === 'SECRETARY')) withSecretary++;

      const report = value(await register.ownership(acn));
      const analysis = analyseOwnership({ source: 'AVAILABLE', graph: report.graph! });
      assert.equal(analysis.completeness, 'HIGH', acn);
      assert.equal(Math.round(analysis.personHoldings.reduce((sum, h) => sum + h.ownershipPercent, 0)), 100);
      assert.ok(analysis.personHoldings.length >= 1 && analysis.personHoldings.length <= 3);
      assert.deepEqual(Object.keys(report.persons).sort(), analysis.personHoldings.map((h) => h.nodeId).sort());
      // The first owner is the first director, as in most small companies.
      assert.equal(report.persons[report.graph!.edges[0]!.ownerId]!.partyRef, officers[0]!.partyRef);
    }
    assert.deepEqual([...directorCounts].sort(), [1, 2, 3]);
    assert.ok(withSecretary > 0 && withSecretary < acns.length, `${withSecretary} of ${acns.length} with a secretary`);
  });
});
