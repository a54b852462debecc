import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OwnershipGraph, OwnershipNodeKind, UnlinkedOwner } from '../../providers/register/ownership-report.ts';
import { analyseOwnership, completenessOf, roundPercent, type CompletenessFields, type OwnershipAnalysis } from './ownership.ts';

type Edge = [owner: string, owned: string, percent: number];

function graphOf(kinds: Record<string, OwnershipNodeKind>, edges: Edge[], unlinkedOwners: UnlinkedOwner[] = []): OwnershipGraph {
  return {
    rootId: 'R',
    nodes: Object.entries<OwnershipNodeKind>({ R: 'COMPANY', ...kinds }).map(([id, kind]) => ({ id, kind, name: `Name of ${id}` })),
    edges: edges.map(([ownerId, ownedId, percent]) => ({ ownerId, ownedId, percent })),
    unlinkedOwners,
  };
}
const analyse = (graph: OwnershipGraph, options: { depthLimit?: number; threshold?: number } = {}) =>
  analyseOwnership({ source: 'AVAILABLE', graph, ...options });
const owners = (a: OwnershipAnalysis) => a.beneficialOwners.map((o) => [o.nodeId, o.ownershipPercent]);
const holdings = (a: OwnershipAnalysis) => a.personHoldings.map((o) => [o.nodeId, o.ownershipPercent]);
const flags = (a: OwnershipAnalysis) => [a.complete, a.truncated, a.traversalComplete, a.reason, a.completeness];
/** R ← C1 ← … ← C(n-1) ← P, 100 % each: the person sits at depth n. */
function chainTo(depth: number): OwnershipGraph {
  const kinds: Record<string, OwnershipNodeKind> = { P: 'PERSON' };
  const ids = ['R', ...Array.from({ length: depth - 1 }, (_, i) => `C${i + 1}`), 'P'];
  ids.slice(1, -1).forEach((id) => (kinds[id] = 'COMPANY'));
  return graphOf(kinds, ids.slice(1).map((id, i): Edge => [id, ids[i]!, 100]));
}

