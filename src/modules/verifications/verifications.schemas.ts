// Request and response schemas of verification requests, their individuals and links: the source of
// validation, types and the OpenAPI document. No schema here takes a person's name, email or phone.
import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../platform/http/pagination.ts';
import { optionalBodyKeyword } from '../../platform/http/validation.ts';
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
  { additionalProperties: false },
);
export type CreateVerificationBody = Static<typeof CreateVerificationBody>;

export const AddIndividualBody = Type.Object(
  { role: Role, roleDescription: Type.Optional(RoleDescription), externalId: Type.Optional(ExternalId) },
  { additionalProperties: false },
);
export type AddIndividualBody = Static<typeof AddIndividualBody>;

export const StructureConfirmationBody = Type.Object({ confirmed: Type.Boolean({ description: 'true confirms the list of people; false sends it back to UBO_REVIEW.' }) }, { additionalProperties: false });

export const LinksBody = Type.Object(
  { individualIds: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 100, uniqueItems: true, description: 'Only these individuals; all that are not finished when omitted.' })) },
  { additionalProperties: false, [optionalBodyKeyword]: true },
);

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
    idvEntityId: Type.Union([Type.String(), Type.Null()], { description: 'The lookup party this individual is (SPEC rule 7); null on a hand-built request.' }),
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
  { $id: 'VerificationIndividual', title: 'VerificationIndividual' },
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
  { $id: 'Verification', title: 'Verification' },
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
  { $id: 'MintedLinks', title: 'MintedLinks' },
);
