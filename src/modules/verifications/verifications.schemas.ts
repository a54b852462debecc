// Request and response schemas of verification requests, their individuals and links: the source of
// validation, types and the OpenAPI document. No schema here takes a person's name, email or phone.
import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../platform/http/pagination.ts';
import { optionalBodyKeyword } from '../../platform/http/validation.ts';
import { exampleId } from '../../platform/ids.ts';
import { verificationRoles } from './roles.ts';

const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);
const literals = <V extends string>(values: readonly V[], description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

export const modes = ['AUSTRAC_CDD', 'TPB_POI'] as const;
export const requestStatuses = ['DRAFT', 'UBO_REVIEW', 'READY_TO_SEND', 'VERIFICATIONS_SENT', 'COMPLETED'] as const;
export type RequestStatus = (typeof requestStatuses)[number];
export const individualStatuses = ['PENDING', 'IN_PROGRESS', 'PASSED', 'MANUALLY_PASSED', 'FAILED', 'MANUAL_REVIEW', 'LOCKED_OUT'] as const;
export type IndividualStatus = (typeof individualStatuses)[number];
export const terminalStatuses: readonly IndividualStatus[] = ['PASSED', 'MANUALLY_PASSED', 'FAILED', 'LOCKED_OUT'];

/** The fields a partner may never send: the person gives them on the verification page. */
export const personalFields = ['firstName', 'lastName', 'email', 'phone'] as const;

const ExternalId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[\\x21-\\x7E]+$',
  'x-message': 'must be visible ASCII characters without spaces (1–100)',
  description: 'Your own opaque id for the individual (visible ASCII, ≤ 100); returned in every event about them.',
});
const Role = Type.String({
  minLength: 1,
  maxLength: 64,
  description: `A VerificationRole: ${verificationRoles.join(', ')}. Any other value is stored as OTHER.`,
});
const RoleDescription = Type.String({ minLength: 1, maxLength: 200, description: 'Free text about the role (≤ 200 characters).' });

export const CreateVerificationBody = Type.Object(
  {
    mode: literals(modes, 'AUSTRAC_CDD: customer due diligence of an entity; TPB_POI: proof of identity for the tax practitioner regulator.'),
    lookupRequestId: Type.Optional(Type.String({ maxLength: 64, description: 'A COMPLETED FULL or UBO_ONLY business lookup of yours to bind: its parties become the individuals.' })),
    individuals: Type.Optional(
      Type.Array(
        Type.Object(
          {
            idvEntityId: Type.Optional(Type.String({ maxLength: 64, description: 'With lookupRequestId: the party of the lookup to verify (`ent_…`).' })),
            externalId: Type.Optional(ExternalId),
            role: Type.Optional(Role),
            roleDescription: Type.Optional(RoleDescription),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100, description: 'With a lookup: the parties to bind (all when omitted). Without: the people to verify, by role; never their names.' },
      ),
    ),
    entityName: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Display only; a bound lookup’s entity name by default.' })),
    contactId: Type.Optional(Type.String({ maxLength: 64, description: 'Bills each individual’s verification to this contact’s saved card (the billing gate runs at create).' })),
    structureConfirmed: Type.Optional(Type.Boolean({ description: 'You confirm a hand-built list of people is the whole structure (AUSTRAC_CDD): the request is READY_TO_SEND at once.' })),
    channelPartnerId: Type.Optional(Type.String({ maxLength: 64, description: 'Ignored: your partner id comes from X-Partner-Id.' })),
  },
  {
    additionalProperties: false,
    // Hand-built, so that it needs nothing made before it; bound to a lookup it is `{"mode": "AUSTRAC_CDD", "lookupRequestId": "lkp_…"}`.
    examples: [
      {
        mode: 'AUSTRAC_CDD',
        entityName: 'Wattle Creek Logistics Pty Ltd',
        individuals: [
          { externalId: 'CRM-10428-1', role: 'DIRECTOR' },
          { externalId: 'CRM-10428-2', role: 'UBO', roleDescription: 'Holds 40 % of the shares' },
        ],
        structureConfirmed: true,
      },
    ],
  },
);
export type CreateVerificationBody = Static<typeof CreateVerificationBody>;

export const AddIndividualBody = Type.Object(
  { role: Role, roleDescription: Type.Optional(RoleDescription), externalId: Type.Optional(ExternalId) },
  { additionalProperties: false, examples: [{ role: 'UBO', roleDescription: 'Holds 30 % through a holding company', externalId: 'CRM-10428-3' }] },
);
export type AddIndividualBody = Static<typeof AddIndividualBody>;

export const StructureConfirmationBody = Type.Object(
  { confirmed: Type.Boolean({ description: 'true confirms the list of people; false sends it back to UBO_REVIEW.' }) },
  { additionalProperties: false, examples: [{ confirmed: true }] },
);

export const LinksBody = Type.Object(
  { individualIds: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 100, uniqueItems: true, description: 'Only these individuals; all that are not finished when omitted.' })) },
  // Every individual that is not finished; `individualIds` names some of them (`ind_…` of this request).
  { additionalProperties: false, [optionalBodyKeyword]: true, examples: [{}] },
);

