// How a check turns out, chosen by the applicant's last name when the check is made (trimmed, any case),
// as Onfido's own sandbox drives results by name:
//   Consider      every report consider (the document's sub_result caution)
//   Review        facial_similarity_photo consider: face_comparison consider, score 0.41
//   Rejected      document consider, sub_result rejected: image_integrity (image_quality) consider
//   Suspected     document consider, sub_result suspected: visual_authenticity (digital_tampering,
//                 security_features) consider
//   Caution       document consider, sub_result caution: data_validation (document_expiration) consider
//   Spoof         facial_similarity_photo consider: visual_authenticity (spoofing_detection), score 0.08
//   Unidentified  identity_enhanced unidentified
//   Slow          every report clear, but the check takes 60 s
//   anything else every report clear (face score 0.93)
// Breakdowns and properties have the shapes of the spec's report schemas; a breakdown leaf is
// `{ result, properties }` with the reasons Onfido gives for a consider as its properties.
import { createHash } from 'node:crypto';

export type Scenario = 'clear' | 'consider' | 'review' | 'rejected' | 'suspected' | 'caution' | 'spoof' | 'unidentified' | 'slow';

const named: readonly Scenario[] = ['consider', 'review', 'rejected', 'suspected', 'caution', 'spoof', 'unidentified', 'slow'];

export function scenarioOf(lastName: unknown): Scenario {
  const name = typeof lastName === 'string' ? lastName.trim().toLowerCase() : '';
  return named.find((s) => s === name) ?? 'clear';
}

/** How long a check takes to complete. */
export function durationOf(scenario: Scenario, completeAfterMs: number): number {
  return scenario === 'slow' ? 60_000 : completeAfterMs;
}

type Json = Record<string, unknown>;

export interface ReportOutcome {
  result: 'clear' | 'consider' | 'unidentified';
  sub_result?: 'clear' | 'rejected' | 'suspected' | 'caution';
  breakdown?: Json;
  properties?: Json;
}

export interface ReportFacts {
  applicant: { id: string; details: Record<string, unknown> };
  /** The document the report looked at (the front, when there are two sides). */
  document?: { id: string; type: string; issuingCountry?: string };
  completedAt: Date;
}

export function outcomeOf(reportName: string, scenario: Scenario, facts: ReportFacts): ReportOutcome {
  if (reportName === 'document') return documentOutcome(scenario, facts);
  if (reportName === 'facial_similarity_photo') return facialSimilarityOutcome(scenario, facts);
  if (reportName === 'identity_enhanced') return identityOutcome(scenario);
  // Reports PVS does not ask for: a result only, which their schemas allow.
  return { result: scenario === 'consider' ? 'consider' : 'clear' };
}

/** The check's result: clear only when every report is. */
export function checkResultOf(outcomes: ReportOutcome[]): 'clear' | 'consider' {
  return outcomes.every((o) => o.result === 'clear') ? 'clear' : 'consider';
}

/** A breakdown group: each leaf clear, except those flagged (with their reasons as properties). */
function group(leaves: string[], flagged: Record<string, Json> = {}): Json {
  const considered = Object.keys(flagged).length > 0;
  return {
    result: considered ? 'consider' : 'clear',
    breakdown: Object.fromEntries(leaves.map((leaf) => [leaf, { result: leaf in flagged ? 'consider' : 'clear', properties: flagged[leaf] ?? {} }])),
  };
}

const documentLeaves = {
  data_comparison: ['issuing_country', 'gender', 'date_of_expiry', 'last_name', 'document_type', 'document_numbers', 'first_name', 'date_of_birth'],
  data_validation: ['gender', 'date_of_birth', 'document_numbers', 'document_expiration', 'expiry_date', 'mrz'],
  image_integrity: ['image_quality', 'supported_document', 'colour_picture', 'conclusive_document_quality'],
  visual_authenticity: ['fonts', 'picture_face_integrity', 'template', 'security_features', 'original_document_present', 'digital_tampering', 'other', 'face_detection'],
  data_consistency: ['date_of_expiry', 'document_numbers', 'issuing_country', 'document_type', 'date_of_birth', 'gender', 'first_name', 'nationality', 'last_name', 'multiple_data_sources_present'],
  compromised_document: ['document_database', 'repeat_attempts'],
};

