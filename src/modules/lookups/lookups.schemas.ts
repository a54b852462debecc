// Request and response schemas of business lookups: the source of validation, types and the OpenAPI document.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ListQuery } from '../../platform/http/pagination.ts';
import { exampleId } from '../../platform/ids.ts';

const DateTime = Type.String({ format: 'date-time' });
const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const literals = <V extends string>(values: readonly V[], description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

export const scopes = ['FULL', 'ASIC_ONLY', 'UBO_ONLY'] as const;
export const lookupStatuses = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export const failureReasons = ['NOT_FOUND', 'IDENTIFIER_MISMATCH', 'REGISTER_UNAVAILABLE'] as const;
export const entityTypes = ['COMPANY', 'SOLE_TRADER', 'PARTNERSHIP', 'TRUST', 'OTHER'] as const;
export const partyRoles = ['DIRECTOR', 'SECRETARY', 'OFFICER', 'UBO', 'SHAREHOLDER', 'INDIVIDUAL_OWNER'] as const;

const Scope = literals(scopes, 'FULL (default): register facts, officers and the multi-level UBO report. ASIC_ONLY: register facts and officers, no UBO report. UBO_ONLY: the UBO report only (register facts name the entity).');

// Digits with spaces tolerated; the check digits are validated by the service, which says which rule failed.
const Identifier = (description: string) => Type.String({ minLength: 1, maxLength: 32, description });

export const CreateLookupBody = Type.Object(
  {
    abn: Type.Optional(Identifier('Australian Business Number: 11 digits, spaces allowed, valid check digits. One of abn or acn is required.')),
    acn: Type.Optional(Identifier('Australian Company Number: 9 digits, spaces allowed, valid check digit. With abn too, both must name the same company.')),
    scope: Type.Optional(Scope),
    contactId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Bill the lookup to this contact’s saved card instead of your account.' })),
    channelPartnerId: Type.Optional(Type.String({ maxLength: 64, description: 'Ignored: the partner is the one the credentials resolve to.' })),
  },
  // The sandbox's WATTLE CREEK LOGISTICS (docs/lookups.md, "Sandbox identifiers"), billed to your account.
  { additionalProperties: false, examples: [{ abn: '54 222 222 228', scope: 'FULL' }] },
);
export type CreateLookupBody = Static<typeof CreateLookupBody>;

export const LookupCreated = Type.Object(
  { lookupRequestId: Type.String({ description: '`lkp_…`: correlate the webhook on it.' }) },
  { $id: 'LookupCreated', title: 'LookupCreated', examples: [{ lookupRequestId: exampleId('lookup') }] },
);

export const PartyCounts = Type.Object(
  {
    beneficialOwners: Type.Integer({ description: 'Entries with role UBO.' }),
    directors: Type.Integer({ description: 'Entries with role DIRECTOR.' }),
    officers: Type.Integer({ description: 'Entries with role DIRECTOR, SECRETARY or OFFICER.' }),
    total: Type.Integer({ description: 'Distinct parties (a director who is also an owner counts once).' }),
  },
  { $id: 'PartyCounts', title: 'PartyCounts' },
);

export const LookupIndividual = Type.Object(
  {
    idvEntityId: Type.String({ description: '`ent_…`: bind it to a verification; the same person has the same id in every role.' }),
    role: literals(partyRoles, 'One entry per (person, role).'),
    name: Type.String({ description: 'The name on the register (personal information).' }),
    ownershipPercent: nullable(Type.Number({ description: 'UBO: the indirect holding (products along each path, summed); SHAREHOLDER: the direct holding.' })),
  },
  { $id: 'LookupIndividual', title: 'LookupIndividual' },
);

// What the sandbox answers for WATTLE CREEK LOGISTICS (54 222 222 228): the examples of the record and its views.
const lookedUpAt = { createdAt: '2026-11-21T10:20:00.000Z', updatedAt: '2026-11-21T10:20:02.000Z', completedAt: '2026-11-21T10:20:02.000Z' };
const people = {
  kingsley: { idvEntityId: exampleId('idvEntity', 1), name: 'Oliver James KINGSLEY' },
  fairbairn: { idvEntityId: exampleId('idvEntity', 2), name: 'Priscilla Mary FAIRBAIRN' },
  merriweather: { idvEntityId: exampleId('idvEntity', 3), name: 'Daniel Hugh MERRIWEATHER' },
};
const lookupFacts = {
  lookupRequestId: exampleId('lookup'),
  status: 'COMPLETED',
  scope: 'FULL',
  abn: '54222222228',
  acn: null,
  failureReason: null,
  contactId: null,
  entity: { name: 'WATTLE CREEK LOGISTICS PTY LTD', type: 'COMPANY' },
  partyCounts: { beneficialOwners: 3, directors: 2, officers: 3, total: 3 },
};
const lookupSummaryExample = { ...lookupFacts, uboCount: 3, ...lookedUpAt };
const lookupExample = {
  ...lookupFacts,
  individuals: [
    { idvEntityId: people.kingsley.idvEntityId, role: 'DIRECTOR', name: people.kingsley.name, ownershipPercent: null },
    { idvEntityId: people.kingsley.idvEntityId, role: 'SECRETARY', name: people.kingsley.name, ownershipPercent: null },
    { idvEntityId: people.kingsley.idvEntityId, role: 'UBO', name: people.kingsley.name, ownershipPercent: 40 },
    { idvEntityId: people.fairbairn.idvEntityId, role: 'DIRECTOR', name: people.fairbairn.name, ownershipPercent: null },
    { idvEntityId: people.fairbairn.idvEntityId, role: 'UBO', name: people.fairbairn.name, ownershipPercent: 30 },
    { idvEntityId: people.merriweather.idvEntityId, role: 'UBO', name: people.merriweather.name, ownershipPercent: 30 },
  ],
  uboCount: 3,
  ...lookedUpAt,
};

export const Lookup = Type.Object(
  {
    lookupRequestId: Type.String(),
    status: literals(lookupStatuses, 'PENDING until the registers were read; then COMPLETED or FAILED.'),
    scope: Scope,
    abn: nullable(Type.String({ description: 'As given, digits only.' })),
    acn: nullable(Type.String({ description: 'As given, digits only.' })),
    failureReason: nullable(literals(failureReasons, 'On FAILED only. A failed lookup is not billed.')),
    contactId: nullable(Type.String({ description: 'The contact it is billed to; null: your account.' })),
    entity: nullable(
      Type.Object({
        name: Type.String({ description: 'Registered company name, else the business register name. For a sole trader a person’s name: personal information.' }),
        type: literals(entityTypes, 'The kind of entity.'),
      }),
    ),
    partyCounts: nullable(PartyCounts),
    individuals: Type.Array(LookupIndividual, { description: 'Empty until COMPLETED.' }),
    uboCount: nullable(Type.Integer({ description: 'Kept for compatibility; equals partyCounts.beneficialOwners.' })),
    createdAt: DateTime,
    updatedAt: DateTime,
    completedAt: nullable(DateTime),
  },
  { $id: 'Lookup', title: 'Lookup', examples: [lookupExample] },
);
export type Lookup = Static<typeof Lookup>;

/** The list leaves individuals out: read one lookup for them. */
export const LookupSummary = Type.Omit(Lookup, ['individuals'], { $id: 'LookupSummary', title: 'LookupSummary', examples: [lookupSummaryExample] });
export type LookupSummary = Static<typeof LookupSummary>;

export const LookupListQuery = ListQuery({ status: Type.Optional(literals(lookupStatuses, 'Only lookups in this status.')) });
export const LookupParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The lookup (`lkp_…`).' }) });

export const ConditionalHeaders = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({ maxLength: 1024, description: 'The ETag of an earlier answer: 304 when unchanged, and no read budget spent.', examples: ['W/"mD4sQ0cY2Xn8bVt1kR7eLp5aZ3w"'] }),
  ),
});

