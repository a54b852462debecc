// The words deeds use for roles (CONTRACT §7's synonyms), qualifiers, company suffixes, States, and the
// capitalised words that are never part of a person's name. Regular expression sources here are matched
// case-insensitively; where case matters (a label is capitalised, a sentence's `the` is not), the caller
// checks it.
import { digitLike } from './ocr-digits.ts';

/**
 * `\b` in a JavaScript regular expression knows only ASCII letters: in `García a` it sees a word start
 * before the `a` of García's last syllable, and `\bIn` matches the start of `Inés`. Every pattern here that
 * uses `\b` goes through `ub`, which rewrites it as a boundary between letters or digits of any script.
 */
const wordChar = '[\\p{L}\\p{M}\\p{N}_]';
const unicodeBoundary = `(?:(?<=${wordChar})(?!${wordChar})|(?<!${wordChar})(?=${wordChar}))`;
export function ub(pattern: RegExp): RegExp {
  // Where only one side can be a letter (`\bword`, `word\b`), one look-around is enough, and much cheaper.
  const source = pattern.source
    .replace(/(?<=[\p{L}\d)]|\\d)\\b(?![\p{L}(\\])/gu, `(?!${wordChar})`)
    .replace(/(?<![\p{L}\d)?*+}]|\\d)\\b(?=[\p{L}\d(]|\\d|\\p\{L)/gu, `(?<!${wordChar})`)
    .replace(/\\b/g, unicodeBoundary);
  return new RegExp(source, pattern.flags.includes('u') ? pattern.flags : `${pattern.flags}u`);
}

/** A role as a deed names it, before it becomes the payload's role. */
export type RoleKey = 'TRUSTEE' | 'APPOINTOR' | 'SETTLOR' | 'GUARDIAN' | 'NAMED' | 'UNITHOLDER' | 'MEMBER' | 'CLASS';

/** current: the role holder now; successor: becomes it later (MEDIUM); retiring: no longer holds it. */
export type Qualifier = 'current' | 'successor' | 'retiring';

const classWords = 'general|secondary|eligible|default|discretionary|potential|residual|tertiary|final|capital|income';
const namedWords = 'primary|specified|named|nominated|principal';

/** Any role word, longest alternatives first. */
export const roleSource = [
  `(?:${namedWords})\\s+beneficiar(?:y|ies)`,
  `(?:${classWords})\\s+beneficiar(?:y|ies)`,
  `beneficiar(?:y|ies)(?:\\(ies\\))?`,
  'unit\\s?-?holders?(?:\\(s\\))?',
  'members?(?:\\(s\\))?',
  'appoint[oe]rs?(?:\\(s\\))?',
  'principals?(?:\\(s\\))?',
  'nominators?(?:\\(s\\))?',
  'guardians?',
  'protectors?',
  'trustees?(?:\\(s\\))?',
  'settl[oe]rs?',
].join('|');

// `Holding Trustee`, `Bare Trustee`, `Custodian Trustee`: what a bare trust calls its trustee.
export const qualifierSource =
  'original|initial|first|sole|joint|continuing|new|incoming|additional|replacement|current|successor|alternate|alternative|substitute|reserve|back-?up|retiring|outgoing|former|resigning|removed|previous|holding|bare|custodian|custodial';

export function roleOf(word: string): RoleKey | null {
  const w = word.toLowerCase().replace(/\s+/g, ' ');
  if (w.includes('beneficiar')) return new RegExp(`^(?:${classWords}) `).test(w) ? 'CLASS' : 'NAMED';
  if (/^unit/.test(w)) return 'UNITHOLDER';
  if (/^member/.test(w)) return 'MEMBER';
  if (/^(?:appoint|principal|nominator)/.test(w)) return 'APPOINTOR';
  if (/^(?:guardian|protector)/.test(w)) return 'GUARDIAN';
  if (/^trustee/.test(w)) return 'TRUSTEE';
  if (/^settl/.test(w)) return 'SETTLOR';
  return null;
}

