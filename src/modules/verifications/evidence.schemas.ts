// The evidence answers (SPEC "Evidence responses", rule 1) and the report URLs. Evidence carries personal
// information: it is fetched live on every call and kept nowhere (docs/verifications.md).
import { Type, type Static } from '@sinclair/typebox';
import { exampleId } from '../../platform/ids.ts';
import { MatchFeaturesSchema } from '../screening/screening.schemas.ts';

const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description ? { description } : {});

export const EvidenceParams = Type.Object({
  id: Type.String({ maxLength: 64, description: 'The verification request (`ver_…`).' }),
  individualId: Type.String({ maxLength: 64, description: 'The individual (`ind_…`).' }),
});

export const DocumentDetailsQuery = Type.Object(
  { includeScans: Type.Optional(Type.Boolean({ default: true, description: 'false leaves out the images: the fields read and the metadata only.' })) },
  { additionalProperties: false },
);

export const evidenceStatuses = ['OK', 'NOT_AVAILABLE', 'UPSTREAM_UNAVAILABLE'] as const;
export type EvidenceStatus = (typeof evidenceStatuses)[number];

const EvidenceStatus = Type.Union(
  evidenceStatuses.map((s) => Type.Literal(s)),
  {
    description:
      'OK: fetched now (arrays may be empty). NOT_AVAILABLE: the person has not submitted yet, or the provider holds nothing for them. UPSTREAM_UNAVAILABLE: the identity provider or screening engine is not answering, or evidence is switched off; try again later.',
  },
);

const Common = {
  status: EvidenceStatus,
  verificationRequestId: Type.String(),
  individualId: Type.String(),
  message: Nullable(Type.String(), 'Why there is no evidence (NOT_AVAILABLE, UPSTREAM_UNAVAILABLE); null when OK.'),
  retrievedAt: DateTime,
};

const Address = Type.Object({
  line1: Type.String(),
  line2: Nullable(Type.String()),
  locality: Type.String(),
  state: Nullable(Type.String()),
  postcode: Nullable(Type.String()),
  country: Type.String({ description: 'ISO 3166-1 alpha-2.' }),
});

const ClaimedIdentity = Type.Object(
  {
    firstName: Type.String(),
    middleName: Nullable(Type.String()),
    lastName: Type.String(),
    dateOfBirth: Type.String({ description: 'YYYY-MM-DD' }),
    address: Address,
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
  },
  { description: 'Who the person said they are, as they entered it on the verification page.' },
);

const Image = Type.Object({
  kind: Type.Union([Type.Literal('DOCUMENT_FRONT'), Type.Literal('DOCUMENT_BACK'), Type.Literal('SELFIE')]),
  contentType: Type.Union([Type.Literal('image/jpeg'), Type.Literal('image/png')]),
  byteLength: Type.Integer(),
  data: Type.String({ contentEncoding: 'base64', description: 'The image itself, base64; metadata was stripped at upload.' }),
});

const MrzField = Type.Union(['documentNumber', 'surname', 'givenNames', 'dateOfBirth', 'expiryDate', 'issuingCountry'].map((f) => Type.Literal(f)));

const MachineReadableZone = Type.Object(
  {
    found: Type.Boolean({ description: 'Whether the two lines of a passport’s machine-readable zone were read from the front image.' }),
    lines: Type.Array(Type.String(), { description: 'The two lines as read (44 characters each); empty when not found.' }),
    checkDigits: Type.Array(Type.Object({ field: Type.String({ description: 'documentNumber, dateOfBirth, expiryDate, personalNumber or composite.' }), valid: Type.Boolean() }), {
      description: 'ICAO 9303 check digits, each recomputed from what was read.',
    }),
    comparisons: Type.Array(Type.Object({ field: MrzField, result: Type.Union([Type.Literal('MATCH'), Type.Literal('MISMATCH'), Type.Literal('NOT_GIVEN')]) }), {
      description: 'What was read against what the person entered.',
    }),
  },
  { description: 'PVS’s own reading of a passport’s machine-readable zone (OCR), done again for this answer; null for other documents.' },
);

const Document = Type.Object({
  type: Type.Union([Type.Literal('PASSPORT'), Type.Literal('DRIVER_LICENCE'), Type.Literal('MEDICARE')]),
  number: Type.String(),
  issuingCountry: Type.String(),
  issuingState: Nullable(Type.String()),
  cardNumber: Nullable(Type.String({ description: 'A licence’s card number or a Medicare card’s individual reference number.' })),
  expiryDate: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  machineReadableZone: Nullable(MachineReadableZone),
});