export const Registry = Type.Object(
  {
    lookupRequestId: Type.String(),
    retrievedAt: Type.String({ format: 'date-time', description: 'When the registers were read (by the lookup; a read of this view never reads them again).' }),
    abr: nullable(
      Type.Object({
        abn: Type.String(),
        status: literals(['ACTIVE', 'CANCELLED'] as const, 'The ABN’s status.'),
        statusFrom: nullable(Day),
        entityName: Type.String(),
        entityType: literals(entityTypes, 'The kind of entity.'),
        gstRegisteredFrom: nullable(Day),
        businessNames: Type.Array(Type.String()),
        state: nullable(Type.String()),
        postcode: nullable(Type.String()),
      }),
    ),
    asic: nullable(
      Type.Object({
        acn: Type.String(),
        name: Type.String(),
        type: Type.String({ description: 'ASIC’s code: APTY proprietary, APUB public…' }),
        class: nullable(Type.String({ description: 'ASIC’s code: LMSH limited by shares…' })),
        status: Type.String({ description: 'ASIC’s code: REGD registered, DRGD deregistered, EXAD external administration, SOFF strike-off…' }),
        registeredOn: nullable(Day),
        deregisteredOn: nullable(Day),
      }),
    ),
    officersSource: literals(['AVAILABLE', 'UNAVAILABLE', 'NOT_REQUESTED'] as const, 'Whether officers were read: NOT_REQUESTED for UBO_ONLY and businesses that are not companies.'),
  },
  {
    $id: 'Registry',
    title: 'Registry',
    examples: [
      {
        lookupRequestId: exampleId('lookup'),
        retrievedAt: lookedUpAt.completedAt,
        abr: {
          abn: '54222222228',
          status: 'ACTIVE',
          statusFrom: '2009-11-02',
          entityName: 'WATTLE CREEK LOGISTICS PTY LTD',
          entityType: 'COMPANY',
          gstRegisteredFrom: '2009-12-01',
          businessNames: ['Wattle Creek Freight'],
          state: 'VIC',
          postcode: '3029',
        },
        asic: { acn: '222222228', name: 'WATTLE CREEK LOGISTICS PTY LTD', type: 'APTY', class: 'LMSH', status: 'REGD', registeredOn: '2009-11-02', deregisteredOn: null },
        officersSource: 'AVAILABLE',
      },
    ],
  },
);
export type Registry = Static<typeof Registry>;

