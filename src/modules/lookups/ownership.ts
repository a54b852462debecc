// Ownership traversal and completeness (CONTRACT §5, SPEC "Completeness rules"): pure functions, no I/O.
// The lookup service passes in the graph the UBO-report provider returned and presents what comes out.
// The graph's types are the provider's (providers/register/ownership-report.ts): it is what a register speaks.
import type { OwnershipEdge, OwnershipGraph, OwnershipNode, OwnershipNodeKind, UnlinkedOwner } from '../../providers/register/ownership-report.ts';

export type OwnershipSource = 'AVAILABLE' | 'UNAVAILABLE' | 'NOT_REQUESTED';
export type OwnershipReason = 'COMPLETE' | 'TRUNCATED' | 'BLOCKED_NODES' | 'UNLINKED_OWNERS' | 'SOURCE_UNAVAILABLE' | 'NOT_REQUESTED' | 'UNKNOWN';
export type Completeness = 'HIGH' | 'PARTIAL' | 'UNKNOWN';

export interface BeneficialOwner { nodeId: string; ownershipPercent: number; /** every path, for explanation */ paths: string[][]; }
export interface OwnershipAnalysis {
  ownershipSource: OwnershipSource;
  complete: boolean;
  truncated: boolean;
  traversalComplete: boolean | null;
  reason: OwnershipReason;
  completeness: Completeness;
  /** Persons whose indirect holding (product along each path, summed over paths) is ≥ 25 %. Sorted by percent desc, then id. */
  beneficialOwners: BeneficialOwner[];
  /** Every person reached with their total percent (also those under 25 %), for display. */
  personHoldings: Array<{ nodeId: string; ownershipPercent: number }>;
  /** Nodes that stopped the traversal: trusts (and OTHER entities whose owners cannot be known), with the percent of the root they carry. */
  blockedNodes: Array<{ nodeId: string; kind: OwnershipNodeKind; ownershipPercent: number }>;
  unlinkedOwners: UnlinkedOwner[];
  /** The nodes and edges actually reached from the root (within the depth limit). */
  nodes: OwnershipNode[];
  edges: OwnershipEdge[];
}

export type OwnershipInput =
  | { source: 'AVAILABLE'; graph: OwnershipGraph; depthLimit?: number; threshold?: number }
  | { source: 'UNAVAILABLE' | 'NOT_REQUESTED' }
  | { source: 'AVAILABLE'; graph: null }; // the source answered but there is no graph (e.g. a listed public company)

export interface CompletenessFields {
  ownershipSource: OwnershipSource; complete: boolean; truncated: boolean; unlinkedOwners: unknown[];
  blockedNodes: unknown[]; traversalComplete: boolean | null; reason: OwnershipReason; hasGraph: boolean;
}

export const DEFAULT_DEPTH_LIMIT = 6;
export const BENEFICIAL_OWNER_THRESHOLD = 25;
/** Float slack for the threshold test: 30 % × 83.333… % gives 24.999999999999996 and must count as 25 %. */
const EPSILON = 1e-9;
/** A source rounds each holding itself, so one company's owners may add up to a hair over 100 %. */
const SUM_TOLERANCE = 0.01;

/** SPEC's three rules, precedence UNKNOWN over PARTIAL over HIGH. */
export function completenessOf(f: CompletenessFields): Completeness {
  const sourceAnswered = f.ownershipSource === 'AVAILABLE';
  if (f.traversalComplete === null || f.reason === 'UNKNOWN' || !f.hasGraph || !sourceAnswered) return 'UNKNOWN';
  if (f.blockedNodes.length > 0 || f.unlinkedOwners.length > 0 || f.truncated) return 'PARTIAL';
  if (sourceAnswered && f.complete && !f.truncated && f.unlinkedOwners.length === 0) return 'HIGH';
  // Not covered by the SPEC: a graph flagged incomplete without a named gap. HIGH is a promise we cannot
  // make, and the structure is known, so it is partial rather than unknown.
  return 'PARTIAL';
}

/** Rounds for output only; comparisons use the unrounded value. The nudge keeps 12.345 from rounding down. */
export function roundPercent(value: number): number {
  return Math.round((value + EPSILON) * 100) / 100;
}

