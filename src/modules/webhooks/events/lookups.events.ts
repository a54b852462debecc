// Business lookup events. The owner list carries idv entity ids only: names and roles stay on the
// lookup record (for a sole trader the entity name is a person's, and is handled as such there too).
import { Type } from '@sinclair/typebox';
import { defineEvent, fields, oneOf } from './define.ts';

const lookup = {
  lookupRequestId: Type.String({ description: 'The lookup (`lkp_…`), as answered by `POST /v1/business-lookups`.' }),
  channelPartnerId: Type.String({ description: 'Your partner id (`ptn_…`).' }),
};
const ids = { lookupRequestId: 'lkp_01JD0000000000000000000000', channelPartnerId: 'ptn_01JD0000000000000000000000' };

export const businessLookupCompleted = defineEvent({
  type: 'business-lookup.completed',
  category: 'BUSINESS_LOOKUPS',
  description: 'A lookup returns a normalised owner list. No names or roles: read them from the lookup record.',
  subject: 'lookupRequestId',
  payload: fields({
    ...lookup,
    entity: fields(
      {
        name: Type.String({ description: 'Registered company name, else the business register name. For a sole trader it is a person’s name: personal information.' }),
        type: oneOf(['COMPANY', 'SOLE_TRADER', 'PARTNERSHIP', 'TRUST', 'OTHER'], { description: 'The kind of entity.' }),
      },
      { description: 'The business looked up.' },
    ),
    individuals: Type.Array(fields({ idvEntityId: Type.String({ description: 'The register party (`ent_…`); bind it to a verification with `individuals[].idvEntityId`.' }) }), {
      description: 'One entry per party found; always present, may be empty. No names or roles.',
    }),
  }),
  example: {
    ...ids,
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
    ...lookup,
    failureReason: oneOf(['NOT_FOUND', 'IDENTIFIER_MISMATCH', 'REGISTER_UNAVAILABLE'], {
      description: 'NOT_FOUND: not on the register; IDENTIFIER_MISMATCH: the ABN and ACN given name different entities; REGISTER_UNAVAILABLE: the register could not be read (after retries).',
    }),
  }),
  example: { ...ids, failureReason: 'NOT_FOUND' },
});

/** In the order the reference lists them. */
export const lookupEvents = [businessLookupCompleted, businessLookupFailed] as const;
