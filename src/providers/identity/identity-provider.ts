// The identity provider: the separate system that keeps what a person gives in the hosted verification
// flow (their details, an identity document with its images, a selfie) and runs the checks on it:
// document verification, face match and fraud signals. PVS never stores a name, date of birth, email,
// phone or document number; it keeps only the provider's opaque subject reference and the results.
// The claimed identity comes back live from `verify` and `evidence`, for screening and for the partner,
// and is kept nowhere by PVS.
//
// Expected outcomes (the provider being down, a subject it has forgotten) come back as values; an
// exception is a bug (a step saved for a subject never created, verify before every step is saved).
// The images given to it have passed `cleanImage` (src/platform/images.ts): JPEG or PNG, no metadata.

export type IdentityDocumentType = 'PASSPORT' | 'DRIVER_LICENCE' | 'MEDICARE';

/** Dates are YYYY-MM-DD; countries ISO 3166-1 alpha-2, as the hosted flow validated them. */
export interface PersonDetails {
  firstName: string;
  middleName?: string;
  lastName: string;
  dateOfBirth: string;
  /** `state` and `postcode` are required for an Australian address, optional elsewhere. */
  address: { line1: string; line2?: string; locality: string; state?: string; postcode?: string; country: string };
  email?: string;
  phone?: string;
}

export interface IdentityImage {
  contentType: 'image/jpeg' | 'image/png';
  bytes: Buffer;
}

export interface IdentityDocumentFields {
  type: IdentityDocumentType;
  number: string;
  issuingCountry: string;
  issuingState?: string;
  /** A driver licence's card number, or a Medicare card's individual reference number. */
  cardNumber?: string;
  expiryDate?: string;
}

export interface IdentityDocument extends IdentityDocumentFields {
  front: IdentityImage;
  back?: IdentityImage;
}

export type IdentityStep = 'details' | 'document' | 'selfie';

export type CheckType = 'DOCUMENT' | 'FACE_MATCH' | 'FRAUD';
export type CheckResult = 'PASS' | 'FAIL' | 'REVIEW';

/** One check as CONTRACT §6 lists it in `checkResults[]`. Codes and messages never carry personal details. */
export interface IdentityCheck {
  name: string;
  checkType: CheckType;
  result: CheckResult;
  /** Upper snake case: `DOCUMENT_AUTHENTIC`, `FACE_MATCH_SCORE_HIGH`, `NO_FRAUD_SIGNALS` … */
  code: string;
  message?: string;
}

/** Who the person says they are: what AML screening needs. Returned live, never stored by PVS. */
export interface ClaimedIdentity {
  /** Given names and family name, in that order, single-spaced. */
  fullName: string;
  dateOfBirth: string;
  /** The identity document's issuing country. */
  country: string;
  /** The residential address's country. */
  residenceCountry: string;
}

export interface FaceComparison {
  /** Similarity of the selfie to the document's photo, 0 to 1. */
  score: number;
  /** The provider's pass mark for `score`. */
  threshold: number;
  result: CheckResult;
}

/** The provider could not be reached or failed on its side; trying again later may work. */
export interface IdentityUnavailable {
  ok: false;
  kind: 'unavailable';
  message: string;
}

/**
 * The provider refused what the person gave at a step (a 4xx that says the input is wrong: no face in the
 * selfie, a document it cannot read or does not take). `pointer` is the step's field it concerns, and
 * `message` says, in the person's words, what to do; neither carries personal details.
 */
export interface IdentityRejected {
  ok: false;
  kind: 'rejected';
  pointer: string;
  message: string;
}

/** The checks were started and are still running at the provider: ask again after `retryInSeconds`. */
export interface IdentityPending {
  ok: false;
  kind: 'pending';
  retryInSeconds: number;
  message: string;
}

/** The subject is not known to the provider: never created, or forgotten. */
export interface IdentitySubjectNotFound {
  ok: false;
  kind: 'not_found';
  message: string;
}

export type CreateSubjectResult = { ok: true; subjectRef: string } | IdentityUnavailable;

/** A saved step answers the steps still missing after it (what `missing` would answer next). */
export type SaveResult = { ok: true; missing: IdentityStep[] } | IdentityRejected | IdentityUnavailable;

export type MissingResult = { ok: true; missing: IdentityStep[] } | IdentityUnavailable;

export interface Verification {
  ok: true;
  /** The attempt these results belong to, as the caller numbered it. */
  attempt: number;
  checks: IdentityCheck[];
  /** A result that must fail the individual at once, whatever attempts remain (a fraud signal). */
  hardFailure: boolean;
  faceMatch: FaceComparison;
  claimed: ClaimedIdentity;
}

export type VerifyResult = Verification | IdentityPending | IdentityUnavailable;