function documentOutcome(scenario: Scenario, facts: ReportFacts): ReportOutcome {
  const expired = scenario === 'caution' || scenario === 'consider';
  const properties = documentProperties(facts, expired);
  if (scenario === 'rejected') {
    // A document whose image cannot be used is not examined further: Onfido gives image_integrity alone.
    return { result: 'consider', sub_result: 'rejected', breakdown: { image_integrity: group(documentLeaves.image_integrity, { image_quality: { blurred_photo: 'consider' } }) }, properties };
  }
  const suspected = scenario === 'suspected';
  const breakdown = {
    data_comparison: group(documentLeaves.data_comparison),
    data_validation: group(documentLeaves.data_validation, expired ? { document_expiration: {} } : {}),
    image_integrity: group(documentLeaves.image_integrity),
    // `other` is consider whenever another visual_authenticity leaf is (the spec says so).
    visual_authenticity: group(documentLeaves.visual_authenticity, suspected ? { digital_tampering: {}, security_features: {}, other: {} } : {}),
    data_consistency: group(documentLeaves.data_consistency),
    police_record: { result: 'clear' },
    compromised_document: group(documentLeaves.compromised_document),
  };
  if (suspected) return { result: 'consider', sub_result: 'suspected', breakdown, properties };
  if (expired) return { result: 'consider', sub_result: 'caution', breakdown, properties };
  return { result: 'clear', sub_result: 'clear', breakdown, properties };
}

/** What Onfido reads off the document: here, what the applicant said and what was uploaded. */
function documentProperties(facts: ReportFacts, expired: boolean): Json {
  const { details } = facts.applicant;
  // The same made-up number for the same applicant, every time.
  const digits = String(createHash('sha256').update(facts.applicant.id).digest().readUInt32BE(0) % 10_000_000).padStart(7, '0');
  const year = facts.completedAt.getUTCFullYear() + (expired ? -1 : 6);
  const address = details.address as { country?: string } | undefined;
  return {
    document_type: facts.document?.type ?? 'passport',
    issuing_country: facts.document?.issuingCountry ?? address?.country ?? 'AUS',
    document_numbers: [{ type: 'document_number', value: `PA${digits}` }],
    date_of_expiry: `${year}-06-30`,
    ...(typeof details.first_name === 'string' ? { first_name: details.first_name } : {}),
    ...(typeof details.last_name === 'string' ? { last_name: details.last_name } : {}),
    ...(typeof details.dob === 'string' ? { date_of_birth: details.dob } : {}),
  };
}

function facialSimilarityOutcome(scenario: Scenario, facts: ReportFacts): ReportOutcome {
  const mismatch = scenario === 'review' || scenario === 'consider';
  const spoof = scenario === 'spoof';
  const faceScore = mismatch ? 0.41 : 0.93;
  const spoofScore = spoof ? 0.08 : 0.93;
  const face = mismatch ? 'consider' : 'clear';
  const live = spoof ? 'consider' : 'clear';
  return {
    result: mismatch || spoof ? 'consider' : 'clear',
    breakdown: {
      face_comparison: { result: face, breakdown: { face_match: { result: face, properties: { score: faceScore, ...(facts.document ? { document_id: facts.document.id } : {}) } } } },
      image_integrity: group(['face_detected', 'source_integrity']),
      visual_authenticity: { result: live, breakdown: { spoofing_detection: { result: live, properties: { score: spoofScore } } } },
    },
    properties: { score: Math.min(faceScore, spoofScore) },
  };
}

function identityOutcome(scenario: Scenario): ReportOutcome {
  if (scenario === 'unidentified') {
    return {
      result: 'unidentified',
      breakdown: {
        sources: { result: 'consider', breakdown: { total_sources: { result: 'consider', properties: { total_number_of_sources: '0' } } } },
        address: group(['credit_agencies', 'telephone_database', 'voting_register'], { credit_agencies: { number_of_matches: '0' }, telephone_database: {}, voting_register: {} }),
        date_of_birth: group(['credit_agencies', 'voting_register'], { credit_agencies: {}, voting_register: {} }),
        mortality: { result: 'clear' },
      },
      properties: {},
    };
  }
  const consider = scenario === 'consider';
  return {
    result: consider ? 'consider' : 'clear',
    breakdown: {
      sources: { result: 'clear', breakdown: { total_sources: { result: 'clear', properties: { total_number_of_sources: consider ? '1' : '2' } } } },
      address: { result: 'clear', breakdown: { credit_agencies: { result: 'clear', properties: { number_of_matches: '1' } }, telephone_database: { result: 'clear', properties: {} }, voting_register: { result: 'clear', properties: {} } } },
      date_of_birth: group(['credit_agencies', 'voting_register'], consider ? { credit_agencies: {}, voting_register: {} } : {}),
      mortality: { result: 'clear' },
    },
    properties: { matched_address: 1, matched_addresses: [{ id: 1, match_types: ['credit_agencies', 'voting_register'] }] },
  };
}
