// Request and response schemas of ATO payments and the hosted payment page's call: the source of
// validation, types and the OpenAPI document.
import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../platform/http/pagination.ts';
import { exampleId } from '../../platform/ids.ts';

const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);

export const paymentStatuses = ['CREATED', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];
const Status = Type.Union(
  paymentStatuses.map((s) => Type.Literal(s)),
  {
    description:
      'CREATED until the payer submits a card; PROCESSING while a card is being charged and after a retryable decline; then SUCCEEDED or FAILED. CREATED and PROCESSING payments can be CANCELLED.',
  },
);

/** Metadata: your own keys (letters, digits, `_ . : -`, 1–40) and string values (≤ 500). */
export const metadataLimits = { maxKeys: 20, maxKeyLength: 40, maxValueLength: 500, keyPattern: /^[A-Za-z0-9_.:-]+$/ };
const Metadata = Type.Record(Type.String(), Type.String({ maxLength: metadataLimits.maxValueLength }), {
  maxProperties: metadataLimits.maxKeys,
  description: 'Your own keys and string values, returned on the payment and in every payment event: at most 20 keys of 1–40 letters, digits, `_`, `.`, `:` or `-`, each value at most 500 characters.',
});

export const CreatePaymentBody = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Cents (AUD), more than 0 and at most the configured maximum (PAYMENT_MAX_AMOUNT, $100,000 by default).' }),
    prn: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'The ATO payment reference number the payment is for: 12 to 18 digits; spaces are tolerated and removed.',
    }),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Shown to the payer on the payment page (≤ 200 characters).' })),
    contactId: Type.Optional(Type.String({ maxLength: 64, description: 'Your contact (`con_…`) the payment is for; for your records and filters. Unknown or archived: 422 CONTACT_INVALID.' })),
    metadata: Type.Optional(Metadata),
  },
  // $1,250.00 for a PRN as an ATO notice prints it (12 to 18 digits, prn.ts); `contactId` is left out: it must name a contact of yours.
  { additionalProperties: false, examples: [{ amount: 125000, prn: '5510 0456 7891 23', description: 'BAS, September quarter 2026', metadata: { invoice: 'INV-1001' } }] },
);
export type CreatePaymentBody = Static<typeof CreatePaymentBody>;

export const Payment = Type.Object(
  {
    id: Type.String({ description: '`pay_…`' }),
    status: Status,
    amount: Type.Integer({ description: 'Cents (AUD).' }),
    commissionAmount: Type.Integer({ description: 'Your commission in cents: the amount times your commission in basis points, over 10,000, rounded to the nearest cent (halves up). Fixed when the payment is created.' }),
    currency: Type.Literal('AUD'),
    prn: Type.String({ description: 'The ATO payment reference number, digits only.' }),
    description: Type.Union([Type.String(), Type.Null()]),
    contactId: Type.Union([Type.String(), Type.Null()]),
    metadata: Type.Record(Type.String(), Type.String()),
    paymentUrl: Type.Optional(
      Type.String({
        format: 'uri',
        description: 'The hosted payment page to send the payer. Only in the create and `…/link` responses: never on a read, and an Idempotency-Key replay answers without it (regenerate the link).',
      }),
    ),
    linkExpiresAt: Type.Union([DateTime, Type.Null()], { description: 'When the current payment link stops working; null once the payment is SUCCEEDED, FAILED or CANCELLED.' }),
    attempts: Type.Integer({ description: 'Cards the payer has tried.' }),
    failureReason: Type.Union([Type.String(), Type.Null()], { description: 'On FAILED: the gateway’s decline code (`do_not_honor`, `generic_decline` …).' }),
    completedAt: NullableDateTime,
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  {
    $id: 'Payment',
    title: 'Payment',
    // As created by CreatePaymentBody's example, for a partner whose commission is 1 % (100 basis points).
    examples: [
      {
        id: exampleId('payment'),
        status: 'CREATED',
        amount: 125000,
        commissionAmount: 1250,
        currency: 'AUD',
        prn: '55100456789123',
        description: 'BAS, September quarter 2026',
        contactId: null,
        metadata: { invoice: 'INV-1001' },
        paymentUrl: 'https://pvs.example/p/q8Zk3mW1xT0bVn7RcY2hLs9dJf4gPa6eUo5iKw-XyEA',
        linkExpiresAt: '2026-12-05T10:30:00.000Z',
        attempts: 0,
        failureReason: null,
        completedAt: null,
        createdAt: '2026-11-21T10:30:00.000Z',
        updatedAt: '2026-11-21T10:30:00.000Z',
      },
    ],
  },
);
export type Payment = Static<typeof Payment>;

export const PaymentListQuery = ListQuery({
  status: Type.Optional(Type.Union(paymentStatuses.map((s) => Type.Literal(s)), { description: 'Only payments in this status.' })),
  contactId: Type.Optional(Type.String({ maxLength: 64, description: 'Only this contact’s payments.' })),
});

export const PaymentParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The payment (`pay_…`).' }) });

// What a hosted page hands PVS is the same whether it saves a card or pays once: the gateway's token.
export { SaveCardBody as PayBody } from '../billing/billing.schemas.ts';

export const PayResult = Type.Object(
  { status: Status },
  { $id: 'PayResult', title: 'PayResult', examples: [{ status: 'SUCCEEDED' }], description: 'The payment’s status after the card was charged: SUCCEEDED. A decline answers 402 CARD_DECLINED instead.' },
);
