// What a deed analysis finds, as `deed-analysis.completed` carries it (SPEC "Deed analysis", CONTRACT §7).
// The schema is the check every extractor's answer passes before it is sent: an answer that does not
// validate fails the analysis with EXTRACTION_INVALID_OUTPUT. Names and addresses live here only between
// extraction and delivery: the job record never holds them.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const literals = <V extends string>(values: readonly V[], description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

export const partyRoles = ['TRUSTEE', 'APPOINTOR', 'BENEFICIARY', 'SETTLOR', 'PROTECTOR_GUARDIAN', 'UBO', 'OTHER_CONTROLLER', 'OTHER'] as const;
export const trustTypes = ['DISCRETIONARY', 'UNIT', 'HYBRID', 'FIXED', 'BARE', 'SMSF', 'OTHER'] as const;
export const confidences = ['HIGH', 'MEDIUM', 'LOW'] as const;

export const ExtractedParty = Type.Object(
  {
    role: literals(partyRoles, 'The party’s role; a role the deed names that PVS does not know is OTHER.'),
    partyKind: literals(['BUSINESS', 'INDIVIDUAL'] as const, 'A company (or other body) or a natural person.'),
    businessName: nullable(Type.String({ minLength: 1, maxLength: 300, description: 'For a business party, as printed.' })),
    firstName: nullable(Type.String({ minLength: 1, maxLength: 200, description: 'For an individual: the given names as printed.' })),
    lastName: nullable(Type.String({ minLength: 1, maxLength: 200, description: 'For an individual: the family name as printed.' })),
    acn: nullable(Type.String({ pattern: '^[0-9]{9}$', description: 'Digits only, check digit valid; copied from the deed, not verified against the register.' })),
    abn: nullable(Type.String({ pattern: '^[0-9]{11}$', description: 'Digits only, check digits valid; copied from the deed, not verified against the register.' })),
    address: nullable(Type.Object({ full: Type.String({ minLength: 1, maxLength: 500, description: 'As printed, not parsed or normalised.' }) }, { additionalProperties: false })),
    confidence: literals(confidences, 'How sure the extractor is of this party and its role.'),
    sourcePage: Type.Integer({ minimum: 1, maximum: 150, description: 'The page (1-based) the quote is on.' }),
    sourceQuote: Type.String({ minLength: 1, maxLength: 1000, description: 'Verbatim text of that page that names the party in its role.' }),
  },
  { additionalProperties: false },
);
export type ExtractedParty = Static<typeof ExtractedParty>;

export const ExtractedTrust = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 300, description: 'As printed.' }),
    abn: nullable(Type.String({ pattern: '^[0-9]{11}$' })),
    trustType: nullable(literals(trustTypes, 'The kind of trust the deed sets up.')),
    jurisdiction: nullable(Type.String({ minLength: 1, maxLength: 100, description: 'The governing law as printed, e.g. `New South Wales`.' })),
    establishedDate: nullable(Type.String({ minLength: 1, maxLength: 100, description: 'As printed, never computed.' })),
    vestingDate: nullable(Type.String({ minLength: 1, maxLength: 300, description: 'As printed, never computed (often a rule: “80 years less one day from …”).' })),
  },
  { additionalProperties: false },
);
export type ExtractedTrust = Static<typeof ExtractedTrust>;

/** What an extractor answers: the payload of `deed-analysis.completed` without the ids. */
export const DeedExtraction = Type.Object(
  {
    trust: nullable(ExtractedTrust),
    parties: Type.Array(ExtractedParty, { maxItems: 500 }),
    beneficiaryClasses: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 100, description: 'Classes the deed names (General, Eligible, Default …), as printed; never people inferred from them.' }),
  },
  { additionalProperties: false },
);
export type DeedExtraction = Static<typeof DeedExtraction>;

/** One page's text: from the PDF's text layer, or from OCR of the page's image. */
export interface DeedPage {
  /** 1-based. */
  number: number;
  text: string;
  source: 'TEXT_LAYER' | 'OCR';
}
