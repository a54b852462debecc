// From what the registers said to what a lookup keeps: its parties (one per person, with every role they
// hold), the counts SPEC names, and the ownership structure with our own node ids. Pure: the caller names
// each party's idv entity (`idvEntityIdOf`).
//
// What is kept is the structure and party names only. Dates of birth and addresses are never part of it:
// the ownership view reads them live (CONTRACT §5). The provider's node ids and party references are not
// kept in the structure: persons are their idv entities, whose rows hold the reference for those live reads.
import { analyseOwnership, type OwnershipAnalysis, type OwnershipInput } from './ownership.ts';
import type { OwnershipNodeKind } from '../../providers/register/ownership-report.ts';
import type { RegisterFacts } from './register-reading.ts';

export type PartyRole = 'DIRECTOR' | 'SECRETARY' | 'OFFICER' | 'UBO' | 'SHAREHOLDER' | 'INDIVIDUAL_OWNER';

export interface Party {
  idvEntityId: string;
  partyRef: string;
  givenNames: string;
  familyName: string;
  roles: Array<{ role: PartyRole; ownershipPercent: number | null }>;
}

/** The ownership structure as stored and shown; node ids are `n1`, `n2`… in the source's order. */
export interface StoredStructure extends Pick<OwnershipAnalysis, 'ownershipSource' | 'complete' | 'truncated' | 'traversalComplete' | 'reason' | 'completeness'> {
  nodes: Array<{ id: string; kind: OwnershipNodeKind; name: string; idvEntityId: string | null; acn: string | null; abn: string | null }>;
  edges: Array<{ ownerId: string; ownedId: string; percent: number }>;
  blockedNodes: Array<{ nodeId: string; kind: OwnershipNodeKind; name: string; ownershipPercent: number }>;
  unlinkedOwners: Array<{ name: string; ownedId: string; percent: number | null }>;
  beneficialOwners: Array<{ nodeId: string; idvEntityId: string; ownershipPercent: number }>;
}

export interface PartyCounts {
  beneficialOwners: number;
  directors: number;
  officers: number;
  total: number;
}

export interface LookupResult {
  parties: Party[];
  partyCounts: PartyCounts;
  structure: StoredStructure;
}

const roleOrder: PartyRole[] = ['INDIVIDUAL_OWNER', 'DIRECTOR', 'SECRETARY', 'OFFICER', 'UBO', 'SHAREHOLDER'];