describe('ownership of the CONTRACT §13 sandbox companies', () => {
  it('111 111 114: one individual holding 100 % is HIGH', () => {
    const a = analyse(graphOf({ P: 'PERSON' }, [['P', 'R', 100]]));
    assert.deepEqual(owners(a), [['P', 100]]);
    assert.deepEqual(a.beneficialOwners[0]?.paths, [['R', 'P']]);
    assert.deepEqual(flags(a), [true, false, true, 'COMPLETE', 'HIGH']);
  });

  it('222 222 228: 40 % individual and a holding company owned 50/50 give three owners 40/30/30, HIGH', () => {
    const a = analyse(graphOf({ A: 'PERSON', H: 'COMPANY', B: 'PERSON', C: 'PERSON' }, [['A', 'R', 40], ['H', 'R', 60], ['C', 'H', 50], ['B', 'H', 50]]));
    assert.deepEqual(owners(a), [['A', 40], ['B', 30], ['C', 30]]);
    assert.deepEqual(a.beneficialOwners[1]?.paths, [['R', 'H', 'B']]);
    assert.deepEqual(flags(a), [true, false, true, 'COMPLETE', 'HIGH']);
    assert.equal(a.nodes.length, 5);
    assert.equal(a.edges.length, 4);
  });

  it('444 444 446: 50 % held by a corporate trustee for a family trust is a blocked node, PARTIAL', () => {
    const a = analyse(graphOf({ P: 'PERSON', T: 'TRUST', S: 'PERSON' }, [['P', 'R', 50], ['T', 'R', 50], ['S', 'T', 100]]));
    assert.deepEqual(a.blockedNodes, [{ nodeId: 'T', kind: 'TRUST', ownershipPercent: 50 }]);
    assert.deepEqual(owners(a), [['P', 50]]);
    assert.deepEqual(flags(a), [false, false, true, 'BLOCKED_NODES', 'PARTIAL']);
    // The trust is not walked through: whoever stands behind it is neither reached nor counted.
    assert.deepEqual(a.nodes.map((n) => n.id), ['R', 'P', 'T']);
  });

  it('555 555 550: a chain deeper than the limit is truncated, PARTIAL', () => {
    const a = analyse(chainTo(9));
    assert.deepEqual(flags(a), [false, true, false, 'TRUNCATED', 'PARTIAL']);
    assert.deepEqual(owners(a), []);
    assert.deepEqual(a.nodes.map((n) => n.id), ['R', 'C1', 'C2', 'C3', 'C4', 'C5', 'C6']);
  });

  it('666 666 664: an owner that cannot be linked to a node is PARTIAL', () => {
    const unlinked = { name: 'J Citizen (no identifier)', ownedId: 'R', percent: 40 };
    const a = analyse(graphOf({ P: 'PERSON' }, [['P', 'R', 60]], [unlinked]));
    assert.deepEqual(a.unlinkedOwners, [unlinked]);
    assert.deepEqual(flags(a), [false, false, true, 'UNLINKED_OWNERS', 'PARTIAL']);
  });

  it('777 777 778: an unavailable source is UNKNOWN', () => {
    const a = analyseOwnership({ source: 'UNAVAILABLE' });
    assert.deepEqual([a.ownershipSource, ...flags(a)], ['UNAVAILABLE', false, false, null, 'SOURCE_UNAVAILABLE', 'UNKNOWN']);
    assert.deepEqual([a.beneficialOwners, a.nodes, a.edges, a.blockedNodes], [[], [], [], []]);
  });

  it('888 888 882: a listed company with no graph is UNKNOWN', () => {
    const a = analyseOwnership({ source: 'AVAILABLE', graph: null });
    assert.deepEqual([a.ownershipSource, ...flags(a)], ['AVAILABLE', false, false, null, 'UNKNOWN', 'UNKNOWN']);
  });

  it('ASIC_ONLY: ownership not requested is UNKNOWN', () => {
    const a = analyseOwnership({ source: 'NOT_REQUESTED' });
    assert.deepEqual([a.ownershipSource, ...flags(a)], ['NOT_REQUESTED', false, false, null, 'NOT_REQUESTED', 'UNKNOWN']);
  });
});

describe('cycles', () => {
  it('stops at a two-node cycle through the root and leaves the cyclic share unattributed', () => {
    // R ← A 40 %, R ← P 60 %; A ← R 50 %, A ← Q 50 %. The 20 % going round R → A → R belongs to no person.
    const a = analyse(graphOf({ A: 'COMPANY', P: 'PERSON', Q: 'PERSON' }, [['A', 'R', 40], ['P', 'R', 60], ['R', 'A', 50], ['Q', 'A', 50]]));
    assert.deepEqual(holdings(a), [['P', 60], ['Q', 20]]);
    assert.deepEqual(flags(a), [true, false, true, 'COMPLETE', 'HIGH']);
    assert.equal(a.edges.length, 4, 'the cycle edge is still shown');
  });

  it('stops at a cycle that does not include the root, counting each path once', () => {
    // R ← A 100 %; A ← B 50 %, A ← P 50 %; B ← A 50 %, B ← Q 50 %.
    const a = analyse(graphOf({ A: 'COMPANY', B: 'COMPANY', P: 'PERSON', Q: 'PERSON' }, [['A', 'R', 100], ['B', 'A', 50], ['P', 'A', 50], ['A', 'B', 50], ['Q', 'B', 50]]));
    assert.deepEqual(owners(a), [['P', 50], ['Q', 25]]);
    assert.deepEqual(a.beneficialOwners[1]?.paths, [['R', 'A', 'B', 'Q']]);
    assert.equal(a.traversalComplete, true);
  });

  it('stops at a company that owns itself', () => {
    const a = analyse(graphOf({ P: 'PERSON' }, [['R', 'R', 10], ['P', 'R', 90]]));
    assert.deepEqual(owners(a), [['P', 90]]);
    assert.deepEqual(flags(a), [true, false, true, 'COMPLETE', 'HIGH']);
  });

  it('stops at a company that owns itself through a long chain, even at the depth limit', () => {
    // R ← C1 ← … ← C6 ← R: the edge back to R would be depth 7, but it is a cycle, not a cut.
    const chain = chainTo(7);
    chain.edges = chain.edges.filter((e) => e.ownerId !== 'P').concat({ ownerId: 'R', ownedId: 'C6', percent: 100 });
    chain.nodes = chain.nodes.filter((n) => n.id !== 'P');
    const a = analyse(chain);
    assert.deepEqual(flags(a), [true, false, true, 'COMPLETE', 'HIGH']);
    assert.deepEqual(holdings(a), []);
  });
});

