// The schedule (or `Particulars`, `DEED DETAILS`, a `PARTIES` block of `Label: value` lines): labels and
// the values after them, first or last in the deed, as a table (`Item 4 Trustee …`), as lines
// (`Trustee: …`) or as stacked headings (`TRUSTEE …`). A label counts only inside such a block, starts
// with a capital, and is not a reference (`the Trustee`, `"Trustee" means`); its value runs to the next
// label or to the block's end (`EXECUTED`, `THIS DEED`, `RECITALS` …).
import { isLeadIn, parsePartyList, type ParsedParty } from './party-parse.ts';
import type { Mention } from './mentions.ts';
import { qualifierOf, qualifierSource, roleOf, roleSource, ub } from './vocabulary.ts';

export type FieldKey = 'TRUST_NAME' | 'TRUST_ABN' | 'DATE' | 'VESTING' | 'LAW';

/** A schedule's labelled value (`readSchedules`), which the trust's fields read before the deed's sentences. */
export interface Fields {
  key: FieldKey;
  value: string;
}

export interface ScheduleReading {
  mentions: Mention[];
  fields: Array<{ key: FieldKey; value: string; at: number }>;
  classes: Array<{ name: string; at: number }>;
}

const headings =
  ub(/\b(?:THE\s+)?SCHEDULE(?:\s+(?:1|ONE|A|I)\b)?|\bSchedule(?:\s+(?:1|One|A)\b)?(?!\s+(?:\d+[A-Z]|to\b|of\b))|\bPARTICULARS\b|\bParticulars\b|\bDEED\s+DETAILS\b|\bDeed\s+Details\b|\bREFERENCE\s+SCHEDULE\b|\bKEY\s+DETAILS\b|\bTRUST\s+DETAILS\b|\bPARTIES\b|\bParties\b|\bDETAILS\b/gu);
// Lower case: `the Schedule` is a reference; `THE SCHEDULE` and `A. Schedule` are headings.
const notAfter = ub(/\b(?:the|of|in|this|said|that|to|a|per|under|see|The|Of|In|This|See)\s*$/u);
const terminators =
  ub(/(?<!\b(?:OF|of|Of)\s)\b(?:EXECUTED|EXECUTION|SIGNED|IN WITNESS|THIS (?:TRUST )?DEED|THIS DECLARATION|RECITALS|BACKGROUND|OPERATIVE|NOW THIS DEED|IT IS AGREED|AGREED TERMS|TERMS OF (?:THE )?TRUST|TABLE OF CONTENTS|CONTENTS|ANNEXURE|SCHEDULE 2|DEFINITIONS|DATED)\b|\bExecuted\s+(?:as\s+a\s+deed|by)\b|\bSigned,?\s+sealed\b|\bSIGNED\b|\b1\.?\s+(?:DEFINITIONS|Definitions|INTERPRETATION|Interpretation)\b/u);

const fieldLabels: Array<[FieldKey | 'STOP', string]> = [
  ['TRUST_NAME', 'name\\s+of\\s+(?:the\\s+)?(?:trust|fund|superannuation\\s+fund)|(?:trust|fund)\\s+name'],
  ['TRUST_ABN', '(?:trust|fund)(?:\'s)?\\s+abn|abn\\s+of\\s+(?:the\\s+)?(?:trust|fund)'],
  ['DATE', 'date\\s+of\\s+(?:this\\s+)?(?:deed|establishment|settlement|trust\\s+deed|commencement)|(?:establishment|commencement|settlement)\\s+date'],
  ['VESTING', 'vesting\\s+(?:day|date)|perpetuity\\s+period|termination\\s+date'],
  ['LAW', 'governing\\s+law|proper\\s+law|jurisdiction|applicable\\s+law'],
  ['STOP', 'settled\\s+sum|settlement\\s+sum|initial\\s+trust\\s+fund|settled\\s+property|tax\\s+file\\s+number(?:\\s+of\\s+the\\s+(?:trust|fund|trustee))?|tfn|initial\\s+units|issue\\s+price|unit\\s+price|address\\s+for\\s+(?:service|notices)|accountant|adviser|description|particulars|item(?!\\s+\\d)|gift|trust\\s+property|number\\s+of\\s+units'],
];

