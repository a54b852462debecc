// Turning a name into comparable tokens: one script (ASCII), one case, no punctuation, and none of the
// words that say nothing about who someone is (honorifics) or which company it is (legal forms).
import anyAscii from 'any-ascii';
import { doubleMetaphone } from 'double-metaphone';
import type { EntryKind } from '../list-entry.ts';

const honorifics = new Set(
  ('mr mrs ms miss mx dr sir dame lord lady hon honourable honorable prof professor rev reverend sheikh shaikh sheik ' +
    'haji hajji hadji mullah imam gen general col colonel maj major capt captain lt lieutenant adm admiral brig ' +
    'brigadier sgt jr sr ii iii iv esq phd').split(' '),
);

/** Legal forms and filler words: "Northwind Trading FZE" and "Northwind Trading Pty Ltd" are the same name. */
const companyNoise = new Set(
  ('pty ltd limited proprietary llc inc incorporated corp corporation co company plc fze fzco fzc fzllc llp lp ' +
    'jsc ojsc pjsc cjsc ooo zao oao pao gmbh ag kg sa sas sarl srl spa bv nv ab asa oy oyj kk pte sdn bhd pvt pt tbk ' +
    'wll the and').split(' '),
);

/**
 * Words only a business's name carries: legal forms, and the entity words of Australian structures. A
 * name with one of them, or an ampersand, says it is not one person's (decision 127).
 */
const businessMarkers = new Set(
  [...companyNoise].filter((w) => !['the', 'and', 'co'].includes(w)).concat('trust', 'trustee', 'fund', 'partnership', 'partners', 'association', 'foundation', 'holdings', 'group', 'enterprises'),
);

/** Whether a name says by itself that it is a business's ("Smith & Jones", "Wattle Nominees Pty Ltd"). */
export function namesABusiness(name: string): boolean {
  if (name.includes('&')) return true;
  return anyAscii(name)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => businessMarkers.has(word));
}

/** "bin Salman" is "Salman": the patronymic particle is often left out. */
const droppedParticles = new Set(['bin', 'ibn', 'bint', 'binti']);
/** The Arabic article joins its noun, so El-Sayed, El Sayed and Elsayed are one token. */
const joinedArticles = new Set(['al', 'el', 'ul']);

/** The words of a name, normalised. Never empty for a name that has a letter or digit in it. */
export function nameTokens(name: string, kind: EntryKind): string[] {
  let text = anyAscii(name).toLowerCase().replace(/['`]/g, '');
  // Dotted initialisms: a company's "S.A." is one word, a person's "B.I." two initials.
  text = text.replace(/\b(?:[a-z]\.){2,}/g, (dotted) => (kind === 'business' ? dotted.replaceAll('.', '') : dotted.replaceAll('.', ' ')));
  text = text.replace(/&/g, ' and ');
  const raw = text.split(kind === 'business' ? /[^a-z0-9]+/ : /[^a-z]+/).filter(Boolean);

  const words: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const word = raw[i]!;
    if (kind === 'person' && joinedArticles.has(word) && i + 1 < raw.length) {
      raw[i + 1] = word + raw[i + 1]!;
      continue;
    }
    if (kind === 'person' && droppedParticles.has(word) && i + 1 < raw.length) continue;
    words.push(word);
  }
  const noise = kind === 'person' ? honorifics : companyNoise;
  const meaningful = words.filter((w) => !noise.has(w));
  // A name made only of such words ("The Company Ltd") is still a name.
  return meaningful.length > 0 ? meaningful : words;
}

/** Double Metaphone codes of a token (primary, and secondary when it differs); none for an initial. */
export function phoneticCodes(token: string): string[] {
  if (token.length < 2) return [];
  if (/^[0-9]+$/.test(token)) return [token];
  const [primary, secondary] = doubleMetaphone(token);
  const codes = primary ? [primary] : [];
  if (secondary && secondary !== primary) codes.push(secondary);
  return codes;
}
