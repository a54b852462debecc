// A generated screening list and the queries screened against it, for the screening benchmark: the same
// seed gives the same entries and queries everywhere. Persons are drawn from the name pools in
// screening-names.ts (with list-style spellings, aliases, dates of birth and countries); businesses
// from word pools with legal forms and registration numbers. Queries are a mix of listed people (as a
// partner would type them: typos, another order, no middle name, another transliteration) and people
// who are not listed but share the same name pools, which is most of what a screening service sees.
import type { ScreeningCategory } from '../../src/modules/screening/list-entry.ts';
import type { IndexedEntry, ScreeningQuery } from '../../src/modules/screening/matching/screening-index.ts';
import { createRandom, weighted, zipf, type Random } from './random.ts';
import { capitalise, cultures, cultureWeights, cyrillic, transliterate, type Culture, type NameWord, type PersonName } from './screening-names.ts';

export interface GeneratedList {
  entries: IndexedEntry[];
  /** Per entry, the parts its person's name was made from (undefined for a business): what queries perturb. */
  people: Array<PersonName | undefined>;
}

export interface BenchQuery {
  query: ScreeningQuery;
  /** Made from a listed entry (perturbed or not), or a name that was not put on the list. */
  origin: 'listed' | 'new';
}

const pickCulture = weighted(cultureWeights);
const pickCategory = weighted<ScreeningCategory>({ SANCTIONS: 60, PEP: 30, ADVERSE_MEDIA: 10 });
const aliasCount = weighted({ '0': 30, '1': 30, '2': 20, '3': 12, '4': 8 });

// ---- Persons ------------------------------------------------------------------------------------

/** A word in another spelling: a same-name spelling when the culture knows one, else one spelling rule. */
function respell(culture: Culture, text: string, random: Random): string | undefined {
  const lower = text.toLowerCase();
  const group = culture.synonyms.find((g) => g.includes(lower));
  if (group && random.chance(0.7)) {
    const other = random.pick(group.filter((s) => s !== lower));
    return capitalise(other);
  }
  const applicable = culture.rules.filter(([pattern]) => pattern.test(lower));
  if (applicable.length === 0) return undefined;
  const [pattern, replacement] = random.pick(applicable);
  const out = lower.replace(pattern, replacement).trim();
  return out && out !== lower ? capitalise(out) : undefined;
}

type Style = 'plain' | 'upperFamily' | 'listStyle';
const pickStyle = weighted<Style>({ plain: 40, upperFamily: 35, listStyle: 25 });

/** The name as a list would print it: "Boris Ivanovich KARLOV", "KARLOV, Boris Ivanovich" or plain. */
function render(words: readonly NameWord[], style: Style): string {
  const text = (w: NameWord) => (style !== 'plain' && w.role === 'family' ? w.text.toUpperCase() : w.text);
  if (style === 'listStyle') {
    const family = words.filter((w) => w.role === 'family');
    const rest = words.filter((w) => w.role !== 'family');
    if (family.length && rest.length) return `${family.map(text).join(' ')}, ${rest.map(text).join(' ')}`;
  }
  return words.map(text).join(' ');
}

/** Family name moved to the other end: the order lists disagree on most. */
function reorder(words: readonly NameWord[]): NameWord[] {
  const family = words.filter((w) => w.role === 'family');
  const rest = words.filter((w) => w.role !== 'family');
  return words[0]?.role === 'family' ? [...rest, ...family] : [...family, ...rest];
}

const withoutMiddle = (words: readonly NameWord[]) => words.filter((w) => w.role !== 'middle');

