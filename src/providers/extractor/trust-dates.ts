// The trust's dates, as printed: the day it was established and its vesting day. The schedule's labelled
// values come first; then the sentences deeds use (`THIS DEED is made on …`, `"Vesting Day" means …`). A
// deed of variation's date is not the trust's: its establishment date is the original deed's
// (`established by deed dated …`, `By a deed of settlement dated … (the "Trust Deed")`), and without one
// it is null.
import { sentenceEnd } from './mentions.ts';
import type { Fields } from './schedule.ts';
import { datePattern, ub } from './vocabulary.ts';

const deedWords = '(?:trust\\s+)?(?:deed|declaration)(?:\\s+of\\s+(?:settlement|trust))?';
const dateGroup = `(?:the\\s+)?(${datePattern.source})`;
// The original deed a later deed recites: `established by deed dated …`, `the Original Deed dated …`,
// `a deed of settlement dated … (the "Trust Deed")`.
const originalDeed = ub(new RegExp(
  `\\b(?:established|constituted|settled|created|made)\\s+by\\s+(?:a\\s+|the\\s+)?${deedWords}\\s+dated\\s+${dateGroup}` +
    `|\\b(?:Original|Principal)\\s+Deed["']?\\)?\\s+dated\\s+${dateGroup}` +
    `|\\b${deedWords}\\s+dated\\s+${dateGroup}\\s*\\(\\s*(?:the\\s+)?["']?(?:Original|Principal|Trust|Settlement|Establishment)\\s+Deed\\b`,
  'iu',
));
// `By a deed of settlement dated …, … the X Trust (the "Trust") was established`: the date, when the same
// sentence says the deed established this trust.
const byDeedDated = ub(new RegExp(`\\bBy\\s+(?:a|the|an)\\s+${deedWords}\\s+dated\\s+${dateGroup}`, 'giu'));
const establishedVerb = ub(/\b(?:was|were|is)\s+(?:duly\s+)?(?:established|settled|constituted|created|declared)\b/iu);
// OCR may run `THIS DEED` together (`THISDEED`).
const madeOn = ub(new RegExp(`\\b(?:THIS\\s*(?:(?:TRUST\\s+)?DEED|DECLARATION)|This\\s+(?:(?:Trust\\s+)?Deed|Declaration))[^.]{0,60}?\\b(?:made|dated|executed)\\s+(?:on\\s+|this\\s+)?${dateGroup}`, 'u'));
const datedLine = ub(new RegExp(`(?:\\bDATED|\\bDated|(?<!\\b(?:Vesting|Commencement|Termination|VESTING|COMMENCEMENT|TERMINATION)\\s)\\b(?:Date|DATE)(?:\\s+of\\s+(?:this\\s+)?Deed)?\\s*:)\\s*:?\\s+${dateGroup}`, 'u'));
// `"Commencement Date" means 3 September 1996`: the day the trust begins, defined.
const definedStart = ub(new RegExp(`["']\\s*(?:Commencement|Establishment|Settlement)\\s+Date\\s*["']\\s+(?:means|shall\\s+mean|is)\\s*:?\\s+${dateGroup}`, 'iu'));