const Address = Type.Object({ line1: Type.String(), locality: Type.String(), state: Type.String(), postcode: Type.String(), country: Type.String({ description: 'ISO 3166-1 alpha-2' }) });
const NodeKind = literals(['COMPANY', 'PERSON', 'TRUST', 'OTHER'] as const, 'What the node is.');

export const Ownership = Type.Object(
  {
    lookupRequestId: Type.String(),
    structureAsOf: nullable(Type.String({ format: 'date-time', description: 'When the structure was determined (by the lookup).' })),
    ownershipSource: literals(['AVAILABLE', 'UNAVAILABLE', 'NOT_REQUESTED'] as const, 'AVAILABLE: the UBO report was read. UNAVAILABLE: it could not be, or the business has no ownership register (not a company). NOT_REQUESTED: ASIC_ONLY.'),
    complete: Type.Boolean(),
    truncated: Type.Boolean({ description: 'The chain went deeper than the traversal limit (6 levels).' }),
    traversalComplete: nullable(Type.Boolean()),
    reason: literals(['COMPLETE', 'TRUNCATED', 'BLOCKED_NODES', 'UNLINKED_OWNERS', 'SOURCE_UNAVAILABLE', 'NOT_REQUESTED', 'UNKNOWN'] as const, 'Why the result is as complete as it is.'),
    completeness: literals(['HIGH', 'PARTIAL', 'UNKNOWN'] as const, 'SPEC’s three rules, UNKNOWN over PARTIAL over HIGH. Present HIGH as a full owner list, PARTIAL as owners found so far with the gaps named, UNKNOWN as no owner finding.'),
    nodes: Type.Array(
      Type.Object({
        id: Type.String({ description: '`n1` is the company looked up.' }),
        kind: NodeKind,
        name: Type.String(),
        idvEntityId: nullable(Type.String()),
        acn: nullable(Type.String({ description: 'A company’s ACN (9 digits); null for other kinds.' })),
        abn: nullable(Type.String({ description: 'A company’s ABN (11 digits) where the source knows it.' })),
      }),
    ),
    edges: Type.Array(Type.Object({ ownerId: Type.String(), ownedId: Type.String(), percent: Type.Number() })),
    blockedNodes: Type.Array(Type.Object({ nodeId: Type.String(), kind: NodeKind, name: Type.String(), ownershipPercent: Type.Number({ description: 'Of the company looked up, held through this node.' }) }), {
      description: 'Entities the traversal cannot see past, such as trusts.',
    }),
    unlinkedOwners: Type.Array(Type.Object({ name: Type.String(), ownedId: Type.String(), percent: nullable(Type.Number()) }), { description: 'Owners named by the source but not linkable to a node.' }),
    personalDetails: literals(['AVAILABLE', 'UNAVAILABLE', 'NOT_APPLICABLE'] as const, 'Whether the owners’ dates of birth and addresses could be read live for this answer.'),
    beneficialOwners: Type.Array(
      Type.Object({
        idvEntityId: Type.String(),
        name: Type.Object({ givenNames: Type.String(), familyName: Type.String() }),
        dateOfBirth: nullable(Day),
        address: nullable(Address),
        ownershipPercent: Type.Number(),
        screening: Type.Object({
          status: literals(['CLEAR', 'POSSIBLE_MATCH', 'UNAVAILABLE'] as const, 'Screened now, against the current sanctions and PEP list version.'),
          categories: Type.Array(Type.String(), { description: 'SANCTIONS, PEP, ADVERSE_MEDIA… of the possible matches.' }),
        }),
      }),
      { description: 'Persons holding 25 % or more, directly or indirectly. Personal details are read live and never stored.' },
    ),
  },
  { $id: 'Ownership', title: 'Ownership', examples: [ownershipExample()] },
);
export type Ownership = Static<typeof Ownership>;

