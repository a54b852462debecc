// The in-memory index of one list version: every name of every entry, prepared once, and an inverted
// index from phonetic code to names so that a query scores only the names that sound like it.
import type { EntryKind, ListEntry } from '../list-entry.ts';
import { compareCountries, compareDateOfBirth, type CountryEvidence, type DateOfBirthEvidence } from './evidence.ts';
import { prepareName, scoreNames, type PreparedName } from './name-score.ts';

export interface IndexedEntry extends ListEntry {
  /** The list the entry came from ("dfat", "opensanctions", …): entry ids are unique within a list. */
  list: string;
  /** Changes whenever anything the matcher reads changes: how a new version's entries are told from old ones. */
  contentHash: string;
}

export interface ScreeningQuery {
  kind: EntryKind;
  names: string[];
  /** YYYY-MM-DD; persons only. */
  dateOfBirth?: string;
  countries?: string[];
  /** Businesses only: ABN, ACN, registration numbers. */
  identifiers?: string[];
}

export interface MatchFeatures {
  /** The name similarity before the date of birth and country were weighed. */
  nameScore: number;
  matchedTokens: number;
  unmatchedTokens: number;
  alias: boolean;
  dateOfBirth: DateOfBirthEvidence;
  country: CountryEvidence;
  identifier: 'MATCH' | 'NOT_COMPARED';
}

export interface Match {
  entry: IndexedEntry;
  /** The entry's name or alias that matched best. */
  matchedName: string;
  score: number;
  features: MatchFeatures;
}

interface IndexedName extends PreparedName {
  entry: number;
  alias: boolean;
}

export interface ScreeningIndex {
  readonly entries: readonly IndexedEntry[];
  /** Scores only the names that share a phonetic code or an identifier with the query. */
  search(query: ScreeningQuery, threshold: number): Match[];
  /** Scores every name of the kind: the baseline the index is measured and checked against. */
  searchAll(query: ScreeningQuery, threshold: number): Match[];
}

/**
 * Identifiers compare on their words that hold a digit, so "Company No. 08123456" is "08123456" and
 * "ABN 51 824 753 556" is "51824753556"; short ones are too common to be evidence.
 */
export function identifierKey(value: string): string | undefined {
  const key = value
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((word) => /[0-9]/.test(word))
    .join('');
  return key.length >= 6 ? key : undefined;
}

/**
 * The keys a token is found by: its phonetic codes, itself, and (from five letters) itself with any one
 * letter left out, so that two tokens one typing mistake apart always share a key.
 */
function blockingKeys(token: string, codes: readonly string[]): string[] {
  if (token.length < 2) return [];
  const keys = codes.map((code) => `p:${code}`);
  keys.push(`t:${token}`);
  if (token.length >= 5) for (let i = 0; i < token.length; i++) keys.push(`t:${token.slice(0, i)}${token.slice(i + 1)}`);
  return keys;
}

