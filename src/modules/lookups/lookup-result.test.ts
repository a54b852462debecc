// From register facts to parties, counts and the stored structure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Officer, OwnershipReport } from '../../providers/register/ownership-report.ts';
import { buildLookupResult } from './lookup-result.ts';
import type { RegisterFacts } from './register-reading.ts';

const ann = { partyRef: 'SRC-ANN', givenNames: 'Ann', familyName: 'LEE' };
const bob = { partyRef: 'SRC-BOB', givenNames: 'Bob', familyName: 'NG' };
const cat = { partyRef: 'SRC-CAT', givenNames: 'Cat', familyName: 'OH' };
const dan = { partyRef: 'SRC-DAN', givenNames: 'Dan', familyName: 'YU' };

/** Root company `src:root` held 60 % by Ann, 10 % by Bob, 30 % by `src:hold`; Cat holds `src:hold` 100 %, Dan nothing. */
const report: OwnershipReport = {
  graph: {
    rootId: 'src:root',
    nodes: [
      { id: 'src:root', kind: 'COMPANY', name: 'ROOT PTY LTD' },
      { id: 'src:ann', kind: 'PERSON', name: 'Ann LEE' },
      { id: 'src:bob', kind: 'PERSON', name: 'Bob NG' },
      { id: 'src:hold', kind: 'COMPANY', name: 'HOLD PTY LTD' },
      { id: 'src:cat', kind: 'PERSON', name: 'Cat OH' },
    ],
    edges: [
      { ownerId: 'src:ann', ownedId: 'src:root', percent: 60 },
      { ownerId: 'src:bob', ownedId: 'src:root', percent: 10 },
      { ownerId: 'src:hold', ownedId: 'src:root', percent: 30 },
      { ownerId: 'src:cat', ownedId: 'src:hold', percent: 100 },
    ],
    unlinkedOwners: [],
  },
  persons: { 'src:ann': ann, 'src:bob': bob, 'src:cat': cat },
};

const officer = (p: typeof ann, role: Officer['role']): Officer => ({ ...p, role, appointedOn: null });

function facts(overrides: Partial<RegisterFacts> = {}): RegisterFacts {
  return {
    entity: { name: 'ROOT PTY LTD', type: 'COMPANY' },
    abr: null,
    asic: null,
    officers: [officer(ann, 'DIRECTOR'), officer(dan, 'SECRETARY'), officer(ann, 'SECRETARY'), officer(ann, 'DIRECTOR')],
    officersSource: 'AVAILABLE',
    ownership: { source: 'AVAILABLE', report },
    ...overrides,
  };
}

/** `SRC-ANN` → `ent_ann`. */
const idOf = (ref: string) => `ent_${ref.slice(4).toLowerCase()}`;

describe('buildLookupResult', () => {
  it('one party per person with every role once; owners at 25 % or more, direct holders below listed as SHAREHOLDER', () => {
    const result = buildLookupResult(facts(), idOf);
    assert.deepEqual(
      result.parties.map((p) => [p.idvEntityId, p.roles.map((r) => `${r.role}${r.ownershipPercent === null ? '' : ` ${r.ownershipPercent}`}`)]),
      [
        ['ent_ann', ['DIRECTOR', 'SECRETARY', 'UBO 60']],
        ['ent_dan', ['SECRETARY']],
        ['ent_cat', ['UBO 30']],
        ['ent_bob', ['SHAREHOLDER 10']],
      ],
    );
    // Entries by role; officers are directors, secretaries and other officers; total is distinct people.
    assert.deepEqual(result.partyCounts, { beneficialOwners: 2, directors: 1, officers: 3, total: 4 });
  });

  it('keeps our own node ids and idv entities, never the provider’s node ids or party references', () => {
    const { structure } = buildLookupResult(facts(), idOf);
    assert.deepEqual(structure.nodes.map((n) => [n.id, n.kind, n.idvEntityId]), [
      ['n1', 'COMPANY', null],
      ['n2', 'PERSON', 'ent_ann'],
      ['n3', 'PERSON', 'ent_bob'],
      ['n4', 'COMPANY', null],
      ['n5', 'PERSON', 'ent_cat'],
    ]);
    assert.deepEqual(structure.edges, [
      { ownerId: 'n2', ownedId: 'n1', percent: 60 },
      { ownerId: 'n3', ownedId: 'n1', percent: 10 },
      { ownerId: 'n4', ownedId: 'n1', percent: 30 },
      { ownerId: 'n5', ownedId: 'n4', percent: 100 },
    ]);
    assert.deepEqual(structure.beneficialOwners, [
      { nodeId: 'n2', idvEntityId: 'ent_ann', ownershipPercent: 60 },
      { nodeId: 'n5', idvEntityId: 'ent_cat', ownershipPercent: 30 },
    ]);
    assert.equal(structure.completeness, 'HIGH');
    const text = JSON.stringify(structure);
    assert.ok(!text.includes('src:') && !text.includes('SRC-'), text);
  });

  it('no report: officers only, and the structure says why', () => {
    const unavailable = buildLookupResult(facts({ ownership: { source: 'UNAVAILABLE' } }), idOf);
    assert.deepEqual(unavailable.partyCounts, { beneficialOwners: 0, directors: 1, officers: 3, total: 2 });
    assert.deepEqual([unavailable.structure.ownershipSource, unavailable.structure.reason, unavailable.structure.completeness], ['UNAVAILABLE', 'SOURCE_UNAVAILABLE', 'UNKNOWN']);
    const notRequested = buildLookupResult(facts({ ownership: { source: 'NOT_REQUESTED' } }), idOf);
    assert.deepEqual([notRequested.structure.reason, notRequested.structure.nodes], ['NOT_REQUESTED', []]);
  });

  it('refuses a report whose person node has no register party (a provider bug)', () => {
    const broken: OwnershipReport = { ...report, persons: { 'src:ann': ann, 'src:bob': bob } };
    assert.throws(() => buildLookupResult(facts({ ownership: { source: 'AVAILABLE', report: broken } }), idOf), /person node src:cat has no register party/);
  });
});