export function analyseOwnership(input: OwnershipInput): OwnershipAnalysis {
  if (input.source !== 'AVAILABLE') return withoutGraph(input.source, input.source === 'UNAVAILABLE' ? 'SOURCE_UNAVAILABLE' : 'NOT_REQUESTED');
  if (input.graph === null) return withoutGraph('AVAILABLE', 'UNKNOWN');
  const depthLimit = input.depthLimit ?? DEFAULT_DEPTH_LIMIT;
  const threshold = input.threshold ?? BENEFICIAL_OWNER_THRESHOLD;
  if (!Number.isInteger(depthLimit) || depthLimit < 1) throw new Error(`Ownership depth limit must be an integer ≥ 1, got ${depthLimit}`);
  if (!(threshold > 0 && threshold <= 100)) throw new Error(`Beneficial-owner threshold must be in (0, 100], got ${threshold}`);

  const graph = input.graph;
  const { nodes, ownersOf, unlinkedOf } = indexGraph(graph);
  const persons = new Map<string, { fraction: number; paths: string[][] }>();
  const blocked = new Map<string, number>();
  const reachedNodes = new Set<string>([graph.rootId]);
  const reachedEdges = new Set<OwnershipEdge>();
  const reachedUnlinked = new Set<UnlinkedOwner>();
  let truncated = false;

  // Enumerates every simple path from the root outwards. Paths, not nodes, are the unit: a person reached
  // by two routes holds the sum, so a node may be walked more than once (the depth limit bounds the work).
  //
  // Cycles: an owner already on the current path is not walked again, so every path is simple, finite and
  // counted once. The share that flows round a cycle (A holds part of B which holds part of A, or a company
  // holding itself) ends at a company, not a person, so it cannot be attributed to anyone and is left out of
  // every person's total. That is not a gap in what the source told us (every edge was read), so a cycle on
  // its own does not make the traversal truncated or incomplete; the cycle edge is still listed in `edges`.
  const walk = (path: string[], fraction: number): void => {
    const ownedId = path[path.length - 1]!;
    const ownerDepth = path.length; // the root, alone on the path, is depth 0; its owners are depth 1
    const edges = ownersOf.get(ownedId) ?? [];
    const unlinked = unlinkedOf.get(ownedId) ?? [];
    for (const edge of edges) {
      if (path.includes(edge.ownerId)) { reachedEdges.add(edge); continue; }
      if (ownerDepth > depthLimit) { truncated = true; continue; }
      reachedEdges.add(edge);
      reachedNodes.add(edge.ownerId);
      const share = fraction * (edge.percent / 100);
      const ownerPath = [...path, edge.ownerId];
      const kind = nodes.get(edge.ownerId)!.kind;
      if (kind === 'COMPANY') walk(ownerPath, share);
      else if (kind === 'PERSON') {
        const held = persons.get(edge.ownerId) ?? { fraction: 0, paths: [] };
        persons.set(edge.ownerId, { fraction: held.fraction + share, paths: [...held.paths, ownerPath] });
      } else blocked.set(edge.ownerId, (blocked.get(edge.ownerId) ?? 0) + share);
    }
    // An unlinked owner sits one level above the company it holds, so the depth limit cuts it like an edge.
    if (unlinked.length > 0 && ownerDepth > depthLimit) truncated = true;
    else for (const owner of unlinked) reachedUnlinked.add(owner);
  };
  walk([graph.rootId], 1);

  const held = [...persons].map(([nodeId, p]) => ({ nodeId, percent: p.fraction * 100, paths: p.paths })).sort(byPercentThenId);
  const beneficialOwners = held
    .filter((p) => p.percent >= threshold - EPSILON)
    .map((p) => ({ nodeId: p.nodeId, ownershipPercent: roundPercent(p.percent), paths: p.paths }));
  const blockedNodes = [...blocked]
    .map(([nodeId, fraction]) => ({ nodeId, percent: fraction * 100 }))
    .sort(byPercentThenId)
    .map((b) => ({ nodeId: b.nodeId, kind: nodes.get(b.nodeId)!.kind, ownershipPercent: roundPercent(b.percent) }));
  const unlinkedOwners = graph.unlinkedOwners.filter((u) => reachedUnlinked.has(u));
  const complete = !truncated && blockedNodes.length === 0 && unlinkedOwners.length === 0;
  const reason: OwnershipReason = truncated ? 'TRUNCATED'
    : blockedNodes.length > 0 ? 'BLOCKED_NODES'
      : unlinkedOwners.length > 0 ? 'UNLINKED_OWNERS' : 'COMPLETE';
  const fields = { ownershipSource: 'AVAILABLE' as const, complete, truncated, traversalComplete: !truncated, reason, blockedNodes, unlinkedOwners };
  return {
    ...fields,
    completeness: completenessOf({ ...fields, hasGraph: true }),
    beneficialOwners,
    personHoldings: held.map((p) => ({ nodeId: p.nodeId, ownershipPercent: roundPercent(p.percent) })),
    nodes: graph.nodes.filter((n) => reachedNodes.has(n.id)),
    edges: graph.edges.filter((e) => reachedEdges.has(e)),
  };
}

