// What Onfido's reports mean as PVS checks (outcomes.ts then turns the checks into PASSED, a failed
// attempt, MANUAL_REVIEW or FAILED). Pure: verify and evidence both apply it to the reports they read.
//
// | Onfido report           | when                                                          | PVS check (type, result, code)               | hard | the individual  |
// |-------------------------|---------------------------------------------------------------|----------------------------------------------|------|-----------------|
// | document                | clear                                                         | DOCUMENT PASS DOCUMENT_AUTHENTIC             |      | passes          |
// | document                | consider, breakdown.police_record consider (lost, stolen)     | FRAUD FAIL DOCUMENT_REPORTED_LOST_OR_STOLEN  | yes  | FAILED          |
// | document                | consider, sub_result suspected                                | FRAUD FAIL DOCUMENT_SUSPECTED                | yes  | FAILED          |
// | document                | consider, sub_result rejected                                 | DOCUMENT FAIL DOCUMENT_REJECTED              |      | failed attempt  |
// | document                | consider, sub_result caution                                  | DOCUMENT REVIEW DOCUMENT_CAUTION             |      | MANUAL_REVIEW   |
// | document                | consider, no other sub_result                                 | DOCUMENT REVIEW DOCUMENT_CONSIDER            |      | MANUAL_REVIEW   |
// | document                | unidentified                                                  | DOCUMENT REVIEW DOCUMENT_UNIDENTIFIED        |      | MANUAL_REVIEW   |
// | facial_similarity_photo | clear                                                         | FACE_MATCH PASS FACE_MATCH_SCORE_HIGH        |      | passes          |
// | facial_similarity_photo | consider, visual_authenticity consider (spoof)                | FRAUD FAIL SELFIE_SPOOF_SUSPECTED            | yes  | FAILED          |
// | facial_similarity_photo | consider, image_integrity.source_integrity consider           | FRAUD FAIL SELFIE_SOURCE_SUSPECTED           | yes  | FAILED          |
// | facial_similarity_photo | consider, image_integrity consider otherwise (no clear face)  | FACE_MATCH FAIL FACE_IMAGE_UNUSABLE          |      | failed attempt  |
// | facial_similarity_photo | consider, face_comparison consider, or no reason given        | FACE_MATCH REVIEW FACE_MATCH_INCONCLUSIVE    |      | MANUAL_REVIEW   |
// | facial_similarity_photo | unidentified                                                  | FACE_MATCH REVIEW FACE_MATCH_INCONCLUSIVE    |      | MANUAL_REVIEW   |
// | identity_enhanced       | clear                                                         | DOCUMENT PASS IDENTITY_RECORD_MATCHED        |      | passes          |
// | identity_enhanced       | consider, breakdown.mortality consider                        | DOCUMENT REVIEW IDENTITY_RECORD_DECEASED     |      | MANUAL_REVIEW   |
// | identity_enhanced       | consider otherwise                                            | DOCUMENT REVIEW IDENTITY_RECORD_NOT_MATCHED  |      | MANUAL_REVIEW   |
// | identity_enhanced       | unidentified                                                  | DOCUMENT REVIEW IDENTITY_RECORD_NOT_FOUND    |      | MANUAL_REVIEW   |
// | document, face, record  | report not complete (withdrawn, cancelled); document or face absent | REVIEW DOCUMENT_NOT_CHECKED, FACE_MATCH_NOT_CHECKED, IDENTITY_RECORD_NOT_CHECKED | | MANUAL_REVIEW |
// | (every check)           | no FRAUD FAIL above                                           | FRAUD PASS NO_FRAUD_SIGNALS                  |      |                 |
//
// "the individual" is what outcomes.ts makes of that check alone (with AML screening clear): a hard
// failure FAILS at once, any FAIL is a failed attempt, any REVIEW is MANUAL_REVIEW, all PASS is PASSED.
// Precedence within a report, first that applies: the fraud signals, then what a retry can fix (an
// unusable image, a rejected document), then what a person must look at. A spoofed selfie still gets its
// FACE_MATCH check from face_comparison, so the partner sees both. The face comparison's `score` is
// breakdown.face_comparison.breakdown.face_match.properties.score (similarity, 0 to 1); the report's own
// `properties.score` is a spoof score and is not used. Onfido publishes no pass mark: its own
// face_comparison result decides, and `threshold` is reported as a fixed nominal 0.5 (see faceMatchThreshold).
// Codes are upper snake case; messages never carry anything the person gave or Onfido read.
import type { CheckResult, FaceComparison, IdentityCheck, IdentityDocumentType } from '../identity-provider.ts';