// The hand-built request of CreateVerificationBody's example, as created: READY_TO_SEND, nobody verified yet.
const createdAt = '2026-11-21T10:25:00.000Z';
const individualExample = (n: number, externalId: string, role: string, roleDescription: string | null) => ({
  id: exampleId('individual', n),
  externalId,
  idvEntityId: null,
  role,
  roleDescription,
  status: 'PENDING',
  attemptCount: 0,
  maxAttempts: 3,
  manualOverride: false,
  completedAt: null,
  checkResults: [],
  createdAt,
});
const verificationExample = {
  id: exampleId('verification'),
  mode: 'AUSTRAC_CDD',
  status: 'READY_TO_SEND',
  lookupRequestId: null,
  entityName: 'Wattle Creek Logistics Pty Ltd',
  contactId: null,
  structureConfirmed: true,
  riskLevel: 'UNKNOWN',
  completedAt: null,
  issueList: [],
  checkResults: [],
  individuals: [individualExample(1, 'CRM-10428-1', 'DIRECTOR', null), individualExample(2, 'CRM-10428-2', 'UBO', 'Holds 40 % of the shares')],
  createdAt,
  updatedAt: createdAt,
};

const CheckResult = Type.Object(
  {
    name: Type.String(),
    checkType: Type.String({ description: 'Provider-defined; tolerate unknown values.' }),
    result: Type.String({ description: 'Provider-defined; tolerate unknown values.' }),
    code: Type.String({ description: 'Provider-defined; tolerate unknown values.' }),
    message: Type.Optional(Type.String()),
  },
  { title: 'CheckResult' },
);

const Issue = Type.Object({ individualId: Type.Optional(Type.String()), code: Type.String(), message: Type.String() }, { title: 'Issue' });

export const Individual = Type.Object(
  {
    id: Type.String({ description: '`ind_…`' }),
    externalId: Type.Union([Type.String(), Type.Null()]),
    idvEntityId: Type.Union([Type.String(), Type.Null()], { description: 'The lookup party this individual is, as the lookup’s `individuals[].idvEntityId` names it ([bound to a lookup](docs/verifications.md#1-create-a-request)); null on a hand-built request.' }),
    role: literals(verificationRoles, 'The VerificationRole.'),
    roleDescription: Type.Union([Type.String(), Type.Null()]),
    status: literals(individualStatuses, 'PENDING until the link is opened; IN_PROGRESS; then PASSED, MANUALLY_PASSED, FAILED, MANUAL_REVIEW (an operator decides) or LOCKED_OUT.'),
    attemptCount: Type.Integer(),
    maxAttempts: Type.Integer(),
    manualOverride: Type.Boolean({ description: 'An operator decided the outcome.' }),
    completedAt: NullableDateTime,
    checkResults: Type.Array(CheckResult),
    createdAt: DateTime,
  },
  { $id: 'VerificationIndividual', title: 'VerificationIndividual', examples: [individualExample(3, 'CRM-10428-3', 'UBO', 'Holds 30 % through a holding company')] },
);
export type Individual = Static<typeof Individual>;

export const Verification = Type.Object(
  {
    id: Type.String({ description: '`ver_…`' }),
    mode: literals(modes, 'The mode given at create.'),
    status: literals(requestStatuses, 'See [the state table](docs/verifications.md#2-request-states).'),
    lookupRequestId: Type.Union([Type.String(), Type.Null()], { description: 'The bound lookup; null for a hand-built request.' }),
    entityName: Type.Union([Type.String(), Type.Null()]),
    contactId: Type.Union([Type.String(), Type.Null()]),
    structureConfirmed: Type.Boolean(),
    riskLevel: literals(['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN'] as const, 'The overall risk level; UNKNOWN until checks have run.'),
    completedAt: NullableDateTime,
    issueList: Type.Array(Issue),
    checkResults: Type.Array(CheckResult, { description: 'Every individual’s checks, in individual order.' }),
    individuals: Type.Array(Individual),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Verification', title: 'Verification', examples: [verificationExample] },
);
export type Verification = Static<typeof Verification>;

export const VerificationListQuery = ListQuery({
  status: Type.Optional(literals(requestStatuses, 'Only requests in this status.')),
  lookupRequestId: Type.Optional(Type.String({ maxLength: 64, description: 'Only requests bound to this lookup.' })),
});

export const VerificationParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The verification request (`ver_…`).' }) });

export const MintedLinks = Type.Object(
  {
    individuals: Type.Array(
      Type.Object({
        id: Type.String(),
        externalId: Type.Union([Type.String(), Type.Null()]),
        verificationUrl: Type.String({ format: 'uri', description: 'Single use, 7 days; shown only here. Minting again replaces it.' }),
        expiresAt: DateTime,
      }),
    ),
  },
  {
    $id: 'MintedLinks',
    title: 'MintedLinks',
    examples: [
      {
        individuals: verificationExample.individuals.map((individual, i) => ({
          id: individual.id,
          externalId: individual.externalId,
          verificationUrl: `https://pvs.example/v/${['q8Zk3mW1xT0bVn7RcY2hLs9dJf4gPa6eUo5iKw-XyEA', 'Zb4nT1cW7kQe2Ls9Rv3Ym6Hx0Dj5Gp8Ua-Fi_Ko1NwE'][i]}`,
          expiresAt: '2026-11-28T10:25:00.000Z',
        })),
      },
    ],
  },
);
