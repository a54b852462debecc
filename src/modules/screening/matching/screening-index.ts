// The in-memory index of one list version: every name of every entry (and its joined-word variants),
// prepared once, and an inverted index from blocking keys (the word, its phonetic codes, the word with a
// letter left out) to names, so that a query scores only the names that can reach the threshold.
import type { EntryKind, ListEntry } from '../list-entry.ts';
import { compareCountries, compareDateOfBirth, maxEvidenceBonus, type CountryEvidence, type DateOfBirthEvidence } from './evidence.ts';
import { directSimilarity, nameScoreBound, nameVariants, prepareName, scoreNames, weakPairCap, wholeWords, type PairSimilarity, type PreparedName } from './name-score.ts';

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
  /** Single-letter tokens: they pair without a shared key. */
  initials: number;
  /** Tokens longer than an initial: a person needs two of them paired when both names have two. */
  wholeWords: number;
}

export interface ScreeningIndex {
  readonly entries: readonly IndexedEntry[];
  /** Scores only the names that can reach the threshold (see `candidates`), and entries sharing an identifier. */
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
 * The keys a token is found by: itself; its phonetic codes from four letters (shorter tokens pair only
 * when equal); and from five letters itself with any one letter left out, so that two tokens one typing
 * mistake apart always share a key. These are exactly the pairs `tokenSimilarity` scores above
 * `weakPairCap`. The one-off search stores them per word (search-keys.ts).
 */
export function blockingKeys(token: string, codes: readonly string[]): string[] {
  if (token.length < 2) return [];
  const keys = [`t:${token}`];
  if (token.length >= 4) for (const code of codes) keys.push(`p:${code}`);
  if (token.length >= 5) for (let i = 0; i < token.length; i++) keys.push(`t:${token.slice(0, i)}${token.slice(i + 1)}`);
  return keys;
}

/** The names an entry is found by, in the index's order: its name, then its aliases, each with its joined-word variants. */
export function namesOf(entry: Pick<ListEntry, 'kind' | 'name' | 'aliases'>, cache?: Map<string, PreparedName[]>): Array<{ alias: boolean; variants: PreparedName[] }> {
  return [[entry.name, false] as const, ...entry.aliases.map((a) => [a, true] as const)].map(([text, alias]) => {
    const cacheKey = `${entry.kind}|${text}`;
    const variants = cache?.get(cacheKey) ?? nameVariants(prepareName(text, entry.kind));
    cache?.set(cacheKey, variants);
    return { alias, variants };
  });
}

/** The names a query is screened by, in order: each of its names with its joined-word variants. */
export function queryNames(query: Pick<ScreeningQuery, 'kind' | 'names'>): PreparedName[] {
  return query.names.flatMap((text) => nameVariants(prepareName(text, query.kind)));
}

/**
 * How many weak pairs (no shared key, at most `weakPairCap`) a match can have at this threshold, even
 * with the best evidence: at the default threshold none.
 */
export function weakPairsAffordable(threshold: number): number {
  return Math.floor((1 + maxEvidenceBonus - threshold) / (1 - weakPairCap) + 1e-9);
}

/** Single-letter tokens: they pair without a shared key. */
export function initialsOf(name: PreparedName): number {
  return name.tokens.length - wholeWords(name);
}

export function buildIndex(entries: readonly IndexedEntry[]): ScreeningIndex {
  const names: IndexedName[] = [];
  const namesOfKind: Record<EntryKind, number[]> = { person: [], business: [] };
  const primaryNameOf: number[] = [];
  const byIdentifier = new Map<string, number[]>();
  // Two levels, so that a token shared by many names is keyed once: key → tokens → names.
  const tokenIds = new Map<string, number>();
  const namesOfToken: number[][] = [];
  /** Each token's first letter (a char code): an initial pairs only with a word or initial it begins. */
  const firstLetters: number[] = [];
  /**
   * The same postings split by the shape of the name: names with an initial, and names without one by
   * their number of words (1, 2, 3, 4 or more). A query's commonest word walks only the shapes that
   * could match on that word alone.
   */
  const shapedNamesOfToken: number[][][] = [];
  /** Parallel to `shapedNamesOfToken`: how many times the token is in that name (Mohammed bin Mohammed: twice). */
  const shapedCountsOfToken: number[][][] = [];
  const tokensOfKey = new Map<string, number[]>();
  const prepared = new Map<string, PreparedName[]>();

  function addName(variant: PreparedName, kind: EntryKind, entry: number, alias: boolean): number {
    const ids: number[] = [];
    const words = wholeWords(variant);
    const id = names.push({ ...variant, tokenIds: ids, entry, alias, initials: variant.tokens.length - words, wholeWords: words }) - 1;
    namesOfKind[kind].push(id);
    variant.tokens.forEach((token, i) => {
      const tokenKey = `${kind}|${token}`;
      let tokenId = tokenIds.get(tokenKey);
      if (tokenId === undefined) {
        tokenId = namesOfToken.push([]) - 1;
        firstLetters.push(token.charCodeAt(0));
        tokenIds.set(tokenKey, tokenId);
        for (const key of blockingKeys(token, variant.codes[i]!)) appendOnce(listOf(tokensOfKey, `${kind}|${key}`), tokenId);
      }
      appendOnce(namesOfToken[tokenId]!, id);
      const shape = shapeOf(variant.tokens.length - words, words);
      appendCounted((shapedNamesOfToken[tokenId] ??= [[], [], [], [], []])[shape]!, (shapedCountsOfToken[tokenId] ??= [[], [], [], [], []])[shape]!, id);
      ids.push(tokenId);
    });
    return id;
  }

  entries.forEach((entry, entryIndex) => {
    for (const { alias, variants } of namesOf(entry, prepared)) {
      variants.forEach((variant, v) => {
        const id = addName(variant, entry.kind, entryIndex, alias);
        if (!alias && v === 0) primaryNameOf[entryIndex] = id;
      });
    }
    for (const identifier of entry.identifiers) {
      const key = identifierKey(identifier);
      if (key) appendOnce(listOf(byIdentifier, key), entryIndex);
    }
  });

  // What the walk reads of each name, in flat arrays: reaching into the names' objects for them cost more
  // than the rest of the walk (the commonest names touch thousands of names per query).
  const tokenCountOf = Uint8Array.from(names, (name) => Math.min(255, name.tokens.length));
  const initialsCountOf = Uint8Array.from(names, (name) => Math.min(255, name.initials));
  const tokensStart = new Uint32Array(names.length + 1);
  names.forEach((name, id) => (tokensStart[id + 1] = tokensStart[id]! + name.tokenIds!.length));
  const flatTokenIds = new Uint32Array(tokensStart[names.length]!);
  names.forEach((name, id) => flatTokenIds.set(name.tokenIds!, tokensStart[id]!));
  const firstLetterOfToken = Uint16Array.from(firstLetters);

  // Per name, for the query being screened: how many of its tokens could pair through a shared key.
  // Stamps instead of clearing arrays between queries.
  const hits = new Uint8Array(names.length);
  const hitRun = new Uint32Array(names.length);
  const groupHits = new Uint8Array(names.length);
  const groupStamp = new Uint32Array(names.length);
  const seenToken = new Uint32Array(namesOfToken.length);
  const skippedToken = new Uint32Array(namesOfToken.length);
  let run = 0;
  let stamp = 0;

  /**
   * The names that can reach the threshold. A pair of tokens that shares no key (a phonetic code, the
   * token itself or a one-mistake neighbour) is an initial or scores at most `weakPairCap`, so a name
   * needs all its other pairs keyed, less the weak pairs the threshold can afford. Query tokens sharing
   * keys ("Mohammed … Muhammad") are counted as a group, never more often than the name has tokens
   * they reach, so that a common name does not pass on one word counted twice.
   *
   * The query's commonest group (Mohammed, Kim) is not walked name by name when the threshold affords
   * no weak pair: it adds to the names the other words found, and walks only the names that could
   * reach the threshold on it alone (few enough words, or initials to pair with the query's other words).
   */
  function* candidates(kind: EntryKind, queryName: PreparedName, threshold: number): Generator<number> {
    run++;
    const touched: number[] = [];
    const weakPairs = weakPairsAffordable(threshold);
    const queryInitials = initialsOf(queryName);
    const groups = keyGroups(queryName).map((group) => ({ ...group, tokens: tokensReached(kind, group.keys) }));
    const skipped = weakPairs === 0 && groups.length > 1 ? commonest(groups) : undefined;
    if (skipped) groups.push(...groups.splice(groups.indexOf(skipped), 1));

    for (const group of groups) {
      stamp++;
      // A name found only through the skipped group needs as few words as that group can pair, plus the query's initials.
      const shapes = group === skipped ? walkedShapes(group.size + queryInitials) : allShapes;
      for (const tokenId of group.tokens) {
        for (const shape of shapes) {
          const ids = shapedNamesOfToken[tokenId]![shape]!;
          const counts = shapedCountsOfToken[tokenId]![shape]!;
          for (let k = 0; k < ids.length; k++) {
            const id = ids[k]!;
            if (hitRun[id] !== run) {
              hitRun[id] = run;
              hits[id] = 0;
              touched.push(id);
            }
            if (groupStamp[id] !== stamp) {
              groupStamp[id] = stamp;
              groupHits[id] = 0;
            }
            const before = Math.min(group.size, groupHits[id]!);
            groupHits[id] = groupHits[id]! + counts[k]!;
            hits[id] = hits[id]! + Math.min(group.size, groupHits[id]!) - before;
          }
        }
      }
      if (group === skipped) {
        // The names the other groups found that the walk above left out: the skipped group's share, looked up.
        for (const tokenId of group.tokens) skippedToken[tokenId] = run;
        for (const id of touched) {
          if (groupStamp[id] === stamp) continue;
          let count = 0;
          for (let t = tokensStart[id]!; t < tokensStart[id + 1]!; t++) if (skippedToken[flatTokenIds[t]!] === run) count++;
          hits[id] = hits[id]! + Math.min(group.size, count);
        }
      }
    }

    // Yielded in the index's order, not in the order the walk touched them (which depends on which group
    // was commonest in this list): an entry whose names tie keeps the same one in any index holding it,
    // which is what lets the one-off search answer from an index of its candidates alone.
    const found: number[] = [];
    const initialLetters = queryInitials > 0 ? queryName.tokens.filter((t) => t.length === 1).map((t) => t.charCodeAt(0)) : [];
    for (const id of touched) {
      const needed = Math.min(queryName.tokens.length, tokenCountOf[id]!) - initialsCountOf[id]! - weakPairs;
      if (hits[id]! >= Math.max(1, needed)) found.push(id);
      else if (initialLetters.length > 0 && hits[id]! >= Math.max(1, needed - pairableInitials(id, initialLetters))) found.push(id);
    }
    yield* found.sort((a, b) => a - b);
  }

  /**
   * How many of the query's initials could pair with one of the name's tokens: an initial scores
   * `initialScore` with a token it begins and 0 with any other (a pair no threshold affords), so only
   * those may stand in for a keyed pair. Counting them, not all the query's initials, keeps "John D.
   * Hollwell" from making every two-word John a candidate.
   */
  function pairableInitials(id: number, initialLetters: readonly number[]): number {
    let pairable = 0;
    for (const letter of initialLetters) {
      for (let t = tokensStart[id]!; t < tokensStart[id + 1]!; t++) {
        if (firstLetterOfToken[flatTokenIds[t]!] === letter) {
          pairable++;
          break;
        }
      }
    }
    return pairable;
  }

  /** The tokens a group's keys reach, each once. */
  function tokensReached(kind: EntryKind, keys: Set<string>): number[] {
    stamp++;
    const tokens: number[] = [];
    for (const key of keys) {
      for (const tokenId of tokensOfKey.get(`${kind}|${key}`) ?? []) {
        if (seenToken[tokenId] === stamp) continue;
        seenToken[tokenId] = stamp;
        tokens.push(tokenId);
      }
    }
    return tokens;
  }

  /** The group reaching the most names. */
  function commonest<G extends { tokens: number[] }>(groups: G[]): G | undefined {
    let found: G | undefined;
    let most = -1;
    for (const group of groups) {
      const volume = group.tokens.reduce((n, t) => n + namesOfToken[t]!.length, 0);
      if (volume > most) [found, most] = [group, volume];
    }
    return found;
  }

  /** `bounded`: names that cannot reach the threshold are not compared word by word (scoreMatch); brute force compares every one. */
  function screen(query: ScreeningQuery, threshold: number, candidatesOf: (name: PreparedName) => Iterable<number>, bounded: boolean): Match[] {
    const floor = bounded ? threshold : 0;
    const best = new Map<number, Match>();
    const identified = new Set<number>();
    for (const identifier of query.identifiers ?? []) {
      const key = identifierKey(identifier);
      for (const entry of (key && byIdentifier.get(key)) || []) if (entries[entry]!.kind === query.kind) identified.add(entry);
    }
    for (const queryName of queryNames(query)) {
      const similarity = cachedSimilarity(queryName);
      for (const id of candidatesOf(queryName)) consider(best, query, queryName, names[id]!, identified.has(names[id]!.entry), threshold, similarity, floor);
    }
    for (const entry of identified) {
      if (best.has(entry)) continue;
      consider(best, query, prepareName(query.names[0] ?? '', query.kind), names[primaryNameOf[entry]!]!, true, threshold, directSimilarity, floor);
    }
    return [...best.values()].sort((a, b) => b.score - a.score || a.entry.entryId.localeCompare(b.entry.entryId));
  }

  function consider(best: Map<number, Match>, query: ScreeningQuery, queryName: PreparedName, name: IndexedName, identified: boolean, threshold: number, similarity: PairSimilarity, floor: number): void {
    const match = scoreMatch(query, queryName, name, entries[name.entry]!, identified, similarity, floor);
    if (!match || match.score < threshold) return;
    const previous = best.get(name.entry);
    if (!previous || match.score > previous.score) best.set(name.entry, match);
  }

  return {
    entries,
    search: (query, threshold) => screen(query, threshold, (queryName) => candidates(query.kind, queryName, threshold), true),
    searchAll: (query, threshold) => screen(query, threshold, () => namesOfKind[query.kind], false),
  };
}

/**
 * Token similarities for one query name, remembered by the index's token id: a list's names share their
 * words (Mohammed, Ali, Trading…), so each pair of words is compared once per query, not once per name.
 */
function cachedSimilarity(queryName: PreparedName): PairSimilarity {
  const known = queryName.tokens.map(() => new Map<number, number>());
  return (query, i, candidate, j) => {
    const tokenId = candidate.tokenIds?.[j];
    if (query !== queryName || tokenId === undefined) return directSimilarity(query, i, candidate, j);
    let value = known[i]!.get(tokenId);
    if (value === undefined) known[i]!.set(tokenId, (value = directSimilarity(query, i, candidate, j)));
    return value;
  };
}

/**
 * The match, or undefined when it cannot reach `threshold` whatever its words' similarities: the date of
 * birth and the country are weighed first, and the most the name could score with them (every pair
 * perfect, only the difference in word count costing) is compared with the threshold as the score would
 * be, rounded. A listed namesake born years apart is then dropped without its words being compared: the
 * commonest names (Mohammed, Kim) reach thousands of names, and most of them are such namesakes.
 */
function scoreMatch(query: ScreeningQuery, queryName: PreparedName, name: IndexedName, entry: IndexedEntry, identified: boolean, pairSimilarity: PairSimilarity, threshold = 0): Match | undefined {
  const dob = compareDateOfBirth(query.kind === 'person' ? query.dateOfBirth : undefined, entry.datesOfBirth);
  const country = compareCountries(query.countries, entry.countries);
  if (!identified && roundScore(clamp(nameScoreBound(queryName, name, query.kind) + dob.adjustment + country.adjustment)) < threshold) return undefined;
  const similarity = scoreNames(queryName, name, query.kind, pairSimilarity);
  // A shared registration number identifies a business whatever its name is spelt like.
  const score = identified ? 1 : clamp(similarity.score + dob.adjustment + country.adjustment);
  return {
    entry,
    matchedName: name.text,
    score: roundScore(score),
    features: {
      nameScore: roundScore(similarity.score),
      matchedTokens: similarity.matchedTokens,
      unmatchedTokens: similarity.unmatchedTokens,
      alias: name.alias,
      dateOfBirth: dob.evidence,
      country: country.evidence,
      identifier: identified ? 'MATCH' : 'NOT_COMPARED',
    },
  };
}

const roundScore = (score: number) => Math.round(score * 1000) / 1000;
const clamp = (score: number) => Math.min(1, Math.max(0, score));

/** The query's tokens grouped by shared keys: tokens in one group can reach the same names' tokens. */
export function keyGroups(name: PreparedName): Array<{ size: number; keys: Set<string> }> {
  const groups: Array<{ size: number; keys: Set<string> }> = [];
  name.tokens.forEach((token, i) => {
    const keys = new Set(blockingKeys(token, name.codes[i]!));
    if (keys.size === 0) return;
    const joined = groups.filter((g) => [...keys].some((k) => g.keys.has(k)));
    const merged = { size: 1 + joined.reduce((n, g) => n + g.size, 0), keys: new Set([...keys, ...joined.flatMap((g) => [...g.keys])]) };
    groups.splice(0, groups.length, ...groups.filter((g) => !joined.includes(g)), merged);
  });
  return groups;
}

/** Shape 0: a name with an initial; shapes 1–4: a name without, by its number of words (4 for four or more). */
export function shapeOf(initials: number, words: number): number {
  return initials > 0 ? 0 : Math.min(4, Math.max(1, words));
}

export const allShapes: readonly number[] = [0, 1, 2, 3, 4];

/** The shapes a name can have and still pair all its words with `words` query words: initials, and up to that many words. */
function walkedShapes(words: number): readonly number[] {
  return words >= 4 ? allShapes : [0, ...allShapes.slice(1, words + 1)];
}

/** Postings are filled in order, so a name holding the token again is always the last one: counted. */
function appendCounted(ids: number[], counts: number[], id: number): void {
  if (ids[ids.length - 1] === id) counts[counts.length - 1]!++;
  else {
    ids.push(id);
    counts.push(1);
  }
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
