// How alike two names are: each token of the shorter name is paired with its most similar token of the
// other (so order does not matter), and every imperfect pair costs its shortfall. Missing middle names
// cost a little; a person matched on one token alone cannot reach a match.
import type { EntryKind } from '../list-entry.ts';
import { editDistance } from './edit-distance.ts';
import { jaroWinkler } from './jaro-winkler.ts';
import { nameTokens, phoneticCodes } from './normalise.ts';

export interface PreparedName {
  text: string;
  tokens: string[];
  /** Phonetic codes per token, parallel to `tokens`. */
  codes: string[][];
  /** The index's ids of the tokens, parallel to `tokens`, for caching token similarities per query. */
  tokenIds?: number[];
}

/** The similarity of the query's token i and the candidate's token j. */
export type PairSimilarity = (query: PreparedName, i: number, candidate: PreparedName, j: number) => number;

export const directSimilarity: PairSimilarity = (query, i, candidate, j) => tokenSimilarity(query.tokens[i]!, query.codes[i]!, candidate.tokens[j]!, candidate.codes[j]!);

export interface NameScore {
  score: number;
  matchedTokens: number;
  unmatchedTokens: number;
}

export function prepareName(text: string, kind: EntryKind): PreparedName {
  const tokens = nameTokens(text, kind);
  return { text, tokens, codes: tokens.map(phoneticCodes) };
}

/**
 * The name, and the name with two neighbouring words written as one where one of them is short: "Min-jun"
 * and "Minjun", "Abdel Rahman" and "Abdelrahman", "Abd al-Aziz" and "Abdalaziz" are spelt both ways. Both
 * sides of a comparison are expanded alike.
 */
export function nameVariants(name: PreparedName): PreparedName[] {
  const variants = [name];
  // Joining a two-word name would leave one long word, whose consonant skeleton matches far too much (Yun Li, Yuan Weilei).
  if (name.tokens.length < 3) return variants;
  for (let k = 0; k + 1 < name.tokens.length; k++) {
    const [left, right] = [name.tokens[k]!, name.tokens[k + 1]!];
    if (Math.min(left.length, right.length) > joinableLength || left.length === 1 || right.length === 1) continue;
    const joined = left + right;
    variants.push({
      text: name.text,
      tokens: [...name.tokens.slice(0, k), joined, ...name.tokens.slice(k + 2)],
      codes: [...name.codes.slice(0, k), phoneticCodes(joined), ...name.codes.slice(k + 2)],
    });
  }
  return variants;
}

/** Words this short are the ones written joined or apart: syllables of Korean and Chinese names, Arabic prefixes. */
const joinableLength = 5;

/** Two tokens that sound alike score at least this, whatever their spelling (Mohammed, Muhammad)… */
const phoneticFloor = 0.9;
/** …provided their spellings are this alike (Jaro-Winkler): Husayn and Hossein are 0.64, Correz and Garcia 0.44. */
const phoneticAgreement = 0.6;
/** One typing mistake in a token of six letters or more (Kurenov, Kurenkov); in shorter ones it may be another name (Chen, Cheng). */
const typoFloor = 0.92;
/** An initial standing for a whole word ("B." for Boris). */
export const initialScore = 0.9;
/**
 * Tokens that neither sound alike nor are one mistake apart score at most this: they are other words,
 * however alike they look (Markovic, Markova). It also keeps such a pair from ever being part of a match
 * at the default threshold, which is what lets the index look only at tokens sharing a key.
 */
export const weakPairCap = 0.7;
const unmatchedTokenCost: Record<EntryKind, number> = { person: 0.04, business: 0.06 };
/** A person matched on a single token of a longer name (a shared surname) is at most this. */
const singleTokenCap = 0.7;

function shareCode(a: string[], b: string[]): boolean {
  for (const x of a) if (b.includes(x)) return true;
  return false;
}

/**
 * Jaro-Winkler, kept high for spellings that sound alike or differ by one mistake, and otherwise capped
 * by the share of letters that survive the edits and by `weakPairCap`: Jaro-Winkler alone rewards a
 * shared start, and Tkachuk (three edits from Tkachenko) is another family.
 */