interface Outcome {
  result?: string | null;
}

/** The parts of an Onfido report (openapi.json `report`) the mapping reads. */
export interface OnfidoReport {
  name: string;
  status?: string | null;
  result?: string | null;
  sub_result?: string | null;
  breakdown?: {
    police_record?: Outcome;
    visual_authenticity?: Outcome;
    face_comparison?: Outcome & { breakdown?: { face_match?: Outcome & { properties?: { score?: number | null } } } };
    image_integrity?: Outcome & { breakdown?: { face_detected?: Outcome; source_integrity?: Outcome } };
    mortality?: Outcome;
  } | null;
}

export interface OnfidoFindings {
  checks: IdentityCheck[];
  hardFailure: boolean;
  faceMatch: FaceComparison;
}

/**
 * Onfido publishes no numeric pass mark for face similarity; its face_comparison result is the decision.
 * A nominal midpoint is reported so the field keeps its shape; read `result`, not score against this.
 */
export const faceMatchThreshold = 0.5;

const documentWords: Record<IdentityDocumentType, string> = { PASSPORT: 'passport', DRIVER_LICENCE: 'driver licence', MEDICARE: 'Medicare card' };

const consider = (outcome: Outcome | undefined | null) => outcome?.result === 'consider';

function check(name: string, checkType: IdentityCheck['checkType'], result: CheckResult, code: string, message: string): IdentityCheck {
  return { name, checkType, result, code, message };
}

const notChecked = (name: string, checkType: IdentityCheck['checkType'], code: string, what: string) =>
  check(name, checkType, 'REVIEW', code, `Onfido did not finish the ${what}; a person should look at this attempt.`);

function documentChecks(report: OnfidoReport | undefined, document: string): IdentityCheck[] {
  const name = 'Document authenticity';
  if (!report || report.status !== 'complete') return [notChecked(name, 'DOCUMENT', 'DOCUMENT_NOT_CHECKED', 'document check')];
  if (report.result === 'clear') return [check(name, 'DOCUMENT', 'PASS', 'DOCUMENT_AUTHENTIC', `The ${document}'s security features and layout are those of a genuine document.`)];
  if (report.result !== 'consider') return [check(name, 'DOCUMENT', 'REVIEW', 'DOCUMENT_UNIDENTIFIED', `Onfido could not tell whether the ${document} is genuine; a person should look at it.`)];
  if (consider(report.breakdown?.police_record)) {
    return [check('Fraud signals', 'FRAUD', 'FAIL', 'DOCUMENT_REPORTED_LOST_OR_STOLEN', `The ${document} is recorded as lost, stolen or otherwise compromised.`)];
  }
  switch (report.sub_result) {
    case 'suspected':
      return [check('Fraud signals', 'FRAUD', 'FAIL', 'DOCUMENT_SUSPECTED', `The ${document} shows signs of being forged, altered or not genuine.`)];
    case 'rejected':
      return [check(name, 'DOCUMENT', 'FAIL', 'DOCUMENT_REJECTED', `The ${document} could not be checked from its photos (unreadable, cut off, or not a supported document); a clearer photo may pass.`)];
    case 'caution':
      return [check(name, 'DOCUMENT', 'REVIEW', 'DOCUMENT_CAUTION', `The ${document} needs a closer look (for example it has expired, or its details differ from those entered); a person should decide.`)];
    default:
      return [check(name, 'DOCUMENT', 'REVIEW', 'DOCUMENT_CONSIDER', `Onfido flagged the ${document} for a closer look; a person should decide.`)];
  }
}