const FaceComparison = Type.Object({
  score: Type.Number({ description: 'Similarity of the selfie to the document’s photo, 0 to 1.' }),
  threshold: Type.Number({ description: 'The pass mark.' }),
  result: Type.String({ description: 'PASS, FAIL or REVIEW; tolerate other values.' }),
});

const Check = Type.Object({ name: Type.String(), checkType: Type.String(), result: Type.String(), code: Type.String(), message: Type.Optional(Type.String()) });

const ProviderReport = Type.Object({
  name: Type.String({ description: 'The provider’s name for the report: `document`, `facial_similarity_photo`, `identity_enhanced` …' }),
  status: Nullable(Type.String(), '`complete`, or why not (`withdrawn`, `cancelled` …); null when the provider gave none.'),
  result: Nullable(Type.String(), '`clear`, `consider` or `unidentified`; null when the report did not complete.'),
  subResult: Nullable(Type.String(), 'The finer verdict of a document report: `clear`, `rejected`, `suspected` or `caution`; null for other reports.'),
  breakdown: Type.Array(
    Type.Object({
      item: Type.String({ description: 'The sub-check, as a dotted path of the provider’s names: `visual_authenticity`, `visual_authenticity.original_document_present`, `data_validation.document_expiration`.' }),
      result: Type.String({ description: 'The sub-check’s result in the provider’s words: `clear`, `consider` …' }),
    }),
    { description: 'Every sub-check that gave a result, each group before the sub-checks inside it, in the provider’s order.' },
  ),
});

const ProviderResults = Type.Object(
  {
    provider: Type.String({ description: 'Whose results these are: `onfido`.' }),
    reports: Type.Array(ProviderReport),
  },
  {
    description:
      'The identity provider’s own results behind `checks`, in its own words: each report’s result and sub-result and which sub-check said what. Present with Onfido; absent with a provider that has no reports of its own (the sandbox). Results only, never what the provider read or the person entered. Read live with the rest and stored nowhere. New reports, sub-checks and result words appear as the provider adds them: a client must tolerate values it does not know.',
  },
);

// The director of the verification request's example after a passed attempt (images left out, as with
// includeScans=false), and the screening of the same person.
const evidenceOf = { status: 'OK', verificationRequestId: exampleId('verification'), individualId: exampleId('individual', 1), message: null, retrievedAt: '2026-11-21T11:05:00.000Z' };
const documentDetailsExample = {
  ...evidenceOf,
  attempt: { number: 1, verifiedAt: '2026-11-21T10:58:30.000Z' },
  claimedIdentity: {
    firstName: 'Oliver',
    middleName: 'James',
    lastName: 'Kingsley',
    dateOfBirth: '1974-08-11',
    address: { line1: '67 Kurrajong Lane', line2: null, locality: 'Norwood', state: 'SA', postcode: '5067', country: 'AU' },
    email: 'oliver.kingsley@wattlecreek.example',
    phone: '+61 412 555 019',
  },
  documents: [
    {
      type: 'PASSPORT',
      number: 'PA1234567',
      issuingCountry: 'AU',
      issuingState: null,
      cardNumber: null,
      expiryDate: '2031-05-30',
      machineReadableZone: {
        found: true,
        lines: ['P<AUSKINGSLEY<<OLIVER<JAMES<<<<<<<<<<<<<<<<<', 'PA12345673AUS7408111M3105308<<<<<<<<<<<<<<08'],
        checkDigits: ['documentNumber', 'dateOfBirth', 'expiryDate', 'composite'].map((field) => ({ field, valid: true })),
        comparisons: ['documentNumber', 'surname', 'givenNames', 'dateOfBirth', 'expiryDate', 'issuingCountry'].map((field) => ({ field, result: 'MATCH' })),
      },
    },
  ],
  images: [],
  faceComparisons: [{ score: 0.94, threshold: 0.8, result: 'PASS' }],
  checks: [
    { name: 'Document authenticity', checkType: 'DOCUMENT', result: 'PASS', code: 'DOCUMENT_AUTHENTIC', message: "The passport's security features and layout are those of a genuine document." },
    { name: 'Document issuer record', checkType: 'DOCUMENT', result: 'PASS', code: 'DOCUMENT_RECORD_MATCHED', message: "The issuer's record matches the passport's number, name and date of birth." },
    { name: 'Face match', checkType: 'FACE_MATCH', result: 'PASS', code: 'FACE_MATCH_SCORE_HIGH', message: 'The selfie matches the photo on the passport (score 0.94, pass mark 0.80).' },
    { name: 'Fraud signals', checkType: 'FRAUD', result: 'PASS', code: 'NO_FRAUD_SIGNALS', message: 'No fraud signals were found.' },
  ],
};