describe('several paths to one person', () => {
  it('sums two paths, crossing 25 % only because of the sum', () => {
    // P holds 20 % directly and half of H, which holds 20 %: 20 + 10 = 30.
    const a = analyse(graphOf({ P: 'PERSON', H: 'COMPANY', X: 'PERSON', Y: 'PERSON' }, [['P', 'R', 20], ['H', 'R', 20], ['X', 'R', 60], ['P', 'H', 50], ['Y', 'H', 50]]));
    assert.deepEqual(owners(a), [['X', 60], ['P', 30]]);
    assert.deepEqual(a.beneficialOwners[1]?.paths, [['R', 'P'], ['R', 'H', 'P']]);
    assert.deepEqual(holdings(a), [['X', 60], ['P', 30], ['Y', 10]]);
  });

  it('sums both sides of a diamond', () => {
    const a = analyse(graphOf({ A: 'COMPANY', B: 'COMPANY', P: 'PERSON', Q: 'PERSON' }, [['A', 'R', 50], ['B', 'R', 50], ['P', 'A', 50], ['Q', 'A', 50], ['P', 'B', 50], ['Q', 'B', 50]]));
    assert.deepEqual(owners(a), [['P', 50], ['Q', 50]]);
    assert.deepEqual(a.beneficialOwners[0]?.paths, [['R', 'A', 'P'], ['R', 'B', 'P']]);
  });

  it('sums the share a trust carries over every path to it', () => {
    const a = analyse(graphOf({ A: 'COMPANY', B: 'COMPANY', T: 'TRUST', P: 'PERSON' }, [['A', 'R', 50], ['B', 'R', 50], ['T', 'A', 30], ['T', 'B', 20], ['P', 'A', 70], ['P', 'B', 80]]));
    assert.deepEqual(a.blockedNodes, [{ nodeId: 'T', kind: 'TRUST', ownershipPercent: 25 }]);
    assert.deepEqual(owners(a), [['P', 75]]);
  });
});

describe('the 25 % threshold and rounding', () => {
  it('counts exactly 25 % (50 % of 50 %)', () => {
    const a = analyse(graphOf({ H: 'COMPANY', P: 'PERSON', Q: 'PERSON', X: 'PERSON' }, [['H', 'R', 50], ['X', 'R', 50], ['P', 'H', 50], ['Q', 'H', 50]]));
    assert.deepEqual(owners(a), [['X', 50], ['P', 25], ['Q', 25]]);
  });

  it('counts 25 % that floating point makes 24.999999999999996', () => {
    const fiveSixths = 250 / 3; // 83.333… %
    assert.ok(0.3 * (fiveSixths / 100) * 100 < 25, 'precondition: the product falls just short in floating point');
    const a = analyse(graphOf({ H: 'COMPANY', P: 'PERSON', X: 'PERSON' }, [['H', 'R', 30], ['X', 'R', 70], ['P', 'H', fiveSixths]]));
    assert.deepEqual(owners(a), [['X', 70], ['P', 25]]);
  });

  it('does not count 24.99 %, but still shows it', () => {
    const a = analyse(graphOf({ P: 'PERSON', Q: 'PERSON' }, [['P', 'R', 24.99], ['Q', 'R', 75.01]]));
    assert.deepEqual(owners(a), [['Q', 75.01]]);
    assert.deepEqual(holdings(a), [['Q', 75.01], ['P', 24.99]]);
  });

  it('rounds three equal thirds to 33.33 each, and two thirds summed over two paths to 66.67', () => {
    const third = 100 / 3;
    const a = analyse(graphOf({ A: 'PERSON', B: 'PERSON', C: 'PERSON' }, [['C', 'R', third], ['B', 'R', third], ['A', 'R', third]]));
    assert.deepEqual(owners(a), [['A', 33.33], ['B', 33.33], ['C', 33.33]]);
    const b = analyse(graphOf({ H: 'COMPANY', P: 'PERSON', Q: 'PERSON' }, [['P', 'R', third], ['H', 'R', third], ['Q', 'R', third], ['P', 'H', 100]]));
    assert.deepEqual(owners(b), [['P', 66.67], ['Q', 33.33]]);
  });

  it('applies a custom threshold', () => {
    const a = analyse(graphOf({ P: 'PERSON', Q: 'PERSON' }, [['P', 'R', 90], ['Q', 'R', 10]]), { threshold: 10 });
    assert.deepEqual(owners(a), [['P', 90], ['Q', 10]]);
  });

  it('rounds half up at two decimals', () => {
    assert.deepEqual([roundPercent(1.005), roundPercent(12.344999), roundPercent(100 / 3)], [1.01, 12.34, 33.33]);
  });
});

