// What the two PDF reports print, gathered by reports.service.ts and laid out by entity-report.ts and
// individual-report.ts. Plain data: the renderers read nothing else, so a test can render any case.
// Personal details appear here only for the time of one rendering: nothing in a model is stored.

import type { AnsweredPersonDetails } from '../person-details.ts';

export type ReportRiskLevel = 'LOW' | 'MEDIUM' | 'HIGH' | 'UNKNOWN';

/** Printed on every page: what this document is, for which request, and when it was made. */
export interface ReportHeader {
  /** `Entity due diligence report` or `Individual verification report`. */
  title: string;
  verificationRequestId: string;
  generatedAt: Date;
  /** The channel partner the report is for. */
  partnerName: string;
}

export interface ReportIssue {
  individualId?: string;
  code: string;
  message: string;
}

export interface ReportCheck {
  name: string;
  checkType: string;
  /** PASS, FAIL, REVIEW, INCONCLUSIVE or a value a provider adds: print it as given. */
  result: string;
  code: string;
  message?: string;
}

/**
 * An operator's decision on an individual who needed review. `decidedBy` is the operator's id. The
 * operator's note is not here: it may describe the person and stays with PVS (decision 94).
 */
export interface ReportDecision {
  decision: 'PASS' | 'FAIL';
  decidedBy: string;
  decidedAt: Date;
}

export interface ReportIndividual {
  individualId: string;
  externalId: string | null;
  /** TRUSTEE, UBO, DIRECTOR … and the partner's free-text description. */
  role: string;
  roleDescription: string | null;
  /** The verified name (given names then family name); null when the person has not given it or it could not be read. */
  name: string | null;
  /** For a lookup-bound individual, the party's name as the register gave it; null on a hand-built request. */
  registerName: string | null;
  /**
   * Whether the verified name is the register's (same family name and first given name, ignoring case,
   * accents and punctuation); null when either is missing. False deserves a compliance officer's look.
   */
  registerNameMatches: boolean | null;
  /** The date of birth the person entered (YYYY-MM-DD); null when they have not given it or it could not be read. */
  dateOfBirth: string | null;
  /**
   * For a lookup-bound individual who has entered theirs, the party's date of birth as the register holds
   * it, read live for this rendering; null on a hand-built request or when the register holds none.
   */
  registerDateOfBirth: string | null;
  /**
   * Whether the date of birth entered is the register's, exactly; null when either is missing. A date of
   * birth never changes, so false means the register is wrong or someone else completed the link
   * (decision 122).
   */
  registerDateOfBirthMatches: boolean | null;
  /** PENDING, IN_PROGRESS, PASSED, MANUALLY_PASSED, FAILED, MANUAL_REVIEW, LOCKED_OUT. */
  status: string;
  riskLevel: ReportRiskLevel;
  attemptCount: number;
  maxAttempts: number;
  createdAt: Date;
  completedAt: Date | null;
  manualOverride: boolean;
  decision: ReportDecision | null;
}

export interface ReportRequest {
  verificationRequestId: string;
  mode: 'AUSTRAC_CDD' | 'TPB_POI';
  /** DRAFT, UBO_REVIEW, READY_TO_SEND, VERIFICATIONS_SENT, COMPLETED. */
  status: string;
  riskLevel: ReportRiskLevel;
  entityName: string | null;
  lookupRequestId: string | null;
  createdAt: Date;
  completedAt: Date | null;
  issues: ReportIssue[];
}

/** The registers' identity of the entity, as the bound lookup found it (CONTRACT §5 registry view). */
export interface ReportRegistry {
  retrievedAt: Date;
  abr: {
    abn: string;
    status: string;
    statusFrom: string | null;
    entityName: string;
    entityType: string;
    gstRegisteredFrom: string | null;
    businessNames: string[];
    state: string | null;
    postcode: string | null;
  } | null;
  asic: {
    acn: string;
    name: string;
    type: string | null;
    class: string | null;
    status: string;
    registeredOn: string | null;
    deregisteredOn: string | null;
  } | null;
}

export type ReportNodeKind = 'COMPANY' | 'PERSON' | 'TRUST' | 'OTHER';

/** The ownership structure of the bound lookup: node `n1` is the entity itself; edges point owner → owned. */
export interface ReportOwnership {
  structureAsOf: Date | null;
  ownershipSource: 'AVAILABLE' | 'UNAVAILABLE' | 'NOT_REQUESTED';
  completeness: 'HIGH' | 'PARTIAL' | 'UNKNOWN';
  /** COMPLETE, TRUNCATED, BLOCKED_NODES, UNLINKED_OWNERS, SOURCE_UNAVAILABLE, NOT_REQUESTED, UNKNOWN. */
  reason: string;
  nodes: Array<{ id: string; kind: ReportNodeKind; name: string; acn: string | null; abn: string | null }>;
  edges: Array<{ ownerId: string; ownedId: string; percent: number }>;
  /** Individuals holding 25 % or more, directly or through companies. */
  beneficialOwners: Array<{ nodeId: string; name: string; ownershipPercent: number }>;
  /** Entities that stopped the traversal (trusts), with the share of the entity they carry. */
  blockedNodes: Array<{ nodeId: string; kind: ReportNodeKind; name: string; ownershipPercent: number }>;
  unlinkedOwners: Array<{ name: string; ownedId: string; percent: number | null }>;
}

export interface EntityReportModel {
  header: ReportHeader;
  request: ReportRequest;
  /** Null for a hand-built request: the report then says register data is unavailable (SPEC rule 4). */
  registry: ReportRegistry | null;
  /** Null for a hand-built request, or a lookup whose scope had no ownership report. */
  ownership: ReportOwnership | null;
  individuals: ReportIndividual[];
}

/** Who the person proved to be, read live from the identity provider for this rendering. */
export interface ReportIdentity extends AnsweredPersonDetails {
  document: { type: 'PASSPORT' | 'DRIVER_LICENCE' | 'MEDICARE'; number: string; issuingCountry: string; issuingState: string | null; expiryDate: string | null };
  /** When the provider checked the attempt these details come from. */
  verifiedAt: Date;
  attempt: number;
}

export interface ReportAttempt {
  number: number;
  /** CHECKING, PASSED, MANUAL_REVIEW, RETRY, FAILED, LOCKED_OUT, UNAVAILABLE. */
  status: string;
  submittedAt: Date;
  checkedAt: Date | null;
}

export interface IndividualReportModel {
  header: ReportHeader;
  request: Pick<ReportRequest, 'verificationRequestId' | 'mode' | 'entityName' | 'lookupRequestId'>;
  individual: ReportIndividual;
  /** Null when there is nothing verified to print; `identityNote` then says why, in a sentence. */
  identity: ReportIdentity | null;
  identityNote: string | null;
  /** Every check of the latest outcome, AML screening among them (checkType `AML`). */
  checks: ReportCheck[];
  /** From the AML check: CLEAR, POSSIBLE_MATCH (with how many entries), or NOT_RUN before any outcome. */
  aml: { outcome: 'CLEAR' | 'POSSIBLE_MATCH' | 'NOT_RUN'; matchCount: number };
  attempts: ReportAttempt[];
  /** The link first opened (IN_PROGRESS), when known. */
  startedAt: Date | null;
}
