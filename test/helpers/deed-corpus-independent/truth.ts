// What a perfect extractor returns for a case, in the terms of SPEC's `deed-analysis.completed` payload
// (`trust`, `parties[]`, `beneficiaryClasses`). Evidence fields (confidence, sourcePage, sourceQuote) are
// the extractor's account of where it read a fact, not a fact of the deed, so the truth leaves them out.
import { isValidAbn, isValidAcn } from './identifiers.ts';
import type { Entity } from './people.ts';

/** SPEC's party roles (the verification vocabulary a deed party takes). */
export type PartyRole = 'TRUSTEE' | 'APPOINTOR' | 'BENEFICIARY' | 'SETTLOR' | 'PROTECTOR_GUARDIAN' | 'UBO' | 'OTHER_CONTROLLER' | 'OTHER';

/** CONTRACT §7's trust types. */
export type TrustType = 'DISCRETIONARY' | 'UNIT' | 'HYBRID' | 'FIXED' | 'BARE' | 'SMSF' | 'OTHER';

export interface TruthTrust {
  /** As printed, without a leading "The" or a trailing "Deed"; compare without regard to case. */
  name: string | null;
  abn: string | null;
  trustType: TrustType | null;
  /** The state or territory whose law governs, by its name as printed (Victoria, New South Wales). */
  jurisdiction: string | null;
  /** As printed: 14 March 2019, 14th day of March 2019. */
  establishedDate: string | null;
  /** As printed: a date, or the phrase the deed uses. */
  vestingDate: string | null;
}

export interface TruthParty {
  role: PartyRole;
  partyKind: 'INDIVIDUAL' | 'BUSINESS';
  businessName: string | null;
  /** Every given name, in order, without a title (Mr, Dr). */
  firstName: string | null;
  /** The family name with its particles and hyphens (van der Berg, Smith-Jones). */
  lastName: string | null;
  acn: string | null;
  abn: string | null;
  address: { full: string } | null;
}

export interface DeedTruth {
  trust: TruthTrust | null;
  parties: TruthParty[];
  beneficiaryClasses: string[];
}

/** One entry per (entity, role): a member of a fund who is also its trustee is two entries. */
export function partyOf(entity: Entity, role: PartyRole): TruthParty {
  if (entity.kind === 'person') {
    return {
      role,
      partyKind: 'INDIVIDUAL',
      businessName: null,
      firstName: entity.given.join(' '),
      lastName: entity.family,
      acn: null,
      abn: null,
      address: entity.address ? { full: entity.address } : null,
    };
  }
  return {
    role,
    partyKind: 'BUSINESS',
    businessName: entity.name,
    firstName: null,
    lastName: null,
    // Printed but failing its check digit: not a number the payload may carry.
    acn: entity.acnPrinted && isValidAcn(entity.acnPrinted) ? entity.acnPrinted : null,
    abn: entity.abnPrinted && isValidAbn(entity.abnPrinted) ? entity.abnPrinted : null,
    address: entity.address ? { full: entity.address } : null,
  };
}