export function qualifierOf(word: string | undefined): Qualifier {
  const w = (word ?? '').toLowerCase();
  if (/^(?:successor|alternate|alternative|substitute|reserve|back-?up)$/.test(w)) return 'successor';
  if (/^(?:retiring|outgoing|former|resigning|removed|previous)$/.test(w)) return 'retiring';
  return 'current';
}

/** The end of a company's name. The suffix's first letter must be a capital (checked by the caller). */
export const companySuffixSource =
  '(?:Pty\\.?\\s*Ltd\\.?|Pty\\.?\\s+Limited|Proprietary\\s+Limited|Proprietary\\s+Ltd\\.?|Limited|Ltd\\.?|Incorporated|Inc\\.?|Corporation|P\\/L|N\\.L\\.)';

/** ACN and ABN markers, and the digits after them (with OCR's odd spacing and dots). */
// The number's characters may be OCR's look-alike letters (`ocr-digits.ts` reads them, and only when the
// check digit then validates); the first three hold a real digit. One digit more or fewer than the number
// has is still matched, so that OCR's dropped or doubled digit is seen (and left unread, unless the
// company's other number vouches for it: `crossCheckNumbers`). A number may run on over a line's end
// (OCR: `ACN 463\n159 177`); `onOneLine` gives the same pattern without that, for when the next line's
// start is not its digit (`ACN 406259443\n1/51 Station Street`).
export const acnPattern = ub(new RegExp(`\\b(?:A\\s?\\.?\\s?C\\s?\\.?\\s?N\\b\\.?|Australian\\s+Company\\s+Number|Company\\s+No\\.?)\\s*(?:No\\.?|Number)?\\s*[:.]?\\s*(?=${digitLike}{0,2}\\d)(${digitLike}(?:[\\s.-]{0,2}${digitLike}){7,9})(?!${digitLike})`, 'iu'));
const oneLine = new WeakMap<RegExp, RegExp>();
export function onOneLine(pattern: RegExp): RegExp {
  let found = oneLine.get(pattern);
  if (!found) oneLine.set(pattern, (found = new RegExp(pattern.source.replaceAll('[\\s.-]{0,2}', '(?:[^\\S\\n]|[.-]){0,2}'), pattern.flags)));
  return found;
}
export const abnPattern = ub(new RegExp(`\\b(?:A\\s?\\.?\\s?B\\s?\\.?\\s?N\\b\\.?|Australian\\s+Business\\s+Number)\\s*(?:No\\.?|Number)?\\s*[:.]?\\s*(?=${digitLike}{0,2}\\d)(${digitLike}(?:[\\s.-]{0,2}${digitLike}){9,11})(?!${digitLike})`, 'iu'));

export const month = '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\\.?';
/** A date as deeds print it: `14th day of March 2019`, `March 14, 2019`, `14/03/2019`. */
export const datePattern = ub(new RegExp(
  `\\d{1,2}(?:st|nd|rd|th)?\\s+(?:day\\s+of\\s+)?${month}(?:,\\s*|\\s+)\\d{4}|${month}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,\\s*|\\s+)\\d{4}|\\b\\d{1,2}[/.-]\\d{1,2}[/.-](?:\\d{4}|\\d{2})\\b`,
  'iu',
));

export const particles = new Set(['de', 'da', 'del', 'della', 'der', 'den', 'di', 'du', 'la', 'le', 'van', 'von', 'dos', 'das', 'do', 'bin', 'binti', 'ibn', 'al', 'el', 'ter', 'ten', 'y', 'zu']);
export const titles = /^(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Professor|Sir|Dame|Master)\.?$/i;

