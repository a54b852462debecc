import { Type, type Static } from '@sinclair/typebox';

export const Partner = Type.Object(
  {
    id: Type.String({ description: 'Channel partner id (`ptn_…`); send it as `X-Partner-Id`.' }),
    name: Type.String(),
    environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
    monitoringEligible: Type.Boolean({ description: 'Whether monitoring events may be delivered to this partner.' }),
    commissionBps: Type.Integer({ minimum: 0, maximum: 10_000, description: 'Your commission on ATO payments, in basis points of the amount (150 = 1.5 %).' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Partner', title: 'Partner' },
);
export type Partner = Static<typeof Partner>;

export const CreatedPartner = Type.Object({
  partnerId: Type.String(),
  name: Type.String(),
  monitoringEligible: Type.Boolean(),
  commissionBps: Type.Integer(),
  clientId: Type.String(),
  clientSecret: Type.String({ description: 'Shown once; only a slow hash is kept.' }),
});
export type CreatedPartner = Static<typeof CreatedPartner>;

export const CreatePartnerInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    monitoring: Type.Optional(Type.Boolean()),
    commissionBps: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Basis points of each ATO payment (0 to 10000).' })),
  },
  { additionalProperties: false },
);
export type CreatePartnerInput = Static<typeof CreatePartnerInput>;

/** A partner as PVS's operators see it in the console: with whether an operator disabled it. */
export interface OperatorPartner extends Partner {
  disabledAt: string | null;
}

/** What an operator may change on a partner (the console's partner page). */
export interface UpdatePartnerInput {
  monitoringEligible?: boolean;
  /** 0 to 10000 basis points of each ATO payment. */
  commissionBps?: number;
}

export const commissionBpsRange = { minimum: 0, maximum: 10_000 } as const;
