// What the sandbox register holds about a company, the way the real registers split it: ABR's facts (the
// ABN record), ASIC's facts (the company record, its officers) and the share register (its direct holders).
// The UBO report is not stored: it is built from the direct holdings on each call, as a report provider
// builds it from ASIC's share register.
import type { OfficerRole, OwnershipEdge, OwnershipGraph, OwnershipNode, OwnershipReport, RegisterParty, UnlinkedOwner } from '../ownership-report.ts';
import type { AbnRecord, CompanyRecord } from '../register.ts';

/** One direct holder of a company's shares. */
export type Holding =
  | { kind: 'PERSON'; party: RegisterParty; percent: number }
  | { kind: 'COMPANY'; acn: string; percent: number }
  /** Shares held by a trustee for a trust: the report names the trust and cannot see behind it. */
  | { kind: 'TRUST'; name: string; percent: number }
  /** A holder the share register names without anything that identifies it. */
  | { kind: 'UNLINKED'; name: string; percent: number | null };

export interface SandboxCompany {
  acn: string;
  abn: string;
  name: string;
  abr: Pick<AbnRecord, 'status' | 'statusFrom' | 'gstRegisteredFrom' | 'businessNames' | 'state' | 'postcode'> & { entityTypeCode: 'PRV' | 'PUB' };
  asic: Pick<CompanyRecord, 'type' | 'class' | 'subClass' | 'status' | 'registeredOn' | 'deregisteredOn'>;
  /** Current appointments only: a deregistered company has none. */
  officers: Array<{ party: RegisterParty; role: OfficerRole; appointedOn: string }>;
  /** `null`: the report has no graph (a listed company, a deregistered one); `UNAVAILABLE`: the source fails. */
  holdings: Holding[] | null | 'UNAVAILABLE';
}

const entityTypeNames = { PRV: 'Australian Private Company', PUB: 'Australian Public Company' } as const;

export function abnRecordOf(company: SandboxCompany): AbnRecord {
  const { abr } = company;
  return {
    abn: company.abn,
    status: abr.status,
    statusFrom: abr.statusFrom,
    entityName: company.name,
    entityType: 'COMPANY',
    entityTypeCode: abr.entityTypeCode,
    entityTypeName: entityTypeNames[abr.entityTypeCode],
    acn: company.acn,
    gstRegisteredFrom: abr.gstRegisteredFrom,
    businessNames: [...abr.businessNames],
    state: abr.state,
    postcode: abr.postcode,
  };
}

export function companyRecordOf(company: SandboxCompany): CompanyRecord {
  return { acn: company.acn, name: company.name, ...company.asic, abn: company.abn };
}

/**
 * The company's ABN: the ACN behind two digits 10–99 that make the ABN check digit valid. ABN weights the
 * first digit (less one) by 10 and the second by 1, so the two digits add 0–89 to the weighted sum: every ACN
 * has one such prefix, or two (10 and 99) when the rest of the sum already divides by 89. Then the smaller,
 * 10, is the company's; the ABN 99… is some other business (see `syntheticBusiness`).
 */
export function abnOfAcn(acn: string): string {
  const weights = [3, 5, 7, 9, 11, 13, 15, 17, 19];
  const rest = [...acn].reduce((sum, digit, i) => sum + Number(digit) * weights[i]!, 0);
  const prefix = (89 - (rest % 89)) % 89; // 10 × (first − 1) + second ≡ −rest (mod 89)
  return `${Math.floor(prefix / 10) + 1}${prefix % 10}${acn}`;
}

/** Everyone the company's records name: its officers and its individual holders, each once. */
export function partiesOf(company: SandboxCompany): RegisterParty[] {
  const holders = Array.isArray(company.holdings) ? company.holdings.flatMap((h) => (h.kind === 'PERSON' ? [h.party] : [])) : [];
  const byRef = new Map([...company.officers.map((o) => o.party), ...holders].map((p) => [p.partyRef, p]));
  return [...byRef.values()];
}

/** Node ids are local to one report; prefixed so a company, a person and a trust can never collide. */
const companyNode = (acn: string) => `company:${acn}`;
const personNode = (party: RegisterParty) => `person:${party.partyRef}`;

/**
 * The UBO report of `rootAcn`: every holder of the root, their holders, and so on, breadth first, the whole
 * depth (cutting it at a depth limit is the traversal's work, not the source's). Companies held through two
 * routes appear once.
 */
export function buildOwnershipReport(root: SandboxCompany, companyOf: (acn: string) => SandboxCompany): OwnershipReport | 'UNAVAILABLE' {
  if (root.holdings === 'UNAVAILABLE') return 'UNAVAILABLE';
  if (root.holdings === null) return { graph: null, persons: {} };

  const nodes: OwnershipNode[] = [{ id: companyNode(root.acn), kind: 'COMPANY', name: root.name, acn: root.acn, abn: root.abn }];
  const edges: OwnershipEdge[] = [];
  const unlinkedOwners: UnlinkedOwner[] = [];
  const persons: Record<string, RegisterParty> = {};
  const seen = new Set<string>(nodes.map((n) => n.id));
  const queue: SandboxCompany[] = [root];
  const addNode = (node: OwnershipNode) => {
    if (seen.has(node.id)) return;
    seen.add(node.id);
    nodes.push(node);
  };

  for (let company = queue.shift(); company; company = queue.shift()) {
    const ownedId = companyNode(company.acn);
    if (!Array.isArray(company.holdings)) {
      throw new Error(`Sandbox register data: ${company.name} (${company.acn}) holds part of ${root.acn} but has no share register`);
    }
    company.holdings.forEach((holding, i) => {
      if (holding.kind === 'UNLINKED') {
        unlinkedOwners.push({ name: holding.name, ownedId, percent: holding.percent });
        return;
      }
      let ownerId: string;
      if (holding.kind === 'PERSON') {
        ownerId = personNode(holding.party);
        addNode({ id: ownerId, kind: 'PERSON', name: `${holding.party.givenNames} ${holding.party.familyName}` });
        persons[ownerId] = { ...holding.party };
      } else if (holding.kind === 'TRUST') {
        ownerId = `trust:${company.acn}-${i + 1}`;
        addNode({ id: ownerId, kind: 'TRUST', name: holding.name });
      } else {
        const owner = companyOf(holding.acn);
        ownerId = companyNode(owner.acn);
        if (!seen.has(ownerId)) queue.push(owner);
        addNode({ id: ownerId, kind: 'COMPANY', name: owner.name, acn: owner.acn, abn: owner.abn });
      }
      edges.push({ ownerId, ownedId, percent: holding.percent });
    });
  }
  const graph: OwnershipGraph = { rootId: companyNode(root.acn), nodes, edges, unlinkedOwners };
  return { graph, persons };
}

/** A small seeded generator (FNV-1a into mulberry32): the same seed gives the same sequence on every run. */
export function seededRandom(seed: string): () => number {
  let state = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 0x01000193);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pickFrom<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A YYYY-MM-DD date between two years, inclusive; day ≤ 28 so every month has it. */
export function dateBetween(random: () => number, fromYear: number, toYear: number): string {
  const year = fromYear + Math.floor(random() * (toYear - fromYear + 1));
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `date` moved on by whole days. */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00.000Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}