/** The words that end a street's name, for telling `Smith 100 Bellbird Way` (an address) from a unit holding. */
export const streetTypes = ['Street', 'St', 'Road', 'Rd', 'Avenue', 'Ave', 'Lane', 'Drive', 'Dr', 'Close', 'Crescent', 'Cres', 'Terrace', 'Tce', 'Parade', 'Pde', 'Place', 'Pl', 'Court', 'Ct', 'Highway', 'Hwy', 'Boulevard', 'Way', 'Circuit', 'Grove', 'Square', 'Esplanade', 'Row', 'Walk', 'Track', 'Rise', 'Mews', 'Quay', 'Wharf', 'Promenade', 'Strand', 'Gardens', 'Heights', 'Vale', 'View', 'Crest', 'Ridge', 'Loop', 'Link'];

export const stateNames = ['New South Wales', 'Victoria', 'Queensland', 'South Australia', 'Western Australia', 'Tasmania', 'Northern Territory', 'Australian Capital Territory'];
export const stateAbbrevs = ['NSW', 'VIC', 'QLD', 'SA', 'WA', 'TAS', 'NT', 'ACT', 'Vic', 'Qld', 'Tas'];

/** Capitalised words that end (or rule out) a person's name. Lower-cased. */
export const nonNameWords = new Set([
  'the', 'this', 'that', 'these', 'those', 'if', 'upon', 'on', 'when', 'where', 'after', 'before', 'following', 'subject', 'notwithstanding', 'each', 'any', 'all',
  'such', 'provided', 'despite', 'for', 'by', 'and', 'or', 'of', 'to', 'as', 'at', 'until', 'in', 'with', 'from', 'under', 'unless', 'while', 'being', 'whose',
  'trustee', 'trustees', 'trust', 'trusts', 'deed', 'deeds', 'schedule', 'item', 'items', 'beneficiary', 'beneficiaries', 'settlor', 'settler', 'appointor', 'appointer',
  'appointors', 'appointers', 'guardian', 'protector', 'principal', 'principals', 'nominator', 'nominators', 'company', 'companies', 'fund', 'australia', 'australian',
  'state', 'territory', 'commonwealth', 'street', 'road', 'date', 'name', 'names', 'address', 'member', 'members', 'unitholder', 'unitholders', 'unit', 'units',
  'clause', 'clauses', 'part', 'vesting', 'act', 'family', 'super', 'superannuation', 'limited', 'pty', 'ltd', 'acn', 'abn', 'a.c.n.', 'a.b.n.', 'tfn', 'witness',
  'director', 'directors', 'secretary', 'signed', 'executed', 'sealed', 'delivered', 'presence', 'property', 'nominees', 'holdings', 'investments', 'custodian',
  'custodians', 'services', 'deceased', 'estate', 'executor', 'executors', 'legal', 'personal', 'representative', 'new', 'retiring', 'continuing', 'original',
  'initial', 'successor', 'alternate', 'incoming', 'outgoing', 'together', 'jointly', 'both', 'survivor', 'children', 'spouse', 'issue', 'default', 'general',
  'eligible', 'secondary', 'primary', 'specified', 'tax', 'file', 'number', 'governing', 'proper', 'settled', 'sum', 'recitals', 'background', 'parties', 'party',
  'operative', 'provisions', 'definitions', 'interpretation', 'execution', 'note', 'notes', 'fixed', 'hybrid', 'discretionary', 'bare', 'smsf', 'self', 'managed',
  'person', 'persons', 'individual', 'gift', 'settlement', 'particulars', 'details', 'reference', 'dated', 'made', 'between', 'agreed', 'whereas', 'now', 'it', 'is',
  'are', 'he', 'she', 'his', 'her', 'its', 'their', 'they', 'shall', 'must', 'not', 'no', 'nil', 'none', 'n/a', 'see', 'refer', 'as', 'per', 'item', 'attorney',
  'pursuant', 'registered', 'office', 'level', 'suite', 'box', 'po', 'gpo', 'sydney', 'melbourne', 'brisbane', 'perth', 'adelaide', 'hobart', 'darwin', 'canberra',
  'nsw', 'vic', 'qld', 'sa', 'wa', 'tas', 'nt', 'act', 'jurisdiction', 'income', 'capital', 'resolution', 'deed.', 'variation', 'amendment',
]);

