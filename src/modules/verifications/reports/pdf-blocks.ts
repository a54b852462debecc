// The reports' larger blocks: the summary box every report opens with, a card per person, and one line of
// the ownership tree. Each is measured first and placed whole (see pdf-flow.ts).
import type { Flow } from './pdf-flow.ts';
import { badgeHeight, badgeWidth, colours, drawBadge, toneColours, type Tone } from './pdf-style.ts';

export interface Badge {
  label: string;
  tone: Tone;
}

export interface SummarySpec {
  headline: string;
  /** A muted line under the headline, e.g. the entity's numbers. */
  subline?: string;
  badges: Badge[];
  /** Tiles with a large figure each, e.g. how many people are in each state. */
  stats?: Array<{ label: string; value: string; tone: Tone }>;
  rows: Array<[string, string]>;
}

const gap = 6;

/** Badges side by side, the last one's right edge at `right`. */
function drawBadges(flow: Flow, badges: Badge[], right: number, y: number): void {
  let x = right;
  for (const badge of [...badges].reverse()) {
    x -= badgeWidth(flow.doc, badge.label);
    drawBadge(flow.doc, badge.label, badge.tone, x, y);
    x -= gap;
  }
}

const badgesWidth = (flow: Flow, badges: Badge[]) => badges.reduce((sum, b) => sum + badgeWidth(flow.doc, b.label) + gap, 0);

export function drawSummaryBox(flow: Flow, spec: SummarySpec): void {
  const { doc, left, width } = flow;
  const padding = 14;
  const inner = width - padding * 2;
  const labelWidth = inner * 0.27;
  const headlineWidth = inner - badgesWidth(flow, spec.badges) - 8;
  const headlineHeight = Math.max(flow.textHeight(spec.headline, 'bold', 15, headlineWidth), badgeHeight);
  const sublineHeight = spec.subline ? flow.textHeight(spec.subline, 'regular', 9.5, inner) + 2 : 0;
  const statsHeight = spec.stats?.length ? 46 + 10 : 0;
  const rowHeights = spec.rows.map(([label, value]) => Math.max(flow.textHeight(label, 'semibold', 8.5, labelWidth - 8), flow.textHeight(value || '—', 'regular', 9.5, inner - labelWidth)) + 5);
  const height = padding + headlineHeight + sublineHeight + 10 + statsHeight + rowHeights.reduce((a, b) => a + b, 0) + padding - 4;
  flow.place(height);
  const top = doc.y;
  doc.roundedRect(left, top, width, height, 6).lineWidth(0.8).fillAndStroke(colours.panel, colours.rule);
  doc.font('bold').fontSize(15).fillColor(colours.ink).text(spec.headline, left + padding, top + padding - 2, { width: headlineWidth });
  drawBadges(flow, spec.badges, left + width - padding, top + padding);
  let y = top + padding + headlineHeight;
  if (spec.subline) doc.font('regular').fontSize(9.5).fillColor(colours.muted).text(spec.subline, left + padding, y, { width: inner });
  y += sublineHeight + 10;
  if (spec.stats?.length) {
    const tileWidth = (inner - gap * (spec.stats.length - 1)) / spec.stats.length;
    spec.stats.forEach((stat, i) => {
      const x = left + padding + i * (tileWidth + gap);
      doc.rect(x, y, tileWidth, 46).lineWidth(0.6).fillAndStroke('#ffffff', colours.rule);
      doc.rect(x, y, 3, 46).fill(toneColours[stat.tone].text);
      doc.font('bold').fontSize(17).fillColor(toneColours[stat.tone].text).text(stat.value, x + 11, y + 5, { width: tileWidth - 16, lineBreak: false });
      doc.font('semibold').fontSize(8).fillColor(colours.muted).text(stat.label, x + 11, y + 30, { width: tileWidth - 16, lineBreak: false });
    });
    y += statsHeight;
  }
  spec.rows.forEach(([label, value], i) => {
    doc.font('semibold').fontSize(8.5).fillColor(colours.muted).text(label, left + padding, y + 1, { width: labelWidth - 8 });
    doc.font('regular').fontSize(9.5).fillColor(colours.ink).text(value || '—', left + padding + labelWidth, y, { width: inner - labelWidth });
    y += rowHeights[i]!;
  });
  doc.y = top + height + 14;
}

export interface CardSpec {
  title: string;
  /** The title stands in for what is not known yet: printed muted. */
  placeholder?: boolean;
  badge: Badge;
  /** A line under the title, e.g. the person's role. */
  subtitle?: string;
  /** Small labelled figures side by side. */
  fields: Array<[string, string]>;
  /** Muted small print at the foot, e.g. ids. */
  footnote?: string;
  /** Tinted boxes inside the card, e.g. an operator's decision. */
  insets?: Array<{ title: string; body: string; tone: Tone }>;
}

