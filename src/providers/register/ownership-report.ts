// The UBO-report provider: a company's officers and its ownership graph, and the live personal details of
// the people in them. Behind an interface because the real source is a commercial report (CONTRACT §5);
// the sandbox implements it (sandbox-register.ts).
//
// Invariants a caller can rely on:
// - A person keeps one `partyRef` across officers, the ownership report and personDetails, so a director
//   who is also an owner can be recognised as one party.
// - Graph node ids are local to one report; `persons` maps the graph's PERSON node ids to parties.
// - Personal details (date of birth, address) are only ever read live through `personDetails`; PVS keeps
//   the structure and party names, never these.
import type { RegisterResult } from './register.ts';

// The ownership graph a report carries. The lookups module walks it (modules/lookups/ownership.ts).
export type OwnershipNodeKind = 'COMPANY' | 'PERSON' | 'TRUST' | 'OTHER';
/** A company node carries its ACN, and its ABN where the source knows it, so that a reader can tell companies apart. */
export interface OwnershipNode { id: string; kind: OwnershipNodeKind; name: string; acn?: string; abn?: string; }
/** `ownerId` holds `percent` (0 < percent ≤ 100, may have decimals) of `ownedId`. */
export interface OwnershipEdge { ownerId: string; ownedId: string; percent: number; }
/** An owner the source names but cannot link to any node (no identifier). */
export interface UnlinkedOwner { name: string; ownedId: string; percent: number | null; }
export interface OwnershipGraph { rootId: string; nodes: OwnershipNode[]; edges: OwnershipEdge[]; unlinkedOwners: UnlinkedOwner[]; }

export interface RegisterParty {
  /** The source's own reference for the person, stable across calls. */
  partyRef: string;
  givenNames: string;
  familyName: string;
}

export type OfficerRole = 'DIRECTOR' | 'SECRETARY' | 'OFFICER';

/** One current appointment: a person holding two roles appears twice, with the same partyRef. */
export interface Officer extends RegisterParty {
  role: OfficerRole;
  /** YYYY-MM-DD. */
  appointedOn: string | null;
}

export interface OwnershipReport {
  /** null when the source has no graph for this company (e.g. a listed public company). */
  graph: OwnershipGraph | null;
  /** The persons of the graph by node id (graph PERSON nodes), with their register references. */
  persons: Record<string, RegisterParty>;
}

export interface PersonDetails extends RegisterParty {
  /** YYYY-MM-DD. */
  dateOfBirth: string | null;
  /** `country` is an ISO 3166-1 alpha-2 code. */
  address: { line1: string; locality: string; state: string; postcode: string; country: string } | null;
}

export interface OwnershipReportProvider {
  officers(acn: string): Promise<RegisterResult<Officer[]>>;
  ownership(acn: string): Promise<RegisterResult<OwnershipReport>>;
  /** Personal details, read live each time (never stored by PVS). Unknown refs are left out of the answer. */
  personDetails(partyRefs: string[]): Promise<RegisterResult<PersonDetails[]>>;
}