/** What the provider holds on a verified attempt, for the partner's evidence view (CONTRACT §6). */
export interface IdentityEvidence {
  attempt: number;
  verifiedAt: Date;
  details: PersonDetails;
  /** The document's fields, and its images when scans were asked for. */
  document: IdentityDocumentFields & { front?: IdentityImage; back?: IdentityImage };
  /** Present when scans were asked for. */
  selfie?: IdentityImage;
  claimed: ClaimedIdentity;
  faceMatch: FaceComparison;
  checks: IdentityCheck[];
  /** What the provider itself said, behind `checks`; absent for a provider with no reports of its own (the sandbox). */
  providerResults?: ProviderResults;
}

/**
 * A provider's own results of an attempt, in its own words (Onfido: `clear`, `consider`, `caution` …), so
 * a reviewer of `DOCUMENT_CONSIDER` can see which sub-check said so. Results and names of sub-checks only:
 * never a value the person gave or the provider read.
 */
export interface ProviderResults {
  /** `onfido`. */
  provider: string;
  reports: ProviderReport[];
}

export interface ProviderReport {
  /** The provider's name for the report: `document`, `facial_similarity_photo` … */
  name: string;
  /** `complete`, or why not (`withdrawn`, `cancelled`); null when the provider gave none. */
  status: string | null;
  /** `clear`, `consider` or `unidentified`; null for a report that did not complete. */
  result: string | null;
  /** The finer verdict of a document report (`clear`, `rejected`, `suspected`, `caution`); null otherwise. */
  subResult: string | null;
  /** Every sub-check that gave a result, parents before children, in the provider's order. */
  breakdown: ProviderBreakdownItem[];
}

export interface ProviderBreakdownItem {
  /** The sub-check's path, dotted: `visual_authenticity`, `visual_authenticity.original_document_present`. */
  item: string;
  result: string;
}

/** `evidence: null` when the subject has no verified attempt yet. */
export type EvidenceResult = { ok: true; evidence: IdentityEvidence | null } | IdentitySubjectNotFound | IdentityUnavailable;

export type ForgetResult = { ok: true } | IdentityUnavailable;

/**
 * Who receives the person's details and where they are processed, for the consent step (APP 8: a
 * disclosure to an overseas recipient is named before it happens).
 */
export interface IdentityDisclosure {
  /** The organisation that keeps and checks what the person gives: `Onfido`. */
  recipient: string;
  /** Where it is processed, as a place a person knows: `the European Union`. */
  location: string;
}

/** A provider's notification that checks finished, once its signature is verified. */
export type IdentityNotification =
  | { ok: true; kind: 'checks_finished'; subjectRef: string; attempt: number }
  /** Signed correctly but about nothing PVS waits for (another event type, a check PVS did not start). */
  | { ok: true; kind: 'ignored'; reason: string }
  | { ok: false; kind: 'bad_signature'; message: string };

export interface IdentityProvider {
  readonly name: 'sandbox' | 'none' | 'onfido';
  /** The documents it can check, in the order the page offers them; others are refused at the document step. */
  readonly documentTypes: readonly IdentityDocumentType[];
  /** Null for the sandbox and `none`, which disclose nothing to anyone. */
  readonly disclosure: IdentityDisclosure | null;
  /**
   * Where the evidence's document number, expiry and issuing country come from: `ENTERED`, what the person
   * typed (kept by the provider); `READ`, what the provider read from the images (Onfido keeps nothing typed
   * of the document). Only what was entered is compared with the passport's machine-readable zone.
   */
  readonly documentFields: 'ENTERED' | 'READ';
  /** A new, empty subject for one individual; PVS keeps only the reference. */
  createSubject(): Promise<CreateSubjectResult>;
  /** Each save replaces the step saved before for the subject: the person may correct a step before submitting. */
  saveDetails(subjectRef: string, details: PersonDetails): Promise<SaveResult>;
  saveDocument(subjectRef: string, document: IdentityDocument): Promise<SaveResult>;
  saveSelfie(subjectRef: string, selfie: IdentityImage): Promise<SaveResult>;
  /** The steps not saved yet, in flow order; empty when the subject can be verified. */
  missing(subjectRef: string): Promise<MissingResult>;
  /**
   * Runs the checks on what is saved now, as attempt `attempt`. The same attempt asked again answers the
   * first answer without running anything (a job retried after it crashed gets the same results); a step
   * saved after that changes only later attempts. Throws when a step is missing: check `missing` first.
   * A provider whose checks take time answers `pending` until they finish; asking again then reads the
   * checks already started, never starts a second set.
   */
  verify(subjectRef: string, input: { attempt: number }): Promise<VerifyResult>;
  /** What the last verified attempt was run on; images only with `includeScans`. */
  evidence(subjectRef: string, input: { includeScans: boolean }): Promise<EvidenceResult>;
  /** Deletes everything the provider holds on the subject. Forgetting an unknown subject succeeds. */
  forget(subjectRef: string): Promise<ForgetResult>;
  /**
   * For a provider that reports finished checks by webhook: verifies the signature over the raw body and
   * says which subject's attempt finished. Absent when the provider answers `verify` at once.
   */
  notification?(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<IdentityNotification>;
}
