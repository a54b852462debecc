// Request and response schemas of business lookups: the source of validation, types and the OpenAPI document.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ListQuery } from '../../platform/http/pagination.ts';

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
  { additionalProperties: false },
);
export type CreateLookupBody = Static<typeof CreateLookupBody>;

export const LookupCreated = Type.Object(
  { lookupRequestId: Type.String({ description: '`lkp_…`: correlate the webhook on it.' }) },
  { $id: 'LookupCreated', title: 'LookupCreated' },
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
  { $id: 'Lookup', title: 'Lookup' },
);
export type Lookup = Static<typeof Lookup>;

/** The list leaves individuals out: read one lookup for them. */
export const LookupSummary = Type.Omit(Lookup, ['individuals'], { $id: 'LookupSummary', title: 'LookupSummary' });
export type LookupSummary = Static<typeof LookupSummary>;

export const LookupListQuery = ListQuery({ status: Type.Optional(literals(lookupStatuses, 'Only lookups in this status.')) });
export const LookupParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The lookup (`lkp_…`).' }) });

export const ConditionalHeaders = Type.Object({
  'if-none-match': Type.Optional(Type.String({ maxLength: 1024, description: 'The ETag of an earlier answer: 304 when unchanged, and no read budget spent.' })),
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
  { $id: 'Registry', title: 'Registry' },
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
  { $id: 'Ownership', title: 'Ownership' },
);
export type Ownership = Static<typeof Ownership>;