export function buildLookupResult(facts: RegisterFacts, idvEntityIdOf: (partyRef: string) => string): LookupResult {
  const reading = facts.ownership;
  const report = reading.source === 'AVAILABLE' ? reading.report : null;
  const input: OwnershipInput = !report ? { source: reading.source as 'UNAVAILABLE' | 'NOT_REQUESTED' }
    : report.graph ? { source: 'AVAILABLE', graph: report.graph } : { source: 'AVAILABLE', graph: null };
  const analysis = analyseOwnership(input);
  const persons = report?.persons ?? {};

  const parties = new Map<string, Party>();
  const add = (person: { partyRef: string; givenNames: string; familyName: string }, role: PartyRole, ownershipPercent: number | null) => {
    const party = parties.get(person.partyRef) ?? { idvEntityId: idvEntityIdOf(person.partyRef), partyRef: person.partyRef, givenNames: person.givenNames, familyName: person.familyName, roles: [] };
    if (!party.roles.some((r) => r.role === role)) party.roles.push({ role, ownershipPercent });
    parties.set(person.partyRef, party);
  };
  // A sole trader's business is the person: the proprietor is its one party, so that binding the lookup to a
  // verification verifies them. The register names them as `FAMILY, GIVEN NAMES`.
  const proprietor = facts.entity.type === 'SOLE_TRADER' && facts.abr ? proprietorOf(facts.entity.name, facts.abr.abn) : undefined;
  if (proprietor) add(proprietor, 'INDIVIDUAL_OWNER', null);
  for (const officer of facts.officers ?? []) add(officer, officer.role, null);
  const owners = new Set<string>();
  for (const owner of analysis.beneficialOwners) {
    const person = personAt(persons, owner.nodeId);
    owners.add(owner.nodeId);
    add(person, 'UBO', owner.ownershipPercent);
  }
  // Direct holders of the company below the threshold are register parties too: listed, never counted as owners.
  const root = report?.graph?.rootId;
  for (const holding of analysis.personHoldings) {
    if (owners.has(holding.nodeId)) continue;
    if (!analysis.edges.some((e) => e.ownerId === holding.nodeId && e.ownedId === root)) continue;
    add(personAt(persons, holding.nodeId), 'SHAREHOLDER', holding.ownershipPercent);
  }
  for (const party of parties.values()) party.roles.sort((a, b) => roleOrder.indexOf(a.role) - roleOrder.indexOf(b.role));

  const entries = [...parties.values()].flatMap((p) => p.roles);
  const count = (...roles: PartyRole[]) => entries.filter((e) => roles.includes(e.role)).length;
  const partyCounts = { beneficialOwners: count('UBO'), directors: count('DIRECTOR'), officers: count('DIRECTOR', 'SECRETARY', 'OFFICER'), total: parties.size };

  const ids = new Map(analysis.nodes.map((node, i) => [node.id, `n${i + 1}`]));
  const ours = (id: string) => ids.get(id)!;
  const nameOf = new Map(analysis.nodes.map((n) => [n.id, n.name]));
  const structure: StoredStructure = {
    ownershipSource: analysis.ownershipSource,
    complete: analysis.complete,
    truncated: analysis.truncated,
    traversalComplete: analysis.traversalComplete,
    reason: analysis.reason,
    completeness: analysis.completeness,
    nodes: analysis.nodes.map((n) => ({
      id: ours(n.id),
      kind: n.kind,
      name: n.name,
      idvEntityId: n.kind === 'PERSON' ? idvEntityIdOf(personAt(persons, n.id).partyRef) : null,
      acn: n.acn ?? null,
      abn: n.abn ?? null,
    })),
    edges: analysis.edges.map((e) => ({ ownerId: ours(e.ownerId), ownedId: ours(e.ownedId), percent: e.percent })),
    blockedNodes: analysis.blockedNodes.map((b) => ({ nodeId: ours(b.nodeId), kind: b.kind, name: nameOf.get(b.nodeId)!, ownershipPercent: b.ownershipPercent })),
    unlinkedOwners: analysis.unlinkedOwners.map((u) => ({ name: u.name, ownedId: ours(u.ownedId), percent: u.percent })),
    beneficialOwners: analysis.beneficialOwners.map((o) => ({ nodeId: ours(o.nodeId), idvEntityId: idvEntityIdOf(personAt(persons, o.nodeId).partyRef), ownershipPercent: o.ownershipPercent })),
  };
  return { parties: [...parties.values()], partyCounts, structure };
}

/** The proprietor named by a sole trader's register name (`TANNER, ROSALIND MAE`); their reference is the ABN. */
function proprietorOf(entityName: string, abn: string): { partyRef: string; givenNames: string; familyName: string } {
  const comma = entityName.indexOf(',');
  const familyName = (comma === -1 ? entityName : entityName.slice(0, comma)).trim();
  const givenNames = comma === -1 ? '' : entityName.slice(comma + 1).trim();
  return { partyRef: `abn:${abn}`, givenNames, familyName };
}

/** A PERSON node the report does not map to a party is a provider bug: refuse rather than guess. */
function personAt(persons: Record<string, { partyRef: string; givenNames: string; familyName: string }>, nodeId: string) {
  const person = persons[nodeId];
  if (!person) throw new Error(`Ownership report: person node ${nodeId} has no register party`);
  return person;
}