describe('the depth limit', () => {
  it('counts a person at depth 6 under the default limit, not truncated', () => {
    const a = analyse(chainTo(6));
    assert.deepEqual(owners(a), [['P', 100]]);
    assert.deepEqual(a.beneficialOwners[0]?.paths, [['R', 'C1', 'C2', 'C3', 'C4', 'C5', 'P']]);
    assert.deepEqual(flags(a), [true, false, true, 'COMPLETE', 'HIGH']);
  });

  it('truncates one level beyond the limit and does not reach the person', () => {
    const a = analyse(chainTo(7));
    assert.deepEqual(flags(a), [false, true, false, 'TRUNCATED', 'PARTIAL']);
    assert.deepEqual(holdings(a), []);
    assert.equal(a.edges.length, 6);
  });

  it('truncates when an unlinked owner sits beyond the limit, and does not report it', () => {
    const g = graphOf({ C1: 'COMPANY' }, [['C1', 'R', 100]], [{ name: 'Far away', ownedId: 'C1', percent: 100 }]);
    const a = analyse(g, { depthLimit: 1 });
    assert.deepEqual([a.truncated, a.unlinkedOwners, a.reason], [true, [], 'TRUNCATED']);
  });

  it('honours a custom limit', () => {
    assert.deepEqual(flags(analyse(chainTo(2), { depthLimit: 2 })), [true, false, true, 'COMPLETE', 'HIGH']);
    assert.deepEqual(flags(analyse(chainTo(3), { depthLimit: 2 })), [false, true, false, 'TRUNCATED', 'PARTIAL']);
  });

  it('names truncation before blocked nodes and unlinked owners', () => {
    const g = chainTo(7); // then R ← C1 60 %, R ← T 20 %, R ← unlinked U
    g.edges[0]!.percent = 60;
    g.nodes.push({ id: 'T', kind: 'TRUST', name: 'T' });
    g.edges.push({ ownerId: 'T', ownedId: 'R', percent: 20 });
    g.unlinkedOwners.push({ name: 'U', ownedId: 'R', percent: null });
    assert.deepEqual(flags(analyse(g)), [false, true, false, 'TRUNCATED', 'PARTIAL']);
    g.edges = g.edges.filter((e) => e.ownerId !== 'P');
    assert.equal(analyse(g).reason, 'BLOCKED_NODES');
    g.edges = g.edges.filter((e) => e.ownerId !== 'T');
    assert.equal(analyse(g).reason, 'UNLINKED_OWNERS');
  });
});

