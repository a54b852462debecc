// The entity report's ownership section: the structure as a tree from the entity (node n1) up to the people
// who own it, the beneficial owners with how they hold, and what could not be traced, in plain words.
// The graph comes from a register and may hold anything: a company reached twice is printed under each
// owner, a loop is printed once and not followed, and depth and size are capped, so it always ends.
import type { Layout } from './pdf-layout.ts';
import type { TreeLineSpec } from './pdf-blocks.ts';
import { colours } from './pdf-style.ts';
import { formatAbn, formatAcn, formatPercent, formatTime } from './report-format.ts';
import type { EntityReportModel, ReportNodeKind, ReportOwnership } from './report-model.ts';

/** Deeper than the lookup's traversal goes (6), so a real structure is never cut. */
const maxDepth = 8;
/** A structure with many shared companies could print each of them many times. */
const maxLines = 150;

type Node = ReportOwnership['nodes'][number];

const kindWords: Record<ReportNodeKind, string> = { COMPANY: 'Company', PERSON: 'Person', TRUST: 'Trust', OTHER: 'Other entity' };

const completenessWords = {
  HIGH: { tone: 'good', title: 'Ownership completeness: High', meaning: 'Every holding was traced to the people at the end of it, so the beneficial owners below are all the people who hold 25 % or more.' },
  PARTIAL: { tone: 'warn', title: 'Ownership completeness: Partial', meaning: 'Part of the ownership could not be traced (see below). The beneficial owners listed are those PVS found; there may be others.' },
  UNKNOWN: { tone: 'neutral', title: 'Ownership completeness: Unknown', meaning: 'The ownership source gave no structure PVS could trace, so who the beneficial owners are cannot be stated from the registers.' },
} as const;

const reasonWords: Record<string, string> = {
  COMPLETE: 'Every owner was traced to a person.',
  TRUNCATED: 'The chain of companies is longer than PVS follows; owners further up are not shown.',
  BLOCKED_NODES: 'A trust, or another entity whose owners the registers do not show, holds part of it.',
  UNLINKED_OWNERS: 'A holder on a share register could not be linked to a person or a company.',
  SOURCE_UNAVAILABLE: 'The ownership source did not answer when the lookup ran.',
  NOT_REQUESTED: 'The lookup did not ask for ownership.',
  UNKNOWN: 'The source did not say whether the structure is whole.',
};

function numbersOf(node: Node): string {
  return [node.acn ? `ACN ${formatAcn(node.acn)}` : null, node.abn ? `ABN ${formatAbn(node.abn)}` : null].filter(Boolean).join(' · ');
}

function describe(node: Node): string {
  return [kindWords[node.kind] ?? node.kind, numbersOf(node)].filter(Boolean).join(' · ');
}

const rootOf = (ownership: ReportOwnership) => ownership.nodes.find((n) => n.id === 'n1') ?? ownership.nodes[0];

/** The tree's lines, depth first, each owner under what it owns. */
export function treeLines(ownership: ReportOwnership): TreeLineSpec[] {
  const root = rootOf(ownership);
  if (!root) return [];
  const nodes = new Map(ownership.nodes.map((n) => [n.id, n]));
  const blocked = new Set(ownership.blockedNodes.map((b) => b.nodeId));
  const hasOwners = (id: string) => ownership.edges.some((e) => e.ownedId === id) || ownership.unlinkedOwners.some((u) => u.ownedId === id);
  const lines: TreeLineSpec[] = [{ depth: 0, guides: [], last: true, label: root.name, detail: numbersOf(root), share: '' }];

  function walk(ownedId: string, depth: number, path: string[], guides: boolean[]): void {
    const owners = [
      ...ownership.edges.filter((e) => e.ownedId === ownedId).map((edge) => ({ edge, unlinked: undefined })),
      ...ownership.unlinkedOwners.filter((u) => u.ownedId === ownedId).map((unlinked) => ({ edge: undefined, unlinked })),
    ];
    owners.forEach(({ edge, unlinked }, i) => {
      if (lines.length >= maxLines) return;
      const last = i === owners.length - 1;
      if (unlinked) {
        lines.push({ depth, guides, last, label: unlinked.name, detail: 'Not linked to a person or company on the registers', share: formatPercent(unlinked.percent), tone: 'warn' });
        return;
      }
      const owner = nodes.get(edge!.ownerId) ?? { id: edge!.ownerId, kind: 'OTHER' as const, name: edge!.ownerId, acn: null, abn: null };
      const loop = path.includes(owner.id);
      const tooDeep = !loop && depth >= maxDepth && hasOwners(owner.id);
      const notes = [
        blocked.has(owner.id) ? 'not traced further (see below)' : null,
        loop ? 'shown above: the holdings go round in a loop, so it is not followed again' : null,
        tooDeep ? `its owners are not shown (more than ${maxDepth} levels)` : null,
      ].filter(Boolean);
      lines.push({ depth, guides, last, label: owner.name, detail: [describe(owner), ...notes].join(' · '), share: formatPercent(edge!.percent), tone: blocked.has(owner.id) ? 'warn' : undefined });
      if (!loop && !tooDeep) walk(owner.id, depth + 1, [...path, owner.id], [...guides, !last]);
    });
  }

  walk(root.id, 1, [root.id], []);
  return lines;
}