/** 40 % held by a person, 60 % through a holding company owned 50/50: three owners at 40/30/30 %. */
function ownershipExample() {
  const person = (node: string, who: typeof people.kingsley) => ({ id: node, kind: 'PERSON', name: who.name, idvEntityId: who.idvEntityId, acn: null, abn: null });
  const owner = (who: typeof people.kingsley, givenNames: string, familyName: string, dateOfBirth: string, address: Static<typeof Address>, ownershipPercent: number) => ({
    idvEntityId: who.idvEntityId,
    name: { givenNames, familyName },
    dateOfBirth,
    address,
    ownershipPercent,
    screening: { status: 'CLEAR', categories: [] },
  });
  return {
    lookupRequestId: exampleId('lookup'),
    structureAsOf: lookedUpAt.completedAt,
    ownershipSource: 'AVAILABLE',
    complete: true,
    truncated: false,
    traversalComplete: true,
    reason: 'COMPLETE',
    completeness: 'HIGH',
    nodes: [
      { id: 'n1', kind: 'COMPANY', name: 'WATTLE CREEK LOGISTICS PTY LTD', idvEntityId: null, acn: '222222228', abn: '54222222228' },
      person('n2', people.kingsley),
      { id: 'n3', kind: 'COMPANY', name: 'FAIRBAIRN MERRIWEATHER HOLDINGS PTY LTD', idvEntityId: null, acn: '333333332', abn: '88333333332' },
      person('n4', people.fairbairn),
      person('n5', people.merriweather),
    ],
    edges: [
      { ownerId: 'n2', ownedId: 'n1', percent: 40 },
      { ownerId: 'n3', ownedId: 'n1', percent: 60 },
      { ownerId: 'n4', ownedId: 'n3', percent: 50 },
      { ownerId: 'n5', ownedId: 'n3', percent: 50 },
    ],
    blockedNodes: [],
    unlinkedOwners: [],
    personalDetails: 'AVAILABLE',
    beneficialOwners: [
      owner(people.kingsley, 'Oliver James', 'KINGSLEY', '1974-08-11', { line1: '67 Kurrajong Lane', locality: 'NORWOOD', state: 'SA', postcode: '5067', country: 'AU' }, 40),
      owner(people.fairbairn, 'Priscilla Mary', 'FAIRBAIRN', '1978-12-22', { line1: '42 Melaleuca Crescent', locality: 'NORWOOD', state: 'SA', postcode: '5067', country: 'AU' }, 30),
      owner(people.merriweather, 'Daniel Hugh', 'MERRIWEATHER', '1967-12-27', { line1: '73 Grevillea Drive', locality: 'BALLARAT', state: 'VIC', postcode: '3350', country: 'AU' }, 30),
    ],
  };
}
