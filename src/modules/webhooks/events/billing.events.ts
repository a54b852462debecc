// Customer billing events; every one carries contactId and channelPartnerId (SPEC).
import { Type } from '@sinclair/typebox';
import { defineEvent, fields, nullable, Timestamp } from './define.ts';

const contact = { contactId: Type.String(), channelPartnerId: Type.String() };
const ids = { contactId: 'con_01JD0000000000000000000000', channelPartnerId: 'ptn_01JD0000000000000000000000' };
const card = fields({ brand: Type.String(), last4: Type.String({ pattern: '^[0-9]{4}$' }), expMonth: Type.Integer(), expYear: Type.Integer() });
const run = { billingRunId: Type.String(), amount: Type.Integer({ description: 'Cents (AUD).' }) };

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
  description: 'A billing run opens for the contact.',
  subject: 'contactId',
  payload: fields({ ...contact, ...run }),
  example: { ...ids, billingRunId: 'brn_01JD0000000000000000000000', amount: 4500 },
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
    failureReason: Type.String(),
    merchantAdviceCode: nullable(Type.String()),
    nextRetryAt: nullable(Timestamp),
  }),
  example: { ...ids, billingRunId: 'brn_01JD0000000000000000000000', amount: 4500, failureReason: 'insufficient_funds', merchantAdviceCode: '02', nextRetryAt: '2026-11-22T10:00:00.000Z' },
});
