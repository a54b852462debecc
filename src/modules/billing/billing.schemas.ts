// Request and response schemas of contacts, card links and charges: the source of validation,
// types and the OpenAPI document.
import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../platform/http/pagination.ts';
import { exampleId } from '../../platform/ids.ts';
import { products } from './prices.ts';

const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);
const literals = <V extends string>(values: readonly V[], description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

// Names are what a person or business is called; any script, but no control characters. A failed
// pattern answers its x-message (platform/http/validation.ts), never the expression.
const Name = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$',
  'x-message': 'must contain a non-space character, and no line breaks or tabs',
  description: 'The contact’s name (1–200 characters).',
});
const Email = Type.String({ format: 'email', maxLength: 254, description: 'Where the contact is reached; PVS does not write to it.' });
const ExternalId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[\\x21-\\x7E]+$',
  'x-message': 'must be visible ASCII characters without spaces (1–100)',
  description: 'Your own id for the contact (visible ASCII, ≤ 100).',
  examples: ['CRM-10428'],
});

export const Card = Type.Object(
  {
    brand: Type.String({ description: '`visa`, `mastercard`, `amex` …' }),
    last4: Type.String({ pattern: '^[0-9]{4}$' }),
    expMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expYear: Type.Integer(),
  },
  { $id: 'Card', title: 'Card', description: 'A summary of the saved card; never its number.', examples: [{ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 }] },
);
export type Card = Static<typeof Card>;

export const billingStatuses = ['NO_PAYMENT_METHOD', 'BILLABLE', 'BLOCKED'] as const;
export type BillingStatus = (typeof billingStatuses)[number];

export const Contact = Type.Object(
  {
    id: Type.String({ description: '`con_…`' }),
    name: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    externalId: Type.Union([Type.String(), Type.Null()]),
    billingStatus: literals(billingStatuses, 'NO_PAYMENT_METHOD until a card is saved; BILLABLE; BLOCKED after a declined billing run (until a retry succeeds or a new card is saved) or while `billingBlocked`.'),
    billingBlocked: Type.Boolean({ description: 'You stopped billing this contact (PATCH); checks billed to it are refused.' }),
    card: Type.Union([Card, Type.Null()]),
    archivedAt: NullableDateTime,
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  {
    $id: 'Contact',
    title: 'Contact',
    // As created by CreateContactBody's example: no card saved yet.
    examples: [
      {
        id: exampleId('contact'),
        name: 'Wattle Creek Logistics Pty Ltd',
        email: 'accounts@wattlecreek.example',
        externalId: 'CRM-10428',
        billingStatus: 'NO_PAYMENT_METHOD',
        billingBlocked: false,
        card: null,
        archivedAt: null,
        createdAt: '2026-11-21T10:15:00.000Z',
        updatedAt: '2026-11-21T10:15:00.000Z',
      },
    ],
  },
);
export type Contact = Static<typeof Contact>;

export const CreateContactBody = Type.Object(
  { name: Name, email: Type.Optional(Email), externalId: Type.Optional(ExternalId) },
  { additionalProperties: false, examples: [{ name: 'Wattle Creek Logistics Pty Ltd', email: 'accounts@wattlecreek.example', externalId: 'CRM-10428' }] },
);
export type CreateContactBody = Static<typeof CreateContactBody>;

export const UpdateContactBody = Type.Object(
  {
    name: Type.Optional(Name),
    email: Type.Optional(Type.Union([Email, Type.Null()])),
    externalId: Type.Optional(Type.Union([ExternalId, Type.Null()])),
    billingBlocked: Type.Optional(Type.Boolean({ description: 'true stops billing to this contact; false lets it be billed again.' })),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ email: 'payables@wattlecreek.example' }] },
);
export type UpdateContactBody = Static<typeof UpdateContactBody>;

export const ContactListQuery = ListQuery({ externalId: Type.Optional(ExternalId) });

export const ContactParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The contact (`con_…`).' }) });

export const CardLink = Type.Object(
  {
    url: Type.Optional(Type.String({ description: 'The single-use card page. In this response only: an Idempotency-Key replay answers without it (mint a new link).' })),
    expiresAt: DateTime,
  },
  { $id: 'CardLink', title: 'CardLink', examples: [{ url: 'https://pvs.example/c/Hd0cjXiaPf47IALoqM4KjIDCTxRYlswl3uI4oK339HY', expiresAt: '2026-11-22T10:15:00.000Z' }] },
);
export type CardLink = Static<typeof CardLink>;

export const chargeStatuses = ['PENDING', 'BILLED', 'CAPTURED', 'FAILED', 'VOID'] as const;
export type ChargeStatus = (typeof chargeStatuses)[number];

export const Charge = Type.Object(
  {
    id: Type.String({ description: '`chg_…`' }),
    contactId: Type.Union([Type.String(), Type.Null()]),
    billedTo: literals(['PARTNER', 'CONTACT'] as const, 'PARTNER (your account) or CONTACT (the contact’s card).'),
    product: literals(products, 'What was charged for.'),
    referenceId: Type.String({ description: 'The lookup, individual or deed analysis charged for.' }),
    amount: Type.Integer({ description: 'Cents (AUD).' }),
    status: literals(
      chargeStatuses,
      'PARTNER charges are BILLED to your account. CONTACT charges are PENDING in an open billing run, then CAPTURED or FAILED (a retry can still capture them). VOID: the work failed on our side; a captured charge is refunded.',
    ),
    billingRunId: Type.Union([Type.String(), Type.Null()], { description: 'The contact’s billing run (`brn_…`); null for PARTNER charges.' }),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  {
    $id: 'Charge',
    title: 'Charge',
    examples: [
      {
        id: exampleId('charge'),
        contactId: null,
        billedTo: 'PARTNER',
        product: 'BUSINESS_LOOKUP_FULL',
        referenceId: exampleId('lookup'),
        amount: 1500,
        status: 'BILLED',
        billingRunId: null,
        createdAt: '2026-11-21T10:20:00.000Z',
        updatedAt: '2026-11-21T10:20:02.000Z',
      },
    ],
  },
);
export type Charge = Static<typeof Charge>;

export const ChargeListQuery = ListQuery({ contactId: Type.Optional(Type.String({ maxLength: 64, description: 'Only this contact’s charges.' })) });

export const ChargeParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The charge (`chg_…`).' }) });

export const SaveCardBody = Type.Object(
  {
    paymentToken: Type.String({
      minLength: 4,
      maxLength: 255,
      pattern: '^[A-Za-z0-9_]+$',
      'x-message': 'must be the gateway’s token: letters, digits and underscores',
      description: 'The gateway’s token for the card (`tok_…`, or `pm_…` from Stripe.js).',
    }),
  },
  { additionalProperties: false },
);

export const SavedCard = Type.Object({ billingStatus: literals(billingStatuses, 'The contact’s billing status now.'), card: Card }, { $id: 'SavedCard', title: 'SavedCard' });
