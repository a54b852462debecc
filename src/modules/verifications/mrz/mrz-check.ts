// What PVS's reading of a passport's zone means for an attempt: the finding the evidence endpoint shows
// and the one `checkResults` item the check job records. Pure. A message names fields, never their values.
//
//   zone read, every check digit holds, every field entered matches     PASS          MRZ_VALID_AND_MATCHING
//   zone read, check digits hold, a field differs                       REVIEW        MRZ_DETAILS_MISMATCH
//   zone read, a check digit does not hold                              INCONCLUSIVE  MRZ_CHECK_DIGIT_INVALID
//   no zone read                                                        INCONCLUSIVE  MRZ_NOT_READ
//
// A wrong check digit is INCONCLUSIVE rather than REVIEW: a misreading and an altered document both cause
// it, and the document provider's own checks decide. Fields are only compared once the digits hold.
import type { CheckResultItem } from '../verifications.repository.ts';
import { td3CheckedFields, type Td3Field } from './icao9303.ts';
import { compareWithEntered, type Comparison, type ComparedField, type EnteredDetails } from './mrz-compare.ts';
import type { MrzNotFound, MrzRead } from './mrz-reader.ts';

/** The zone as the evidence endpoint shows it (document-details' `machineReadableZone`). */
export interface MrzFinding {
  found: boolean;
  /** The two lines as read and corrected, 44 characters each; empty when not found. */
  lines: string[];
  checkDigits: Array<{ field: Td3Field; valid: boolean }>;
  comparisons: Comparison[];
}

export function findingOf(read: MrzRead, entered: EnteredDetails): MrzFinding {
  if (!read.found) return { found: false, lines: [], checkDigits: [], comparisons: [] };
  return {
    found: true,
    lines: [...read.lines],
    checkDigits: td3CheckedFields.map((field) => ({ field, valid: read.checkDigits[field] })),
    comparisons: compareWithEntered(read.fields, entered),
  };
}

const fieldWords: Record<ComparedField | Td3Field, string> = {
  documentNumber: 'document number',
  surname: 'surname',
  givenNames: 'given names',
  dateOfBirth: 'date of birth',
  expiryDate: 'expiry date',
  issuingCountry: 'issuing country',
  personalNumber: 'personal number',
  composite: 'composite',
};

/** "the a", "the a and b", "the a, b and c". */
function listOf(fields: ReadonlyArray<ComparedField | Td3Field>): string {
  const words = fields.map((f) => fieldWords[f]);
  return `the ${words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words[0]}`;
}

const notReadWords: Record<MrzNotFound, string> = {
  UNREADABLE_IMAGE: 'the front image could not be decoded',
  TOO_SMALL: 'the front image is too small to hold a readable zone',
  NO_ZONE: 'no machine-readable zone was found on the front image',
  OCR_FAILED: 'the text recognition did not complete',
  READER_CLOSED: 'the reader was shutting down',
};

const name = 'Passport machine-readable zone';
const checkType = 'DOCUMENT_MRZ';

/** The one `checkResults` item for a reading of the zone. */
export function mrzCheckOf(read: MrzRead, finding: MrzFinding): CheckResultItem {
  if (!read.found) {
    return { name, checkType, result: 'INCONCLUSIVE', code: 'MRZ_NOT_READ', message: `The passport's machine-readable zone was not read: ${notReadWords[read.reason]}.` };
  }
  const wrong = finding.checkDigits.filter((c) => !c.valid).map((c) => c.field);
  if (wrong.length) {
    const digits = wrong.length === 1 && wrong[0] === 'composite' ? 'the composite check digit does' : `the check ${wrong.length > 1 ? 'digits' : 'digit'} of ${listOf(wrong)} ${wrong.length > 1 ? 'do' : 'does'}`;
    return {
      name,
      checkType,
      result: 'INCONCLUSIVE',
      code: 'MRZ_CHECK_DIGIT_INVALID',
      message: `In the machine-readable zone as read, ${digits} not match the data: a misreading or an altered document; the document provider's checks decide.`,
    };
  }
  const differing = finding.comparisons.filter((c) => c.result === 'MISMATCH').map((c) => c.field);
  if (differing.length) {
    return { name, checkType, result: 'REVIEW', code: 'MRZ_DETAILS_MISMATCH', message: `In the machine-readable zone, ${listOf(differing)} ${differing.length > 1 ? 'differ' : 'differs'} from what the person entered.` };
  }
  return { name, checkType, result: 'PASS', code: 'MRZ_VALID_AND_MATCHING', message: 'The machine-readable zone was read, its check digits hold, and it matches what the person entered.' };
}

/** The finding and the check item of one reading, as the check job and the evidence endpoint need them. */
export function judgeMrz(read: MrzRead, entered: EnteredDetails): { finding: MrzFinding; check: CheckResultItem } {
  const finding = findingOf(read, entered);
  return { finding, check: mrzCheckOf(read, finding) };
}
