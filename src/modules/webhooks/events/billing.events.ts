// Customer billing events; every one carries contactId and channelPartnerId (SPEC).
import { Type } from '@sinclair/typebox';
import { defineEvent, fields, nullable, Timestamp } from './define.ts';

const contact = {
  contactId: Type.String({ description: 'The contact (`con_…`).' }),
  channelPartnerId: Type.String({ description: 'Your partner id (`ptn_…`).' }),
};
const ids = { contactId: 'con_01JD0000000000000000000000', channelPartnerId: 'ptn_01JD0000000000000000000000' };
const card = fields(
  {
    brand: Type.String({ description: 'Card brand, such as `visa` or `mastercard`.' }),
    last4: Type.String({ pattern: '^[0-9]{4}$', description: 'Last four digits of the card number.' }),
    expMonth: Type.Integer({ minimum: 1, maximum: 12, description: 'Expiry month.' }),
    expYear: Type.Integer({ description: 'Expiry year (four digits).' }),
  },
  { description: 'The saved card; never its number.' },
);
const run = {
  billingRunId: Type.String({ description: 'The billing run (`brn_…`).' }),
  amount: Type.Integer({ minimum: 0, description: 'Total of the run, in cents (AUD).' }),
};

export const contactCardSaved = defineEvent({
  type: 'contact.card.saved',
  category: 'CONTACT_BILLING',
  description: 'The contact saves a card with a verified payment consent; the contact becomes billable.',
  subject: 'contactId',
  payload: fields({ ...contact, card }),
  example: { ...ids, card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 } },
});

export const contactCardRemoved = defineEvent({
  type: 'contact.card.removed',
  category: 'CONTACT_BILLING',
  description: 'The saved card is removed; the contact is not billable until another is saved.',
  subject: 'contactId',
  payload: fields(contact),
  example: ids,
});

export const contactBillingRunCreated = defineEvent({
  type: 'contact.billing.run_created',
  category: 'CONTACT_BILLING',
  description: 'A billing run opens for the contact, gathering its pending charges.',
  subject: 'contactId',
  payload: fields({
    ...contact,
    billingRunId: run.billingRunId,
    amount: Type.Integer({ minimum: 0, description: 'The charge that opened the run, in cents (AUD); later charges join the run until it is captured.' }),
  }),
  example: { ...ids, billingRunId: 'brn_01JD0000000000000000000000', amount: 1500 },
});

export const contactBillingCaptured = defineEvent({
  type: 'contact.billing.captured',
  category: 'CONTACT_BILLING',
  description: 'The card is charged and the run settles.',
  subject: 'contactId',
  payload: fields({ ...contact, ...run }),
  example: { ...ids, billingRunId: 'brn_01JD0000000000000000000000', amount: 4500 },
});

export const contactBillingFailed = defineEvent({
  type: 'contact.billing.failed',
  category: 'CONTACT_BILLING',
  description: 'The charge is declined; the contact is blocked until a retry succeeds or a new card is saved.',
  subject: 'contactId',
  payload: fields({
    ...contact,
    ...run,
    failureReason: Type.String({ description: 'The gateway’s decline code, such as `insufficient_funds` or `do_not_honor`.' }),
    merchantAdviceCode: nullable(Type.String(), 'The card network’s merchant advice code (`01`, `02`, `03`, `21` …), or null when none was given.'),
    nextRetryAt: nullable(Timestamp(), 'When the charge will be tried again, or null when it will not be retried (a new card is needed).'),
  }),
  example: {
    ...ids,
    billingRunId: 'brn_01JD0000000000000000000000',
    amount: 4500,
    failureReason: 'insufficient_funds',
    merchantAdviceCode: '02',
    nextRetryAt: '2026-11-22T10:00:00.000Z',
  },
});

// Not in SPEC's table; receivers ignore types they do not know. Without it a run whose charges were
// all voided would end in silence after run_created (or after failed), and a partner could not tell
// it from a run still waiting.
export const contactBillingVoided = defineEvent({
  type: 'contact.billing.voided',
  category: 'CONTACT_BILLING',
  description: 'Every charge of the run was voided, so the run closes with nothing to pay: before the card was charged, or after it declined (the contact is then no longer blocked by this run).',
  subject: 'contactId',
  payload: fields({
    ...contact,
    billingRunId: run.billingRunId,
    amount: Type.Literal(0, { description: 'Nothing is owed for the run, and the card is not charged for it.' }),
    voidedChargeCount: Type.Integer({ minimum: 0, description: 'How many of the run’s charges were voided (`GET /v1/charges?contactId=` lists them, `VOID`).' }),
  }),
  example: { ...ids, billingRunId: 'brn_01JD0000000000000000000000', amount: 0, voidedChargeCount: 2 },
});

/** In the order the reference lists them. */
export const billingEvents = [contactCardSaved, contactCardRemoved, contactBillingRunCreated, contactBillingCaptured, contactBillingFailed, contactBillingVoided] as const;