const labelPattern = ub(new RegExp(
  `(?:(?:Item|ITEM)\\s+\\d{1,2}[.:]?\\s+|\\b\\d{1,2}[.,]\\s+)?` +
    `(?:(?:(?:the\\s+)?name\\s+of\\s+(?:the\\s+)?)?(?:(${qualifierSource})\\s+)?(${roleSource})(?:'s)?(?:\\s+(?:name|details))?` +
    fieldLabels.map(([key, source]) => `|(?<${key}>${source})`).join('') +
    `)\\b\\s*(?::|-(?=\\s))?`,
  'giu',
));
// Case matters: a date value may begin `May 3, 2008`.
const notLabelAfter = ub(/^\s*(?:means|shall|may|must|will|has|have|is|are|was|were|named|specified|referred|in\s+the|of\s+the|to\s+the|for\s+the|under)\b/u);
const notLabelBefore = ub(/(?:\b(?:the|a|an|of|each|any|as|such|to|by|for|and|or|with|other|that|said|his|her|its|their|this|every|no)|["'(])\s*$/u);

interface Label {
  start: number;
  end: number;
  /** The words that name the label (without `Item 4`). */
  core: string;
  key: FieldKey | 'STOP' | 'ROLE';
  qualifier?: string;
  roleWord?: string;
}

/**
 * The labels in `text[from, to)`. On OCR'd text (`ocr`) an item number may end in a comma (`4,` for `4.`)
 * and the label after an item number may lose its capital (`4, specified Beneficiaries`).
 */
function labelsIn(text: string, from: number, to: number, ocr: boolean): Label[] {
  const out: Label[] = [];
  const window = text.slice(from, to);
  for (const m of window.matchAll(labelPattern)) {
    const start = from + m.index;
    const prefix = /^(?:(?:Item|ITEM)\s+\d{1,2}[.:]?\s+|\d{1,2}[.,]\s+)/u.exec(m[0])?.[0] ?? '';
    const core = m[0].slice(prefix.length).replace(/[\s:-]+$/u, '');
    if (!ocr && /^\d{1,2},/u.test(prefix)) continue;
    if (!/^\p{Lu}/u.test(core) && !(ocr && prefix)) continue;
    if (!prefix && notLabelBefore.test(text.slice(Math.max(0, start - 12), start))) continue;
    if (notLabelAfter.test(text.slice(start + m[0].length, start + m[0].length + 20))) continue;
    const groups = m.groups ?? {};
    const field = (Object.keys(groups) as Array<FieldKey | 'STOP'>).find((k) => groups[k] !== undefined);
    out.push({ start, end: start + m[0].length, core, key: field ?? 'ROLE', qualifier: m[1], roleWord: m[2] });
  }
  return out;
}

/**
 * The parties a value names from its start, or from after a comma (`On the death of the last surviving
 * Appointor, Jane Doe …`). A value that is a reference (`As set out in clause 3`) or a class description
 * names no one.
 */
function partiesOfValue(value: string, base: number): ParsedParty[] {
  const rule = ub(/^(?:\p{Ll}|(?:On|Upon|If|After|Following|When|Until|Subject|In\s+the\s+event)\b)/u).test(value);
  const starts = [0, ...(rule ? [...value.slice(0, 300).matchAll(/,\s+/gu)].map((m) => m.index + m[0].length) : [])];
  for (const start of starts) {
    const parties = parsePartyList(value.slice(start), { strict: false, lines: true }) ?? [];
    if (parties.length && isLeadIn(value.slice(start, start + parties[0]!.start))) return parties.map((p) => ({ ...p, start: p.start + base + start, end: p.end + base + start, nameStart: p.nameStart + base + start, nameEnd: p.nameEnd + base + start }));
  }
  return [];
}

/**
 * Where a numbered item's value ends at the latest: the next item's number (`Item 4`, `4.`), even when
 * the label after it cannot be read (OCR garbles a table cell: `Item 4 Specifed Matilda Tran`), so one
 * value never swallows the next row.
 */
function nextItemAt(text: string, label: Label, limit: number): number {
  const n = /^(?:(?:Item|ITEM)\s+)?(\d{1,2})/u.exec(text.slice(label.start, label.end))?.[1];
  if (!n) return limit;
  const next = Number(n) + 1;
  // OCR may read the item's number twice, once on its own (`… Unit Trust 2 Item 2 Establishment Date`).
  const item = new RegExp(`(?:(?<=\\s)${next}\\s+)?\\b(?:Item|ITEM)\\s+${next}(?=\\s)|(?:^|\\s)${next}\\.(?=\\s+\\p{L})`, 'u').exec(text.slice(label.end, limit + 12));
  return item ? Math.min(limit, label.end + item.index) : limit;
}

/** Every schedule-like block: its labels and their values. */
export function readSchedules(text: string, options: { ocr?: boolean } = {}): ScheduleReading {
  const ocr = options.ocr ?? false;
  const reading: ScheduleReading = { mentions: [], fields: [], classes: [] };
  let after = 0;
  for (const h of text.matchAll(headings)) {
    const start = h.index + h[0].length;
    if (h.index < after || notAfter.test(text.slice(Math.max(0, h.index - 10), h.index))) continue;
    const firstLabels = labelsIn(text, start, Math.min(text.length, start + 400), ocr);
    if (!firstLabels.length) continue;
    const stop = terminators.exec(text.slice(firstLabels[0]!.end, firstLabels[0]!.end + 8000));
    const end = stop ? firstLabels[0]!.end + stop.index : Math.min(text.length, firstLabels[0]!.end + 8000);
    const labels = labelsIn(text, start, end, ocr);
    if (labels.length < 2 && !/PARTIES|Parties/u.test(h[0])) continue;
    after = end;
    labels.forEach((label, k) => {
      const valueEnd = nextItemAt(text, label, k + 1 < labels.length ? labels[k + 1]!.start : Math.min(end, label.end + 700));
      const value = text.slice(label.end, valueEnd).replace(/^[\s:–-]+/u, '');
      const valueStart = valueEnd - value.length;
      // A page's footer left at the end of the schedule's last value (`Page 5 of 5`, OCR's `Page 5o0f5`,
      // perhaps with specks about it).
      const trimmed = value.replace(/(?:\s+\S{1,3}){0,3}\s+Page\s+\d+(?:\s*(?:of|[o0]\s*f|o[0o]f)\s*\d+)?(?:\s+\S{1,3}){0,4}\s*$/u, '').replace(/[\s;,]+$/u, '');
      if (!trimmed) return;
      if (label.key === 'STOP') return;
      if (label.key !== 'ROLE') {
        reading.fields.push({ key: label.key, value: trimmed, at: valueStart });
        return;
      }
      const key = roleOf(label.roleWord!);
      if (!key) return;
      if (key === 'CLASS') {
        reading.classes.push({ name: label.roleWord!.replace(/\s+/g, ' '), at: label.start });
        return;
      }
      const parties = partiesOfValue(trimmed, valueStart);
      if (!parties.length) return;
      const qualifier = qualifierOf(label.qualifier);
      reading.mentions.push({ role: key, qualifier, explicitlyNew: /^(?:new|incoming|replacement|continuing|additional)$/iu.test(label.qualifier ?? ''), source: 'schedule', roleStart: label.start, roleEnd: label.end, parties });
    });
  }
  return reading;
}
