// Deed analysis results are delivered once: the payload is held sealed only until it is delivered
// (or 33 h), cannot be fetched, and a notification always shows `payload: null`.
import { Type } from '@sinclair/typebox';
import { defineEvent, fields, nullable } from './define.ts';

const roles = ['TRUSTEE', 'APPOINTOR', 'BENEFICIARY', 'SETTLOR', 'PROTECTOR_GUARDIAN', 'UBO', 'OTHER_CONTROLLER'] as const;

const party = fields({
  role: Type.Union(roles.map((r) => Type.Literal(r))),
  partyKind: Type.Union([Type.Literal('BUSINESS'), Type.Literal('INDIVIDUAL')]),
  businessName: nullable(Type.String()),
  firstName: nullable(Type.String()),
  lastName: nullable(Type.String()),
  acn: nullable(Type.String({ pattern: '^[0-9]{9}$' })),
  abn: nullable(Type.String({ pattern: '^[0-9]{11}$' })),
  address: nullable(fields({ full: Type.String({ description: 'As printed; not parsed or normalised.' }) })),
  confidence: Type.String({ description: 'HIGH, MEDIUM or LOW.' }),
  sourcePage: Type.Integer({ minimum: 1 }),
  sourceQuote: Type.String(),
});

const trust = fields({
  name: nullable(Type.String()),
  abn: nullable(Type.String({ pattern: '^[0-9]{11}$' })),
  trustType: nullable(Type.String({ description: 'DISCRETIONARY, UNIT, HYBRID, FIXED, BARE, SMSF or OTHER.' })),
  jurisdiction: nullable(Type.String()),
  establishedDate: nullable(Type.String({ description: 'As printed.' })),
  vestingDate: nullable(Type.String({ description: 'As printed.' })),
});

export const deedAnalysisCompleted = defineEvent({
  type: 'deed-analysis.completed',
  category: 'DEED_ANALYSIS',
  description: 'Extraction succeeds. Delivered once; the payload cannot be fetched or re-sent.',
  subject: 'deedAnalysisId',
  sealed: true,
  payload: fields({
    deedAnalysisId: Type.String(),
    verificationRequestId: nullable(Type.String()),
    trust: nullable(trust),
    parties: Type.Array(party),
    beneficiaryClasses: Type.Array(Type.String()),
  }),
  example: {
    deedAnalysisId: 'dda_01JD0000000000000000000000',
    verificationRequestId: null,
    trust: { name: 'EXAMPLE FAMILY TRUST', abn: null, trustType: 'DISCRETIONARY', jurisdiction: 'New South Wales', establishedDate: '1 July 2010', vestingDate: null },
    parties: [
      {
        role: 'TRUSTEE',
        partyKind: 'BUSINESS',
        businessName: 'EXAMPLE NOMINEES PTY LTD',
        firstName: null,
        lastName: null,
        acn: '111111114',
        abn: null,
        address: { full: '1 Example Street, Sydney NSW 2000' },
        confidence: 'HIGH',
        sourcePage: 1,
        sourceQuote: 'EXAMPLE NOMINEES PTY LTD (ACN 111 111 114) as trustee',
      },
    ],
    beneficiaryClasses: ['General Beneficiaries'],
  },
});

export const deedAnalysisFailed = defineEvent({
  type: 'deed-analysis.failed',
  category: 'DEED_ANALYSIS',
  description: 'Extraction fails; no extracted detail, not billed.',
  subject: 'deedAnalysisId',
  sealed: true,
  payload: fields({
    deedAnalysisId: Type.String(),
    verificationRequestId: nullable(Type.String()),
    failureReason: Type.String({ description: 'OCR_FAILED, TFN_CONTENT_DETECTED, EXTRACTION_INVALID_OUTPUT, ANALYSIS_UNAVAILABLE or TIMED_OUT.' }),
  }),
  example: { deedAnalysisId: 'dda_01JD0000000000000000000000', verificationRequestId: null, failureReason: 'OCR_FAILED' },
});