export function findEstablished(text: string, fields: Fields[], variation: boolean, name: string | null): string | null {
  // The sentence is about this trust (not, say, a unitholder's trust a unit trust deed recites).
  const names = (sentence: string) => /["']Trust["']/u.test(sentence) || (name !== null && sentence.toLowerCase().includes(name.toLowerCase()));
  const original = originalDeed.exec(text);
  if (original) return (original[1] ?? original[2] ?? original[3])!;
  for (const m of text.matchAll(byDeedDated)) {
    const sentence = text.slice(m.index, sentenceEnd(text, m.index, 600));
    if (establishedVerb.test(sentence) && names(sentence)) return m[1]!;
  }
  if (variation) return null;
  for (const f of fields) {
    if (f.key !== 'DATE') continue;
    const m = datePattern.exec(f.value.slice(0, 60));
    if (m) return m[0];
  }
  // `THIS DEED is made on …` first; then `DATED …`, `Date of this Deed: …`, `DATE: …` (not `Vesting Date
  // 30 June 2070`); then a defined `Commencement Date`.
  return madeOn.exec(text)?.[1] ?? datedLine.exec(text)?.[1] ?? definedStart.exec(text)?.[1] ?? null;
}

// A sentence ends the value; so does a line that opens another provision (the schedule's last item runs
// into whatever follows it: `…of this deed` then `This deed is governed by …`, lines already joined).
// A schedule's next row may run into the value too, when the schedule's reader does not know its label
// (`5 October 2074 State whose laws govern this Deed Victoria`).
const vestingStop = /;|\.(?=\s+["'(]?[\p{Lu}\d]|\s*$)|\s(?=(?:This\s+(?:deed|Deed|DEED)\s+(?:is|shall)|The\s+laws?\s+of|IN\s+WITNESS|EXECUTED\s+(?:as|by)|Executed\s+(?:as|by)|SIGNED,?\s+SEALED|Signed,?\s+sealed|(?:State|Territory|STATE|TERRITORY)(?:\s+or\s+[Tt]erritory|\s+OR\s+TERRITORY)?\s+(?:whose\s+laws?|WHOSE\s+LAWS?)|Governing\s+[Ll]aw|GOVERNING\s+LAW|Proper\s+[Ll]aw|PROPER\s+LAW|Applicable\s+[Ll]aw|APPLICABLE\s+LAW|Jurisdiction|JURISDICTION)(?![\p{L}]))/u;
// `30 June 2089, or such earlier date as the Trustee may appoint`: the vesting day is the date (or the
// rule) before it; the rest is the trustee's power to bring it forward, not part of it. `The earlier of
// … and …` is a rule in itself, and kept whole.
const earlierCondition = ub(/,?\s+or\s*,?\s+(?:if\s+earlier\b|(?:on\s+)?(?:such|any|an|another)\s+(?:other\s+)?(?:earlier|prior)\b|(?:on\s+)?such\s+other\s+(?:date|day)\b)/iu);
const wholeRule = ub(/^(?:the\s+)?(?:earlier|earliest|first|later|latest)\s+of\b|^whichever\b/iu);
const reference = ub(/\b(?:specified|set\s+out|stated|named|referred\s+to|described)\b[^.]{0,40}\b(?:Schedule|Item|Particulars|Details)\b|^(?:as\s+(?:defined|set\s+out)|see\s+clause)/iu);

/**
 * A date with nothing beside it but words of one or two letters (`Co 30 June 2090 oo`) is the date: OCR
 * reads specks and table rules as such words. A rule (`the day before …`) is kept as it is.
 */
function withoutSpecks(value: string): string {
  const date = datePattern.exec(value);
  if (!date) return value;
  const rest = `${value.slice(0, date.index)} ${value.slice(date.index + date[0].length)}`.split(/\s+/u).filter(Boolean);
  return rest.length && rest.every((w) => w.length <= 2) ? date[0] : value;
}

// A page's running footer that a schedule's last value runs into: `… to the Trust DE VRIES INVESTMENT
// TRUST - Trust Deed Page 3 of 3 Initials:`.
const pageFooter = /\s+[-–©|]?\s*Page\s*\d+\s*(?:of|[o0]\s*f|o[0o]f)\s*\d+.*$/su;
const footerTitle = /(?:\s+[-–©|]?\s*(?:Trust\s+Deed|Deed|TRUST\s+DEED|DEED))?\s*$/u;

/** `value` without a running footer: its `Page n of m`, and the trust's name and the deed's title before it. */
function withoutFooter(value: string, name: string | null): string {
  const page = pageFooter.exec(value);
  if (!page) return value;
  let kept = value.slice(0, page.index).replace(footerTitle, '');
  if (name && kept.toLowerCase().endsWith(name.toLowerCase()) && kept.length > name.length) kept = kept.slice(0, kept.length - name.length);
  return kept.replace(/[\s\-–©|]+$/u, '');
}

/** A vesting value without the condition that may bring it forward, and without trailing punctuation. */
function vestingDay(value: string): string {
  const condition = wholeRule.test(value) ? null : earlierCondition.exec(value);
  const day = condition && condition.index > 0 ? value.slice(0, condition.index) : value;
  return day.replace(/[\s,.;]+$/u, '').slice(0, 300);
}

// `"Vesting Day" means …`; OCR may lose the opening quote (`1.13 “Vesting Day’` read as `413 Vesting Day’`).
const vestingMeans = ub(/(?:["']\s*|\b)Vesting\s+(?:Day|Date)\s*["']\s+(?:means|shall\s+mean)\s*:?\s+/giu);

// `Under the Trust Deed the vesting day of the Trust is 21 November 2072, and …`: a vesting day stated
// (a change of trustee recites it), when what follows is a date or a rule (`the day before …`).
const vestingIs = ub(new RegExp(`\\b[Vv]esting\\s+(?:[Dd]ay|[Dd]ate)\\b(?:\\s+of\\s+the\\s+(?:Trust|Fund))?\\s+(?:is|will\\s+be|shall\\s+be)\\s+(?=${datePattern.source}|the\\s+(?:day|date)\\b)`, 'gu'));

/** A date as printed, with the space OCR may drop after a comma put back (`November 24,2017`). */
export const spacedDate = (date: string | null) => date?.replace(/,(?=\d)/u, ', ') ?? null;

export function findVesting(text: string, fields: Fields[], variation: boolean, name: string | null): string | null {
  for (const f of fields) {
    if (f.key !== 'VESTING') continue;
    const stop = vestingStop.exec(f.value);
    const value = withoutSpecks(vestingDay(withoutFooter(stop ? f.value.slice(0, stop.index) : f.value, name)));
    if (value && !reference.test(value)) return value;
  }
  // A variation restates the vesting day only when it recites it.
  if (!variation) {
    for (const m of text.matchAll(vestingMeans)) {
      const start = m.index + m[0].length;
      const value = vestingDay(text.slice(start, sentenceEnd(text, start, 400)));
      if (value && !reference.test(value)) return value;
    }
  }
  for (const m of text.matchAll(vestingIs)) {
    const start = m.index + m[0].length;
    const sentence = text.slice(start, sentenceEnd(text, start, 400));
    const value = vestingDay(sentence.slice(0, /,\s+(?:and|but|which)\b/u.exec(sentence)?.index ?? sentence.length));
    if (value && !reference.test(value)) return value;
  }
  return null;
}
