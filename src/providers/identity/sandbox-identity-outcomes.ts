// What the sandbox identity provider answers, chosen by the last name the person entered (CONTRACT §13),
// trimmed and in any case:
//   Review       the face match is inconclusive: a REVIEW result, for an operator to decide
//   Fail         the issuer has no matching record and the faces do not match: FAIL results, not hard
//   Fraud        a fraud signal: a FAIL with hardFailure, which fails the individual at once
//   Unavailable  the provider is down for this person (verify and evidence) for an hour from their first
//                check (sandbox-identity.ts); then every check passes
//   anything else: every check passes
// Codes and messages are the kind a document-verification service gives, and never carry personal details.
import type { FaceComparison, IdentityCheck, IdentityDocumentType } from './identity-provider.ts';

export type SandboxBehaviour = 'pass' | 'review' | 'fail' | 'fraud' | 'unavailable';

export function behaviourOf(lastName: string): SandboxBehaviour {
  const name = lastName.trim().toLowerCase();
  return name === 'review' || name === 'fail' || name === 'fraud' || name === 'unavailable' ? name : 'pass';
}

/** The sandbox's pass mark for face similarity; scores between 0.5 and this are inconclusive. */
export const faceMatchThreshold = 0.8;

const faceScores: Record<Exclude<SandboxBehaviour, 'unavailable'>, number> = { pass: 0.96, review: 0.64, fail: 0.21, fraud: 0.93 };

const documentWords: Record<IdentityDocumentType, string> = { PASSPORT: 'passport', DRIVER_LICENCE: 'driver licence', MEDICARE: 'Medicare card' };

export interface SandboxOutcome {
  checks: IdentityCheck[];
  hardFailure: boolean;
  faceMatch: FaceComparison;
}

export function outcomeOf(behaviour: Exclude<SandboxBehaviour, 'unavailable'>, documentType: IdentityDocumentType): SandboxOutcome {
  const document = documentWords[documentType];
  const score = faceScores[behaviour];
  const scoreWords = `score ${score.toFixed(2)}, pass mark ${faceMatchThreshold.toFixed(2)}`;

  const authenticity: IdentityCheck = {
    name: 'Document authenticity',
    checkType: 'DOCUMENT',
    result: 'PASS',
    code: 'DOCUMENT_AUTHENTIC',
    message: `The ${document}'s security features and layout are those of a genuine document.`,
  };
  const record: IdentityCheck =
    behaviour === 'fail'
      ? {
          name: 'Document issuer record',
          checkType: 'DOCUMENT',
          result: 'FAIL',
          code: 'DOCUMENT_RECORD_NOT_MATCHED',
          message: `The issuer has no record matching the ${document}'s number, name and date of birth.`,
        }
      : {
          name: 'Document issuer record',
          checkType: 'DOCUMENT',
          result: 'PASS',
          code: 'DOCUMENT_RECORD_MATCHED',
          message: `The issuer's record matches the ${document}'s number, name and date of birth.`,
        };
  const face: IdentityCheck =
    behaviour === 'review'
      ? {
          name: 'Face match',
          checkType: 'FACE_MATCH',
          result: 'REVIEW',
          code: 'FACE_MATCH_SCORE_INCONCLUSIVE',
          message: `The selfie may not be of the person on the ${document} (${scoreWords}); a person should compare them.`,
        }
      : behaviour === 'fail'
        ? {
            name: 'Face match',
            checkType: 'FACE_MATCH',
            result: 'FAIL',
            code: 'FACE_MATCH_SCORE_LOW',
            message: `The selfie is not of the person on the ${document} (${scoreWords}).`,
          }
        : {
            name: 'Face match',
            checkType: 'FACE_MATCH',
            result: 'PASS',
            code: 'FACE_MATCH_SCORE_HIGH',
            message: `The selfie matches the photo on the ${document} (${scoreWords}).`,
          };
  const fraud: IdentityCheck =
    behaviour === 'fraud'
      ? {
          name: 'Fraud signals',
          checkType: 'FRAUD',
          result: 'FAIL',
          code: 'IDENTITY_FRAUD_SUSPECTED',
          message: `The ${document}'s number has been presented with other identities.`,
        }
      : { name: 'Fraud signals', checkType: 'FRAUD', result: 'PASS', code: 'NO_FRAUD_SIGNALS', message: 'No fraud signals were found.' };

  return {
    checks: [authenticity, record, face, fraud],
    hardFailure: behaviour === 'fraud',
    faceMatch: { score, threshold: faceMatchThreshold, result: face.result },
  };
}