export const DocumentDetails = Type.Object(
  {
    ...Common,
    attempt: Nullable(Type.Object({ number: Type.Integer(), verifiedAt: DateTime }), 'The attempt this evidence is from: the latest one checked.'),
    claimedIdentity: Nullable(ClaimedIdentity),
    documents: Type.Array(Document),
    images: Type.Array(Image, { description: 'Empty with includeScans=false, or when not OK.' }),
    faceComparisons: Type.Array(FaceComparison),
    checks: Type.Array(Check, { description: 'The identity provider’s document, face-match and fraud checks of that attempt.' }),
    providerResults: Type.Optional(ProviderResults),
  },
  { title: 'DocumentDetails', examples: [documentDetailsExample] },
);
export type DocumentDetails = Static<typeof DocumentDetails>;

export const AmlMatches = Type.Object(
  {
    ...Common,
    listVersion: Nullable(Type.Integer(), 'The screening list version screened against now.'),
    screened: Nullable(
      Type.Object({ name: Type.String(), dateOfBirth: Type.String(), countries: Type.Array(Type.String()) }),
      'The claimed identity as screened: the full name, the date of birth, and the document’s and residence’s countries.',
    ),
    matches: Type.Array(
      Type.Object({
        entryId: Type.String({ description: 'The list’s own id for the entry (DFAT reference, OpenSanctions id …).' }),
        list: Type.String({ description: 'Which list: dfat, opensanctions, csv …' }),
        source: Type.String({ description: 'Who published the entry.' }),
        name: Type.String(),
        matchedName: Type.String({ description: 'The entry’s name or alias that matched best.' }),
        aliases: Type.Array(Type.String()),
        datesOfBirth: Type.Array(Type.String()),
        countries: Type.Array(Type.String()),
        categories: Type.Array(Type.String({ description: 'SANCTIONS, PEP, ADVERSE_MEDIA' })),
        score: Type.Number({ description: '0 to 1; at or above the threshold is a possible match.' }),
        features: MatchFeaturesSchema,
      }),
      { description: 'Best first; empty when the screening is clear.' },
    ),
  },
  {
    title: 'AmlMatches',
    examples: [
      {
        ...evidenceOf,
        listVersion: 12,
        screened: { name: 'Oliver James Kingsley', dateOfBirth: '1974-08-11', countries: ['AU'] },
        matches: [
          {
            entryId: 'NK-3vQx8Tz2Lm',
            list: 'opensanctions',
            source: 'Every Politician',
            name: 'Oliver KINGSLEY',
            matchedName: 'Oliver KINGSLEY',
            aliases: [],
            datesOfBirth: ['1951'],
            countries: ['GB'],
            categories: ['PEP'],
            score: 0.82,
            features: { nameScore: 0.9, matchedTokens: 2, unmatchedTokens: 1, alias: false, dateOfBirth: 'CONTRADICTS', country: 'MISMATCH', identifier: 'NOT_COMPARED' },
          },
        ],
      },
    ],
  },
);
export type AmlMatches = Static<typeof AmlMatches>;

export const ReportUrl = Type.Object(
  {
    url: Type.String({ description: 'Signed: it works without a token, for 15 minutes, and answers the PDF rendered at that moment (nothing is stored). A changed or expired URL is 403.' }),
    expiresAt: DateTime,
  },
  {
    title: 'ReportUrl',
    examples: [
      {
        url: `https://pvs.example/reports/v1/verifications/${exampleId('verification')}/report.pdf?client=${exampleId('apiClient')}&expires=1795259700&signature=Rk3yT8wQ1zXc5Vb9Nm2Lp7Hd4Gf0Js6Ka-Ue_WoPiEt`,
        expiresAt: '2026-11-21T11:15:00.000Z',
      },
    ],
  },
);

export const ReportParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'The verification request (`ver_…`).' }) });
