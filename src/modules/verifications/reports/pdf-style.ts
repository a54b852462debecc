// How the reports look: the colours, the tones of states, and the badge.
import type { Doc } from './pdf-document.ts';

export const colours = { ink: '#1f2328', muted: '#57606a', rule: '#d0d7de', panel: '#f6f8fa', accent: '#0b4f8a' } as const;

/**
 * Tones for badges, bars and notes. Each badge also says its state in words, and its text and border are
 * dark enough to read on a greyscale print, where the fills all turn pale grey.
 */
export type Tone = 'good' | 'warn' | 'bad' | 'neutral';

export const toneColours: Record<Tone, { fill: string; text: string }> = {
  good: { fill: '#dafbe1', text: '#116329' },
  warn: { fill: '#fff1c2', text: '#7d4e00' },
  bad: { fill: '#ffebe9', text: '#a40e26' },
  neutral: { fill: '#eaeef2', text: '#424a53' },
};

export const badgeHeight = 15;

export function badgeWidth(doc: Doc, label: string): number {
  return doc.font('bold').fontSize(8).widthOfString(label) + 14;
}

/** A rounded badge with its left edge at `x`. */
export function drawBadge(doc: Doc, label: string, tone: Tone, x: number, y: number): void {
  const w = badgeWidth(doc, label);
  doc.roundedRect(x, y, w, badgeHeight, badgeHeight / 2).lineWidth(0.6).fillAndStroke(toneColours[tone].fill, toneColours[tone].text);
  doc.font('bold').fontSize(8).fillColor(toneColours[tone].text).text(label, x + 7, y + 3, { lineBreak: false });
}

/** `value` cut with an ellipsis so that it fits in `width` on one line, in the current font. */
export function fitLine(doc: Doc, value: string, width: number): string {
  if (doc.widthOfString(value) <= width) return value;
  let cut = value;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
