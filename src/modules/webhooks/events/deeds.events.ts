// Deed analysis results are delivered once: the payload is held sealed only until it is delivered
// (or 33 h), cannot be fetched, and a notification always shows `payload: null`. Date of birth is
// never extracted or sent.
import { Type } from '@sinclair/typebox';
import { defineEvent, fields, nullable, oneOf } from './define.ts';

const deed = {
  deedAnalysisId: Type.String({ description: 'The deed analysis (`dda_…`).' }),
  verificationRequestId: nullable(Type.String(), 'The verification request given at create, or null.'),
};
const asPrinted = (what: string) => nullable(Type.String(), `${what}, as printed in the deed; null when it gives none.`);

const party = fields(
  {
    role: oneOf(['TRUSTEE', 'APPOINTOR', 'BENEFICIARY', 'SETTLOR', 'PROTECTOR_GUARDIAN', 'UBO', 'OTHER_CONTROLLER', 'OTHER'], {
      description: 'The party’s role, in the vocabulary of verification individuals; a role the deed gives that is none of these is OTHER.',
    }),
    partyKind: oneOf(['BUSINESS', 'INDIVIDUAL'], { description: 'Whether the party is a business or a person.' }),
    businessName: nullable(Type.String(), 'For a business party; null for an individual.'),
    firstName: nullable(Type.String(), 'For an individual party; null for a business.'),
    lastName: nullable(Type.String(), 'For an individual party; null for a business.'),
    acn: nullable(Type.String({ pattern: '^[0-9]{9}$' }), 'Digits only, check digit valid; copied from the deed, not verified against the register; null when absent.'),
    abn: nullable(Type.String({ pattern: '^[0-9]{11}$' }), 'Digits only, check digit valid; copied from the deed, not verified against the register; null when absent.'),
    address: nullable(
      fields({ full: Type.String({ description: 'As printed; not parsed or normalised.' }) }),
      'The party’s address, or null when the deed gives none.',
    ),
    confidence: oneOf(['HIGH', 'MEDIUM', 'LOW'], { description: 'How certain the extraction is.' }),
    sourcePage: Type.Integer({ minimum: 1, description: 'The page the party was found on.' }),
    sourceQuote: Type.String({ description: 'Verbatim supporting text from that page.' }),
  },
  { description: 'A controlling party named by the deed.' },
);

const trust = fields(
  {
    name: asPrinted('The trust’s name'),
    abn: nullable(Type.String({ pattern: '^[0-9]{11}$' }), 'Digits only, as printed; null when absent.'),
    trustType: nullable(oneOf(['DISCRETIONARY', 'UNIT', 'HYBRID', 'FIXED', 'BARE', 'SMSF', 'OTHER']), 'The kind of trust; null when the deed does not say.'),
    jurisdiction: asPrinted('The governing jurisdiction'),
    establishedDate: asPrinted('The date of establishment'),
    vestingDate: asPrinted('The vesting date'),
  },
  { description: 'The trust the deed establishes.' },
);

export const deedAnalysisCompleted = defineEvent({
  type: 'deed-analysis.completed',
  category: 'DEED_ANALYSIS',
  description: 'Extraction succeeds: the trust, its controlling parties and the classes of beneficiary the deed names.',
  subject: 'deedAnalysisId',
  sealed: true,
  payload: fields({
    ...deed,
    trust: nullable(trust, 'The trust, or null when the deed does not name it.'),
    parties: Type.Array(party, { description: 'The controlling parties extracted; may be empty.' }),
    beneficiaryClasses: Type.Array(Type.String(), { description: 'Classes of beneficiary the deed names (individual beneficiaries are not inferred from them).' }),
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
  description: 'Extraction fails; no extracted detail is sent and the analysis is not billed.',
  subject: 'deedAnalysisId',
  sealed: true,
  payload: fields({
    ...deed,
    failureReason: oneOf(['OCR_FAILED', 'TFN_CONTENT_DETECTED', 'EXTRACTION_INVALID_OUTPUT', 'ANALYSIS_UNAVAILABLE', 'TIMED_OUT'], {
      description:
        'OCR_FAILED: often scan quality, a cleaner copy may work; TFN_CONTENT_DETECTED: the document held a tax file number and was deleted, remove those pages and upload again; EXTRACTION_INVALID_OUTPUT: retrying rarely helps; ANALYSIS_UNAVAILABLE: try again later; TIMED_OUT: try again.',
    }),
  }),
  example: { deedAnalysisId: 'dda_01JD0000000000000000000000', verificationRequestId: null, failureReason: 'OCR_FAILED' },
});

/** In the order the reference lists them. */
export const deedEvents = [deedAnalysisCompleted, deedAnalysisFailed] as const;