export function buildIndex(entries: readonly IndexedEntry[]): ScreeningIndex {
  const names: IndexedName[] = [];
  const namesOfKind: Record<EntryKind, number[]> = { person: [], business: [] };
  const primaryNameOf: number[] = [];
  const byIdentifier = new Map<string, number[]>();
  // Two levels, so that a token shared by many names is keyed once: key → tokens → names.
  const tokenIds = new Map<string, number>();
  const namesOfToken: number[][] = [];
  const tokensOfKey = new Map<string, number[]>();
  const prepared = new Map<string, PreparedName>();

  entries.forEach((entry, entryIndex) => {
    for (const [text, alias] of [[entry.name, false], ...entry.aliases.map((a) => [a, true] as const)] as const) {
      const cacheKey = `${entry.kind}|${text}`;
      const name = prepared.get(cacheKey) ?? prepareName(text, entry.kind);
      prepared.set(cacheKey, name);
      const id = names.push({ ...name, entry: entryIndex, alias }) - 1;
      if (!alias) primaryNameOf[entryIndex] = id;
      namesOfKind[entry.kind].push(id);
      name.tokens.forEach((token, i) => {
        const tokenKey = `${entry.kind}|${token}`;
        let tokenId = tokenIds.get(tokenKey);
        if (tokenId === undefined) {
          tokenId = namesOfToken.push([]) - 1;
          tokenIds.set(tokenKey, tokenId);
          for (const key of blockingKeys(token, name.codes[i]!)) appendOnce(listOf(tokensOfKey, `${entry.kind}|${key}`), tokenId);
        }
        appendOnce(namesOfToken[tokenId]!, id);
      });
    }
    for (const identifier of entry.identifiers) {
      const key = identifierKey(identifier);
      if (key) appendOnce(listOf(byIdentifier, key), entryIndex);
    }
  });

  // Marks tokens and names already seen for the current query without allocating sets per query.
  const seenName = new Uint32Array(names.length);
  const seenToken = new Uint32Array(namesOfToken.length);
  let stamp = 0;

  function* candidates(kind: EntryKind, queryName: PreparedName): Generator<number> {
    stamp++;
    for (let i = 0; i < queryName.tokens.length; i++) {
      for (const key of blockingKeys(queryName.tokens[i]!, queryName.codes[i]!)) {
        for (const tokenId of tokensOfKey.get(`${kind}|${key}`) ?? []) {
          if (seenToken[tokenId] === stamp) continue;
          seenToken[tokenId] = stamp;
          for (const id of namesOfToken[tokenId]!) {
            if (seenName[id] === stamp) continue;
            seenName[id] = stamp;
            yield id;
          }
        }
      }
    }
  }

  function run(query: ScreeningQuery, threshold: number, candidatesOf: (name: PreparedName) => Iterable<number>): Match[] {
    const best = new Map<number, Match>();
    const identified = new Set<number>();
    for (const identifier of query.identifiers ?? []) {
      const key = identifierKey(identifier);
      for (const entry of (key && byIdentifier.get(key)) || []) if (entries[entry]!.kind === query.kind) identified.add(entry);
    }
    for (const text of query.names) {
      const queryName = prepareName(text, query.kind);
      for (const id of candidatesOf(queryName)) consider(best, query, queryName, names[id]!, identified.has(names[id]!.entry), threshold);
    }
    for (const entry of identified) {
      if (best.has(entry)) continue;
      consider(best, query, prepareName(query.names[0] ?? '', query.kind), names[primaryNameOf[entry]!]!, true, threshold);
    }
    return [...best.values()].sort((a, b) => b.score - a.score || a.entry.entryId.localeCompare(b.entry.entryId));
  }

  function consider(best: Map<number, Match>, query: ScreeningQuery, queryName: PreparedName, name: IndexedName, identified: boolean, threshold: number): void {
    const match = scoreMatch(query, queryName, name, entries[name.entry]!, identified);
    const previous = best.get(name.entry);
    if (match.score >= threshold && (!previous || match.score > previous.score)) best.set(name.entry, match);
  }

  return {
    entries,
    search: (query, threshold) => run(query, threshold, (queryName) => candidates(query.kind, queryName)),
    searchAll: (query, threshold) => run(query, threshold, () => namesOfKind[query.kind]),
  };
}

function scoreMatch(query: ScreeningQuery, queryName: PreparedName, name: IndexedName, entry: IndexedEntry, identified: boolean): Match {
  const similarity = scoreNames(queryName, name, query.kind);
  const dob = compareDateOfBirth(query.kind === 'person' ? query.dateOfBirth : undefined, entry.datesOfBirth);
  const country = compareCountries(query.countries, entry.countries);
  // A shared registration number identifies a business whatever its name is spelt like.
  const score = identified ? 1 : Math.min(1, Math.max(0, similarity.score + dob.adjustment + country.adjustment));
  return {
    entry,
    matchedName: name.text,
    score: Math.round(score * 1000) / 1000,
    features: {
      nameScore: Math.round(similarity.score * 1000) / 1000,
      matchedTokens: similarity.matchedTokens,
      unmatchedTokens: similarity.unmatchedTokens,
      alias: name.alias,
      dateOfBirth: dob.evidence,
      country: country.evidence,
      identifier: identified ? 'MATCH' : 'NOT_COMPARED',
    },
  };
}

function listOf<K>(map: Map<K, number[]>, key: K): number[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** Lists are filled in order, so a repeat is always the last value. */
function appendOnce(list: number[], value: number): void {
  if (list[list.length - 1] !== value) list.push(value);
}