export function drawCard(flow: Flow, spec: CardSpec): void {
  const { doc, left, width } = flow;
  const padding = 10;
  const x0 = left + padding + 4;
  const inner = width - padding * 2 - 4;
  const titleWidth = inner - badgeWidth(doc, spec.badge.label) - 10;
  const titleHeight = Math.max(flow.textHeight(spec.title, 'bold', 11, titleWidth), badgeHeight);
  const subtitleHeight = spec.subtitle ? flow.textHeight(spec.subtitle, 'regular', 9, titleWidth) + 1 : 0;
  const fieldWidth = inner / Math.max(spec.fields.length, 1);
  const fieldsHeight = spec.fields.length ? Math.max(...spec.fields.map(([label, value]) => flow.textHeight(label, 'semibold', 7.5, fieldWidth - 8) + flow.textHeight(value || '—', 'regular', 9, fieldWidth - 8))) + 8 : 0;
  const footHeight = spec.footnote ? flow.textHeight(spec.footnote, 'regular', 7.5, inner) + 4 : 0;
  const insetInner = inner - 22;
  const insets = (spec.insets ?? []).map((inset) => ({ ...inset, height: flow.textHeight(inset.title, 'bold', 9, insetInner) + flow.textHeight(inset.body, 'regular', 9, insetInner) + 18 }));
  const height = padding + titleHeight + subtitleHeight + fieldsHeight + footHeight + insets.reduce((sum, inset) => sum + inset.height + 8, 0) + padding;
  flow.place(height);

  const top = doc.y;
  doc.roundedRect(left, top, width, height, 4).lineWidth(0.7).fillAndStroke('#ffffff', colours.rule);
  doc.rect(left, top, 4, height).fill(toneColours[spec.badge.tone].text);
  doc.font('bold').fontSize(11).fillColor(spec.placeholder ? colours.muted : colours.ink).text(spec.title, x0, top + padding - 1, { width: titleWidth });
  drawBadge(doc, spec.badge.label, spec.badge.tone, left + width - padding - badgeWidth(doc, spec.badge.label), top + padding);
  let y = top + padding + titleHeight;
  if (spec.subtitle) doc.font('regular').fontSize(9).fillColor(colours.muted).text(spec.subtitle, x0, y, { width: titleWidth });
  y += subtitleHeight + 6;
  spec.fields.forEach(([label, value], i) => {
    const x = x0 + i * fieldWidth;
    doc.font('semibold').fontSize(7.5).fillColor(colours.muted).text(label, x, y, { width: fieldWidth - 8 });
    doc.font('regular').fontSize(9).fillColor(colours.ink).text(value || '—', x, doc.y, { width: fieldWidth - 8 });
  });
  y += fieldsHeight;
  if (spec.footnote) doc.font('regular').fontSize(7.5).fillColor(colours.muted).text(spec.footnote, x0, y, { width: inner });
  y += footHeight;
  for (const inset of insets) {
    const tone = toneColours[inset.tone];
    y += 4;
    doc.rect(x0, y, inner, inset.height).fill(tone.fill);
    doc.rect(x0, y, 3, inset.height).fill(tone.text);
    doc.font('bold').fontSize(9).fillColor(tone.text).text(inset.title, x0 + 12, y + 8, { width: insetInner });
    doc.font('regular').fontSize(9).fillColor(colours.ink).text(inset.body, x0 + 12, doc.y + 1, { width: insetInner });
    y += inset.height + 4;
  }
  doc.y = top + height + 8;
}

export interface TreeLineSpec {
  /** 0 is the root. */
  depth: number;
  /** For each level from 1 to depth − 1: whether the guide line of that level runs on past this line. */
  guides: boolean[];
  /** Whether this is the last owner listed under its parent. */
  last: boolean;
  label: string;
  detail: string;
  /** Printed right-aligned: the share of the parent. */
  share: string;
  tone?: Tone;
}

const indent = 16;
const shareWidth = 64;

export function drawTreeLine(flow: Flow, spec: TreeLineSpec): void {
  const { doc, left, width } = flow;
  const x = left + spec.depth * indent;
  const textWidth = left + width - shareWidth - x;
  const detail = spec.detail ? ` ${spec.detail}` : '';
  const oneLine = doc.font('semibold').fontSize(9.5).widthOfString(spec.label) + doc.font('regular').fontSize(9.5).widthOfString(detail) <= textWidth;
  const labelHeight = flow.textHeight(spec.label, 'semibold', 9.5, textWidth);
  const height = (oneLine ? labelHeight : labelHeight + flow.textHeight(spec.detail, 'regular', 9, textWidth)) + 6;
  flow.place(height);
  const y = doc.y;
  const colour = spec.tone ? toneColours[spec.tone].text : colours.ink;

  doc.lineWidth(0.7).strokeColor('#8c959f');
  spec.guides.forEach((runs, k) => {
    const gx = left + k * indent + 5;
    if (runs) doc.moveTo(gx, y).lineTo(gx, y + height).stroke();
  });
  if (spec.depth > 0) {
    const ex = left + (spec.depth - 1) * indent + 5;
    doc.moveTo(ex, y).lineTo(ex, spec.last ? y + 10 : y + height).stroke();
    doc.moveTo(ex, y + 10).lineTo(ex + 8, y + 10).stroke();
  }

  if (oneLine && spec.share) {
    // A dotted leader takes the eye from the name to its share on the right.
    const end = x + doc.font('semibold').fontSize(9.5).widthOfString(spec.label) + doc.font('regular').fontSize(9.5).widthOfString(detail) + 6;
    const start = left + width - shareWidth + 6;
    if (start - end > 12) doc.moveTo(end, y + 13).lineTo(start, y + 13).lineWidth(0.7).dash(0.7, { space: 2.5 }).strokeColor('#afb8c1').stroke().undash();
  }
  doc.font('semibold').fontSize(9.5).fillColor(colour).text(spec.label, x, y + 3, { width: textWidth, continued: oneLine && detail !== '' });
  if (detail) {
    if (oneLine) doc.font('regular').fontSize(9.5).fillColor(colours.muted).text(detail);
    else doc.font('regular').fontSize(9).fillColor(colours.muted).text(spec.detail, x, doc.y, { width: textWidth });
  }
  if (spec.share) doc.font('semibold').fontSize(9.5).fillColor(colour).text(spec.share, left + width - shareWidth, y + 3, { width: shareWidth, align: 'right' });
  doc.y = y + height;
}