describe('an invalid graph is a provider bug', () => {
  const cases: Array<[string, OwnershipGraph, RegExp]> = [
    ['an edge to an unknown owner', graphOf({}, [['Z', 'R', 50]]), /owner Z is not among the nodes/],
    ['an edge to an unknown owned node', graphOf({ P: 'PERSON' }, [['P', 'Z', 50]]), /owned node Z is not among the nodes/],
    ['a percent of 0', graphOf({ P: 'PERSON' }, [['P', 'R', 0]]), /percent 0 is outside/],
    ['a percent above 100', graphOf({ P: 'PERSON' }, [['P', 'R', 100.5]]), /percent 100.5 is outside/],
    ['a NaN percent', graphOf({ P: 'PERSON' }, [['P', 'R', NaN]]), /percent NaN is outside/],
    ['owners summing above 100 %', graphOf({ P: 'PERSON', Q: 'PERSON' }, [['P', 'R', 60], ['Q', 'R', 40.02]]), /hold 100.02 % in total/],
    ['unlinked owners pushing the sum above 100 %', graphOf({ P: 'PERSON' }, [['P', 'R', 80]], [{ name: 'U', ownedId: 'R', percent: 30 }]), /hold 110 %/],
    ['a person who is owned', graphOf({ P: 'PERSON', Q: 'PERSON' }, [['P', 'R', 100], ['Q', 'P', 100]]), /a person owns but is never owned/],
    ['the same pair twice', graphOf({ P: 'PERSON' }, [['P', 'R', 40], ['P', 'R', 40]]), /appears twice/],
    ['a root that is not a node', { ...graphOf({}, []), rootId: 'Z' }, /root Z is not among the nodes/],
    ['a root that is a person', { ...graphOf({ P: 'PERSON' }, []), rootId: 'P' }, /expected a COMPANY/],
  ];
  for (const [name, graph, message] of cases) {
    it(`throws on ${name}`, () => assert.throws(() => analyse(graph), message));
  }

  it('accepts owners summing to 100 % plus the source\'s rounding', () => {
    assert.doesNotThrow(() => analyse(graphOf({ P: 'PERSON', Q: 'PERSON', S: 'PERSON' }, [['P', 'R', 33.34], ['Q', 'R', 33.34], ['S', 'R', 33.33]])));
  });

  it('throws on a depth limit below 1', () => assert.throws(() => analyse(chainTo(1), { depthLimit: 0 }), /depth limit/));
});

describe('completenessOf: UNKNOWN over PARTIAL over HIGH', () => {
  const high: CompletenessFields = { ownershipSource: 'AVAILABLE', complete: true, truncated: false, unlinkedOwners: [], blockedNodes: [], traversalComplete: true, reason: 'COMPLETE', hasGraph: true };
  const table: Array<[string, Partial<CompletenessFields>, string]> = [
    ['every HIGH condition holds', {}, 'HIGH'],
    ['HIGH conditions but traversalComplete null', { traversalComplete: null }, 'UNKNOWN'],
    ['HIGH conditions but reason UNKNOWN', { reason: 'UNKNOWN' }, 'UNKNOWN'],
    ['HIGH conditions but no graph', { hasGraph: false }, 'UNKNOWN'],
    ['HIGH conditions but source unavailable', { ownershipSource: 'UNAVAILABLE' }, 'UNKNOWN'],
    ['HIGH conditions but not requested', { ownershipSource: 'NOT_REQUESTED' }, 'UNKNOWN'],
    ['blocked nodes and traversalComplete null', { blockedNodes: [1], complete: false, traversalComplete: null }, 'UNKNOWN'],
    ['unlinked owners and reason UNKNOWN', { unlinkedOwners: [1], complete: false, reason: 'UNKNOWN' }, 'UNKNOWN'],
    ['truncated and no graph', { truncated: true, complete: false, hasGraph: false }, 'UNKNOWN'],
    ['blocked nodes and source unavailable', { blockedNodes: [1], ownershipSource: 'UNAVAILABLE' }, 'UNKNOWN'],
    ['complete flagged true yet blocked nodes', { blockedNodes: [1] }, 'PARTIAL'],
    ['complete flagged true yet unlinked owners', { unlinkedOwners: [1] }, 'PARTIAL'],
    ['complete flagged true yet truncated', { truncated: true }, 'PARTIAL'],
    ['truncated while traversalComplete claims true', { truncated: true, complete: false }, 'PARTIAL'],
    ['incomplete with no gap named (not in the SPEC)', { complete: false }, 'PARTIAL'],
  ];
  for (const [name, change, expected] of table) {
    it(`${name} → ${expected}`, () => assert.equal(completenessOf({ ...high, ...change }), expected));
  }
});