export function tokenSimilarity(a: string, aCodes: string[], b: string, bCodes: string[]): number {
  if (a.length === 1 || b.length === 1) return a[0] === b[0] ? initialScore : 0;
  if (a === b) return 1;
  const jw = jaroWinkler(a, b);
  // Double Metaphone keeps only consonant skeletons (Correz and Garcia share one): the spelling must agree too.
  if (Math.min(a.length, b.length) >= 4 && jw >= phoneticAgreement && shareCode(aCodes, bCodes)) return Math.max(jw, phoneticFloor);
  const longer = Math.max(a.length, b.length);
  const distance = editDistance(a, b);
  if (distance === 1 && longer >= 6) return Math.max(jw, typoFloor);
  return Math.min(jw, 1 - distance / longer, weakPairCap);
}

// Reused between calls: names are short, and screening scores thousands of them per query.
const pairScores: number[] = [];
const usedQuery: boolean[] = [];
const usedCandidate: boolean[] = [];

export function scoreNames(query: PreparedName, candidate: PreparedName, kind: EntryKind, similarity: PairSimilarity = directSimilarity): NameScore {
  const nq = query.tokens.length;
  const nc = candidate.tokens.length;
  if (nq === 0 || nc === 0) return { score: 0, matchedTokens: 0, unmatchedTokens: Math.max(nq, nc) };

  pairScores.length = 0;
  for (let i = 0; i < nq; i++) {
    for (let j = 0; j < nc; j++) pairScores.push(similarity(query, i, candidate, j));
  }
  usedQuery.length = 0;
  usedCandidate.length = 0;

  // Greedy assignment, best pair first: with a handful of tokens it finds the optimum in practice.
  const pairs = Math.min(nq, nc);
  let shortfall = 0;
  let wholeWordPairs = 0;
  for (let k = 0; k < pairs; k++) {
    let best = -1;
    let bi = 0;
    let bj = 0;
    for (let i = 0; i < nq; i++) {
      if (usedQuery[i]) continue;
      for (let j = 0; j < nc; j++) {
        if (usedCandidate[j]) continue;
        const s = pairScores[i * nc + j]!;
        if (s > best) {
          best = s;
          bi = i;
          bj = j;
        }
      }
    }
    usedQuery[bi] = true;
    usedCandidate[bj] = true;
    shortfall += 1 - best;
    if (best > weakPairCap && query.tokens[bi]!.length > 1 && candidate.tokens[bj]!.length > 1) wholeWordPairs++;
  }

  // Initials alone ("B. I.") say nothing about who someone is.
  if (wholeWordPairs === 0) return { score: 0, matchedTokens: pairs, unmatchedTokens: Math.abs(nq - nc) };
  const unmatched = Math.abs(nq - nc);
  // Every imperfect token costs its own shortfall: two near-misses are less likely one person than one.
  let score = 1 - shortfall - unmatched * unmatchedTokenCost[kind];
  // A person whose names share one whole word (a surname) is not matched by initials or the rest.
  if (kind === 'person' && wholeWordPairs < 2 && wholeWords(query) >= 2 && wholeWords(candidate) >= 2) score = Math.min(score, singleTokenCap);
  if (kind === 'person' && pairs === 1 && unmatched > 0) score = Math.min(score, singleTokenCap);
  return { score: Math.max(0, score), matchedTokens: pairs, unmatchedTokens: unmatched };
}

/**
 * The most `scoreNames` can answer for these two names, from their lengths alone: every pair perfect,
 * the words left unpaired still costing, the one-word cap still applying. Never below the score.
 */
export function nameScoreBound(query: PreparedName, candidate: PreparedName, kind: EntryKind): number {
  const nq = query.tokens.length;
  const nc = candidate.tokens.length;
  if (nq === 0 || nc === 0) return 0;
  const unmatched = Math.abs(nq - nc);
  const bound = Math.max(0, 1 - unmatched * unmatchedTokenCost[kind]);
  return kind === 'person' && Math.min(nq, nc) === 1 && unmatched > 0 ? Math.min(bound, singleTokenCap) : bound;
}

/** Tokens longer than an initial. */
export function wholeWords(name: PreparedName): number {
  let count = 0;
  for (const token of name.tokens) if (token.length > 1) count++;
  return count;
}