function faceChecks(report: OnfidoReport | undefined, document: string): IdentityCheck[] {
  const name = 'Face match';
  if (!report || report.status !== 'complete') return [notChecked(name, 'FACE_MATCH', 'FACE_MATCH_NOT_CHECKED', 'face comparison')];
  const matched = check(name, 'FACE_MATCH', 'PASS', 'FACE_MATCH_SCORE_HIGH', `The selfie matches the photo on the ${document}.`);
  if (report.result === 'clear') return [matched];
  const inconclusive = check(name, 'FACE_MATCH', 'REVIEW', 'FACE_MATCH_INCONCLUSIVE', `The selfie may not be of the person on the ${document}; a person should compare them.`);
  if (report.result !== 'consider') return [inconclusive];
  const b = report.breakdown ?? {};
  const fraud: IdentityCheck[] = [];
  if (consider(b.visual_authenticity)) {
    fraud.push(check('Fraud signals', 'FRAUD', 'FAIL', 'SELFIE_SPOOF_SUSPECTED', 'The selfie appears not to be of a live person (a photo of a photo or of a screen, or a mask).'));
  }
  if (consider(b.image_integrity?.breakdown?.source_integrity)) {
    fraud.push(check('Fraud signals', 'FRAUD', 'FAIL', 'SELFIE_SOURCE_SUSPECTED', 'The selfie appears to be digitally altered or to come from a virtual or tampered camera rather than a real one.'));
  }
  // Image integrity flags an unusable picture (no clear face), or only the selfie's source: that is the fraud signal above.
  const integrity = b.image_integrity;
  const unusable = consider(integrity) && (consider(integrity?.breakdown?.face_detected) || !consider(integrity?.breakdown?.source_integrity));
  const face = unusable
    ? check(name, 'FACE_MATCH', 'FAIL', 'FACE_IMAGE_UNUSABLE', `The faces on the selfie and the ${document} could not be compared (no clear face found); a new selfie in good light may pass.`)
    : consider(b.face_comparison) || fraud.length === 0
      ? inconclusive
      : matched;
  return [face, ...fraud];
}

function recordChecks(report: OnfidoReport): IdentityCheck[] {
  const name = 'Identity record';
  if (report.status !== 'complete') return [notChecked(name, 'DOCUMENT', 'IDENTITY_RECORD_NOT_CHECKED', 'identity record check')];
  if (report.result === 'clear') return [check(name, 'DOCUMENT', 'PASS', 'IDENTITY_RECORD_MATCHED', 'The name, date of birth and address match independent records.')];
  if (report.result !== 'consider') return [check(name, 'DOCUMENT', 'REVIEW', 'IDENTITY_RECORD_NOT_FOUND', 'No independent record was found for the name, date of birth and address; a person should decide.')];
  if (consider(report.breakdown?.mortality)) return [check(name, 'DOCUMENT', 'REVIEW', 'IDENTITY_RECORD_DECEASED', 'The name and date of birth match a death record; a person should decide.')];
  return [check(name, 'DOCUMENT', 'REVIEW', 'IDENTITY_RECORD_NOT_MATCHED', 'Independent records do not fully match the name, date of birth and address; a person should decide.')];
}

/** The similarity Onfido gave the two faces, or 0 when it gave none (the comparison did not run). */
function faceScore(report: OnfidoReport | undefined): number {
  const score = report?.breakdown?.face_comparison?.breakdown?.face_match?.properties?.score;
  return typeof score === 'number' && score >= 0 && score <= 1 ? score : 0;
}

/**
 * The checks of a complete Onfido check, from all its reports (Onfido lists every report a check was
 * made with, finished or not). `document` and `facial_similarity_photo` are always asked for, so their
 * absence is a REVIEW; `identity_enhanced` only for some addresses, so it is mapped when present.
 */
export function findingsOf(reports: readonly OnfidoReport[], documentType: IdentityDocumentType): OnfidoFindings {
  const named = (name: string) => reports.find((r) => r.name === name);
  const document = documentWords[documentType];
  const face = faceChecks(named('facial_similarity_photo'), document);
  const record = named('identity_enhanced');
  const checks = [
    ...documentChecks(named('document'), document),
    ...(record ? recordChecks(record) : []),
    ...face,
  ];
  const hardFailure = checks.some((c) => c.checkType === 'FRAUD' && c.result === 'FAIL');
  if (!hardFailure) checks.push(check('Fraud signals', 'FRAUD', 'PASS', 'NO_FRAUD_SIGNALS', 'No fraud signals were found.'));
  return { checks, hardFailure, faceMatch: { score: faceScore(named('facial_similarity_photo')), threshold: faceMatchThreshold, result: face[0]!.result } };
}