/** How a beneficial owner holds: `Directly`, `Through HOLDINGS PTY LTD`; each path with its share when there are several. */
export function howHeld(ownership: ReportOwnership, nodeId: string): string {
  const root = rootOf(ownership);
  const names = new Map(ownership.nodes.map((n) => [n.id, n.name]));
  const paths: Array<{ via: string[]; percent: number }> = [];
  function up(id: string, via: string[], percent: number, seen: string[]): void {
    for (const edge of ownership.edges.filter((e) => e.ownerId === id)) {
      if (seen.includes(edge.ownedId) || seen.length > maxDepth || paths.length >= 10) continue;
      const share = (percent * edge.percent) / 100;
      if (edge.ownedId === root?.id) paths.push({ via, percent: share });
      else up(edge.ownedId, [...via, names.get(edge.ownedId) ?? edge.ownedId], share, [...seen, edge.ownedId]);
    }
  }
  up(nodeId, [], 100, [nodeId]);
  if (paths.length === 0) return '—';
  const said = (p: (typeof paths)[number]) => (p.via.length ? `Through ${p.via.join(' › ')}` : 'Directly');
  // With one path the share is the owner's total, already in its own column.
  return paths.length === 1 ? said(paths[0]!) : paths.map((p) => `${said(p)}: ${formatPercent(p.percent)}`).join('\n');
}

function gapsSection(layout: Layout, ownership: ReportOwnership): void {
  const names = new Map(ownership.nodes.map((n) => [n.id, n.name]));
  if (ownership.blockedNodes.length > 0) {
    layout.note(
      ownership.blockedNodes
        .map((b) =>
          b.kind === 'TRUST'
            ? `${b.name} (a trust) carries ${formatPercent(b.ownershipPercent)} of the entity. The registers do not say who stands behind a trust: establish its trustees and beneficiaries from the trust deed.`
            : `${b.name} (${(kindWords[b.kind] ?? b.kind).toLowerCase()}) carries ${formatPercent(b.ownershipPercent)} of the entity. The registers do not say who owns it: establish its owners another way.`,
        )
        .join('\n'),
      'warn',
      'Ownership not traced through',
    );
  }
  if (ownership.unlinkedOwners.length > 0) {
    layout.note(
      ownership.unlinkedOwners
        .map((u) => `${u.name} holds ${u.percent === null ? 'a share of unknown size' : formatPercent(u.percent)} of ${names.get(u.ownedId) ?? u.ownedId}. The share register names this holder without an identifier PVS can follow, so a beneficial owner may stand behind it.`)
        .join('\n'),
      'warn',
      'Owners that could not be linked',
    );
  }
}

export function ownershipSection(layout: Layout, model: EntityReportModel): void {
  layout.heading('Ownership structure');
  const { ownership } = model;
  if (!ownership) {
    layout.note(
      model.registry
        ? `The business lookup this request is bound to (${model.request.lookupRequestId ?? 'no id'}) did not include an ownership report: its scope was register data only. PVS has not traced who owns the entity; the partner chose the people to verify.`
        : 'This request was built by hand, so PVS has not traced who owns the entity: the partner chose the people to verify and confirmed they are the whole structure.',
      'neutral',
      'No ownership structure',
    );
    return;
  }
  const said = completenessWords[ownership.completeness];
  const asAt = ownership.structureAsOf ? ` Structure as at ${formatTime(ownership.structureAsOf)}.` : '';
  layout.note(`${said.meaning}\n${reasonWords[ownership.reason] ?? ownership.reason}${asAt}`, said.tone, said.title);

  const lines = treeLines(ownership);
  layout.subheading('Who holds what');
  if (lines.length > 1) {
    layout.text('Each owner is listed under what it holds, with its share of that company.', { size: 8.5, colour: colours.muted, gap: 6 });
    for (const line of lines) layout.treeLine(line);
    if (lines.length >= maxLines) layout.text(`The structure is cut at ${maxLines} lines.`, { size: 8.5, colour: colours.muted });
    layout.doc.y += 8;
  } else {
    layout.text('The ownership source named no owners of the entity.', { gap: 8 });
  }

  layout.subheading('Beneficial owners (25 % or more, directly or indirectly)');
  if (ownership.beneficialOwners.length === 0) {
    layout.text('None found.', { gap: 8 });
  } else {
    layout.table(
      [
        { heading: 'Name', width: 2.2 },
        { heading: 'How held', width: 3 },
        { heading: 'Ownership', width: 1, align: 'right' },
      ],
      ownership.beneficialOwners.map((o) => [o.name, howHeld(ownership, o.nodeId), formatPercent(o.ownershipPercent)]),
    );
  }
  gapsSection(layout, ownership);
}