function personAliases(person: PersonName, name: string, random: Random): string[] {
  const culture = cultures[person.culture];
  const wanted = Number(aliasCount(random));
  const out = new Set<string>();
  for (let attempt = 0; out.size < wanted && attempt < wanted * 4; attempt++) {
    const kind = random.int(4);
    let alias: string | undefined;
    if (kind === 0) {
      // One or two words spelt another way.
      const words = person.words.map((w) => ({ ...w }));
      const changes = random.chance(0.3) ? 2 : 1;
      for (let i = 0; i < changes; i++) {
        const target = random.pick(words);
        target.text = respell(culture, target.text, random) ?? target.text;
      }
      alias = render(words, 'plain');
    } else if (kind === 1) {
      alias = render(reorder(person.words), random.chance(0.5) ? 'plain' : 'upperFamily');
    } else if (kind === 2) {
      alias = render(withoutMiddle(person.words), 'plain');
    } else if (culture.toScript) {
      const scripted = person.words.map((w) => culture.toScript!(w) ?? w.text);
      alias = scripted.join(culture.scriptJoined ? '' : ' ');
    }
    if (alias && alias !== name) out.add(alias);
  }
  return [...out];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function dateOfBirth(random: Random): string {
  return `${1940 + random.int(62)}-${pad(1 + random.int(12), 2)}-${pad(1 + random.int(28), 2)}`;
}

function datesOfBirth(random: Random): string[] {
  const r = random.next();
  if (r < 0.2) return [];
  const first = dateOfBirth(random);
  const dates = [r < 0.75 ? first : first.slice(0, 4)];
  // Some entries give two possible years.
  if (random.chance(0.06)) dates.push(String(Number(first.slice(0, 4)) + (random.chance(0.5) ? 1 : -1)));
  return dates;
}

function countriesFrom(pool: readonly string[], random: Random): string[] {
  const draw = zipf(pool);
  const first = draw(random);
  const second = random.chance(0.25) ? draw(random) : first;
  return second === first ? [first] : [first, second];
}

function categories(random: Random): ScreeningCategory[] {
  const first = pickCategory(random);
  const second = random.chance(0.1) ? pickCategory(random) : first;
  return second === first ? [first] : [first, second];
}

function digits(random: Random, n: number): string {
  let out = String(1 + random.int(9));
  while (out.length < n) out += String(random.int(10));
  return out;
}

// ---- Businesses ---------------------------------------------------------------------------------

const brandWords = zipf(
  `Golden Eastern Northern Global United Pacific Atlantic Royal Sunrise Crescent Phoenix Dragon Falcon Eagle Star Ocean Delta
  Alpha Omega Sino Euro Trans Petro Neft Baltic Caspian Gulf Levant Sahel Silk Jade Pearl Emerald Cedar Orient Meridian Zenith
  Apex Summit Horizon Vanguard Pioneer Liberty Victory Crown Imperial National International Continental Allied Prime Grand
  Mega Tech Nova Sky Blue Red Green White Black Silver Diamond Iron Lion Tiger Hawk Wolf Bear Tulip Lotus Olive Palm Oasis`.split(/\s+/),
  0.6,
);
const placeWords = zipf(
  `Moscow Dubai Tehran Pyongyang Caracas Damascus Hong Kong Shanghai Minsk Crimea Baltic Caspian Gulf Levant Sahel Beirut Baghdad
  Kabul Khartoum Tripoli Havana Managua Yangon Dalian Shenzhen Tianjin Vladivostok Novorossiysk Sevastopol Istanbul Sharjah Muscat
  Doha Karachi Mumbai Singapore Labuan Limassol Riga London Panama Belize Seychelles Marshall Harbin Ningbo Xiamen`.split(/\s+/),
);
const sectorWords = zipf(
  `Trading Shipping Maritime Logistics Petroleum Oil Gas Energy Mining Metals Steel Chemicals Industrial Engineering Construction
  Technologies Electronics Aviation Airlines Bank Investment Capital Holdings Group Finance Exchange Import Export General Agro
  Textiles Pharma Defence Security Navigation Tankers Freight Resources Development Consulting Systems Services Enterprises
  Industries Commerce Marine Ventures Partners Supply Machinery Equipment Electric Power Telecom Software Minerals Gold Diamonds`.split(/\s+/),
  0.7,
);
const legalForms = zipf(
  `LLC Ltd Limited Co.,_Ltd. FZE FZCO JSC OJSC OOO PJSC GmbH S.A. Pte._Ltd. Sdn._Bhd. Pty_Ltd Inc. Corp. PLC LLP AG B.V. L.L.C.`.split(/\s+/).map((s) => s.replace('_', ' ')),
);
const businessCountries = ['RU', 'IR', 'AE', 'CN', 'HK', 'KP', 'SY', 'VE', 'TR', 'BY', 'CY', 'GB', 'SG', 'MY', 'IN', 'LB', 'IQ', 'PA', 'AU'];

function businessName(random: Random): string {
  const r = random.next();
  const out: string[] = [];
  if (r < 0.5) out.push(brandWords(random));
  else if (r < 0.75) out.push(placeWords(random));
  else {
    // Named after a family: "Karlov Holdings", "Al-Masri Trading".
    const person = cultures[pickCulture(random)].person(random);
    out.push(capitalise((person.words.find((w) => w.role === 'family') ?? person.words[0]!).text.toLowerCase()));
  }
  if (random.chance(0.35)) out.push(random.chance(0.5) ? brandWords(random) : placeWords(random));
  out.push(sectorWords(random));
  if (out.length < 4 && random.chance(0.3)) out.push(sectorWords(random));
  return [...new Set(out)].join(' ');
}

function businessIdentifier(country: string, random: Random): string {
  switch (random.int(5)) {
    case 0:
      return country === 'RU' ? `OGRN ${digits(random, 13)}` : `Reg. No. ${digits(random, 9)}`;
    case 1:
      return `IMO ${digits(random, 7)}`;
    case 2: {
      const abn = digits(random, 11);
      return `ABN ${abn.slice(0, 2)} ${abn.slice(2, 5)} ${abn.slice(5, 8)} ${abn.slice(8)}`;
    }
    case 3:
      return `Company No. 0${digits(random, 7)}`;
    default:
      return `Tax ID ${digits(random, 10)}`;
  }
}

function businessAliases(name: string, legal: string | undefined, countries: readonly string[], random: Random): string[] {
  const wanted = Math.min(3, Number(aliasCount(random)));
  const out = new Set<string>();
  for (let attempt = 0; out.size < wanted && attempt < wanted * 4; attempt++) {
    const kind = random.int(4);
    let alias: string;
    if (kind === 0) alias = `${name} ${legalForms(random)}`;
    else if (kind === 1) alias = `${businessName(random)}${legal ? ` ${legal}` : ''}`; // a former name
    else if (kind === 2) alias = name.replace(/\bTrading\b/, 'Trade').replace(/\bInternational\b/, 'Intl').replace(/\bCompany\b/, 'Co');
    else alias = countries.includes('RU') || countries.includes('BY') ? `ООО ${name.split(' ').map((w) => transliterate(w, cyrillic)).join(' ')}` : name.toUpperCase();
    if (alias !== name) out.add(alias);
  }
  return [...out];
}

// ---- The list -----------------------------------------------------------------------------------

/** `count` entries, about 85 % persons and 15 % businesses, in list `list` with ids `<prefix>000001`… */
export function generateScreeningList(count: number, options: { seed?: number; list?: string; idPrefix?: string } = {}): GeneratedList {
  const random = createRandom(options.seed ?? 20_000);
  const list = options.list ?? 'bench';
  const prefix = options.idPrefix ?? 'gen-';
  const entries: IndexedEntry[] = [];
  const people: Array<PersonName | undefined> = [];
  for (let i = 0; i < count; i++) {
    const entryId = `${prefix}${pad(i + 1, 6)}`;
    const common = { list, entryId, categories: categories(random), source: 'bench generator', contentHash: entryId };
    if (random.chance(0.85)) {
      const culture = cultures[pickCulture(random)];
      const person = culture.person(random);
      const name = render(person.words, pickStyle(random));
      const countries = countriesFrom(culture.countries, random);
      const identifiers = random.chance(0.08) ? [`Passport ${String.fromCharCode(65 + random.int(26))}${digits(random, 8)}`] : [];
      entries.push({ ...common, kind: 'person', name, aliases: personAliases(person, name, random), datesOfBirth: datesOfBirth(random), countries, identifiers });
      people.push(person);
    } else {
      const countries = countriesFrom(businessCountries, random);
      const legal = random.chance(0.85) ? legalForms(random) : undefined;
      const base = businessName(random);
      const name = legal ? `${base} ${legal}` : base;
      const identifiers: string[] = [];
      if (random.chance(0.45)) identifiers.push(businessIdentifier(countries[0]!, random));
      if (random.chance(0.1)) identifiers.push(businessIdentifier(countries[0]!, random));
      entries.push({ ...common, kind: 'business', name, aliases: businessAliases(base, legal, countries, random), datesOfBirth: [], countries, identifiers });
      people.push(undefined);
    }
  }
  return { entries, people };
}

// ---- Queries ------------------------------------------------------------------------------------

const letters = 'abcdefghijklmnopqrstuvwxyz';

/** One typing mistake in one word of four letters or more: a letter changed, dropped, added or two swapped. */
function typo(text: string, random: Random): string {
  const words = text.split(' ');
  const eligible = words.map((w, i) => [w, i] as const).filter(([w]) => /^\p{L}{4,}$/u.test(w));
  if (eligible.length === 0) return text;
  const [w, i] = random.pick(eligible);
  const at = 1 + random.int(w.length - 2);
  const op = random.int(4);
  const changed =
    op === 0
      ? w.slice(0, at) + random.pick([...letters]) + w.slice(at + 1)
      : op === 1
        ? w.slice(0, at) + w.slice(at + 1)
        : op === 2
          ? w.slice(0, at) + random.pick([...letters]) + w.slice(at)
          : w.slice(0, at - 1) + w[at]! + w[at - 1]! + w.slice(at + 1);
  words[i] = changed;
  return words.join(' ');
}

/** A listed person as a partner might type them: exact, or with one or two of the usual differences. */
function listedPersonName(person: PersonName, random: Random): string {
  const culture = cultures[person.culture];
  let words = person.words.map((w) => ({ ...w }));
  const changes = random.chance(0.15) ? 0 : random.chance(0.7) ? 1 : 2;
  let typos = 0;
  for (let c = 0; c < changes; c++) {
    const kind = random.int(4);
    if (kind === 0) words = reorder(words);
    else if (kind === 1 && words.some((w) => w.role === 'middle')) words = withoutMiddle(words);
    else if (kind === 2) {
      const target = random.pick(words);
      target.text = respell(culture, target.text, random) ?? target.text;
    } else typos++;
  }
  let text = render(words, random.chance(0.7) ? 'plain' : 'upperFamily');
  for (let t = 0; t < typos; t++) text = typo(text, random);
  return text;
}

/**
 * `persons` person queries (a third of them listed people, the rest not on the list) and `businesses`
 * business queries (the same split), shuffled together.
 */
export function generateScreeningQueries(generated: GeneratedList, options: { persons: number; businesses: number; seed?: number }): BenchQuery[] {
  const random = createRandom(options.seed ?? 4_242);
  const { entries, people } = generated;
  const personIndexes = entries.flatMap((e, i) => (e.kind === 'person' && people[i] ? [i] : []));
  const businessIndexes = entries.flatMap((e, i) => (e.kind === 'business' ? [i] : []));
  const out: BenchQuery[] = [];

  for (let q = 0; q < options.persons; q++) {
    const query: ScreeningQuery = { kind: 'person', names: [] };
    if (q % 3 === 0 && personIndexes.length) {
      const index = random.pick(personIndexes);
      const entry = entries[index]!;
      query.names.push(listedPersonName(people[index]!, random));
      const full = entry.datesOfBirth.find((d) => d.length === 10);
      const r = random.next();
      if (full && r < 0.5) query.dateOfBirth = full;
      else if (entry.datesOfBirth[0] && r < 0.65) query.dateOfBirth = `${entry.datesOfBirth[0].slice(0, 4)}-${pad(1 + random.int(12), 2)}-${pad(1 + random.int(28), 2)}`;
      else if (r < 0.75) query.dateOfBirth = dateOfBirth(random);
      const c = random.next();
      if (c < 0.5 && entry.countries.length) query.countries = [random.pick(entry.countries)];
      else if (c < 0.7) query.countries = [random.pick(businessCountries)];
      out.push({ query, origin: 'listed' });
    } else {
      const culture = cultures[pickCulture(random)];
      query.names.push(render(culture.person(random).words, 'plain'));
      if (random.chance(0.8)) query.dateOfBirth = dateOfBirth(random);
      if (random.chance(0.6)) query.countries = [zipf(culture.countries)(random)];
      out.push({ query, origin: 'new' });
    }
  }

  for (let q = 0; q < options.businesses; q++) {
    const query: ScreeningQuery = { kind: 'business', names: [] };
    if (q % 3 === 0 && businessIndexes.length) {
      const entry = entries[random.pick(businessIndexes)]!;
      let name = entry.name;
      const r = random.next();
      if (r < 0.3) name = name.replace(/\s+\S+$/, '') || name; // legal form (or last word) left out
      else if (r < 0.6) name = typo(name, random);
      else if (r < 0.8) name = `${name} ${legalForms(random)}`;
      query.names.push(name);
      if (entry.identifiers[0] && random.chance(0.3)) query.identifiers = [entry.identifiers[0]];
      if (random.chance(0.5)) query.countries = [random.pick(entry.countries)];
      out.push({ query, origin: 'listed' });
    } else {
      const legal = random.chance(0.8) ? ` ${legalForms(random)}` : '';
      query.names.push(`${businessName(random)}${legal}`);
      if (random.chance(0.3)) query.identifiers = [businessIdentifier(random.pick(businessCountries), random)];
      if (random.chance(0.5)) query.countries = [random.pick(businessCountries)];
      out.push({ query, origin: 'new' });
    }
  }

  // Fisher-Yates, so persons and businesses, listed and new, are spread through every slice alike.
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