function withoutGraph(ownershipSource: OwnershipSource, reason: OwnershipReason): OwnershipAnalysis {
  const fields = { ownershipSource, complete: false, truncated: false, traversalComplete: null, reason, blockedNodes: [], unlinkedOwners: [] };
  return { ...fields, completeness: completenessOf({ ...fields, hasGraph: false }), beneficialOwners: [], personHoldings: [], nodes: [], edges: [] };
}

/** Sorts on the rounded value so that float noise (30 vs 29.999999999999996) cannot outrank the id order. */
function byPercentThenId(a: { nodeId: string; percent: number }, b: { nodeId: string; percent: number }): number {
  return roundPercent(b.percent) - roundPercent(a.percent) || (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0);
}

/** A graph that breaks these invariants is a provider bug: the caller gets an Error, never a guess. */
function indexGraph(graph: OwnershipGraph) {
  const nodes = new Map<string, OwnershipNode>();
  for (const node of graph.nodes) {
    if (nodes.has(node.id)) invalid(`node ${node.id} appears twice`);
    nodes.set(node.id, node);
  }
  const root = nodes.get(graph.rootId);
  if (!root) invalid(`root ${graph.rootId} is not among the nodes`);
  if (root.kind !== 'COMPANY') invalid(`root ${graph.rootId} is a ${root.kind}, expected a COMPANY`);

  const ownersOf = new Map<string, OwnershipEdge[]>();
  const unlinkedOf = new Map<string, UnlinkedOwner[]>();
  const heldOf = new Map<string, number>();
  const pairs = new Set<string>();
  const checkOwned = (ownedId: string, where: string, percent: number | null) => {
    const owned = nodes.get(ownedId);
    if (!owned) invalid(`${where}: owned node ${ownedId} is not among the nodes`);
    if (owned.kind === 'PERSON') invalid(`${where}: ${ownedId} is a PERSON, and a person owns but is never owned`);
    if (percent === null) return;
    if (!(Number.isFinite(percent) && percent > 0 && percent <= 100)) invalid(`${where}: percent ${percent} is outside (0, 100]`);
    heldOf.set(ownedId, (heldOf.get(ownedId) ?? 0) + percent);
  };
  for (const edge of graph.edges) {
    const where = `edge ${edge.ownerId} → ${edge.ownedId}`;
    if (!nodes.has(edge.ownerId)) invalid(`${where}: owner ${edge.ownerId} is not among the nodes`);
    checkOwned(edge.ownedId, where, edge.percent);
    // Two edges for one pair could be a duplicated record or two parcels; summing a duplicate would
    // double-count, so the source must merge parcels itself.
    const pair = JSON.stringify([edge.ownerId, edge.ownedId]);
    if (pairs.has(pair)) invalid(`${where} appears twice`);
    pairs.add(pair);
    ownersOf.set(edge.ownedId, [...(ownersOf.get(edge.ownedId) ?? []), edge]);
  }
  for (const owner of graph.unlinkedOwners) {
    checkOwned(owner.ownedId, `unlinked owner "${owner.name}" of ${owner.ownedId}`, owner.percent);
    unlinkedOf.set(owner.ownedId, [...(unlinkedOf.get(owner.ownedId) ?? []), owner]);
  }
  for (const [ownedId, total] of heldOf) {
    if (total > 100 + SUM_TOLERANCE) invalid(`the owners of ${ownedId} hold ${roundPercent(total)} % in total, more than 100 %`);
  }
  return { nodes, ownersOf, unlinkedOf };
}

function invalid(message: string): never {
  throw new Error(`Invalid ownership graph: ${message}`);
}
