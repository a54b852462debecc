import { Type } from '@sinclair/typebox';
import { defineEvent, fields } from './define.ts';

export const businessLookupCompleted = defineEvent({
  type: 'business-lookup.completed',
  category: 'BUSINESS_LOOKUPS',
  description: 'A lookup returns a normalised owner list. No names or roles: read them from the lookup record.',
  subject: 'lookupRequestId',
  payload: fields({
    lookupRequestId: Type.String(),
    channelPartnerId: Type.String(),
    entity: fields({ name: Type.String(), type: Type.String({ description: 'COMPANY, SOLE_TRADER, PARTNERSHIP, TRUST or OTHER.' }) }),
    individuals: Type.Array(fields({ idvEntityId: Type.String() }), { description: 'Always present, may be empty.' }),
  }),
  example: {
    lookupRequestId: 'lkp_01JD0000000000000000000000',
    channelPartnerId: 'ptn_01JD0000000000000000000000',
    entity: { name: 'EXAMPLE HOLDINGS PTY LTD', type: 'COMPANY' },
    individuals: [{ idvEntityId: 'ent_01JD0000000000000000000000' }],
  },
});

export const businessLookupFailed = defineEvent({
  type: 'business-lookup.failed',
  category: 'BUSINESS_LOOKUPS',
  description: 'A lookup fails; it is not billed.',
  subject: 'lookupRequestId',
  payload: fields({
    lookupRequestId: Type.String(),
    channelPartnerId: Type.String(),
    failureReason: Type.String({ description: 'NOT_FOUND, IDENTIFIER_MISMATCH or REGISTER_UNAVAILABLE.' }),
  }),
  example: { lookupRequestId: 'lkp_01JD0000000000000000000000', channelPartnerId: 'ptn_01JD0000000000000000000000', failureReason: 'NOT_FOUND' },
});
