// How alike two names are: each token of the shorter name is paired with its most similar token of the
// other (so order does not matter), and the name is only as good as its worst pair. Missing middle
// names cost a little; a person matched on one token alone cannot reach a match.
import type { EntryKind } from '../list-entry.ts';
import { editDistance } from './edit-distance.ts';
import { jaroWinkler } from './jaro-winkler.ts';
import { nameTokens, phoneticCodes } from './normalise.ts';

export interface PreparedName {
  text: string;
  tokens: string[];
  /** Phonetic codes per token, parallel to `tokens`. */
  codes: string[][];
}

export interface NameScore {
  score: number;
  matchedTokens: number;
  unmatchedTokens: number;
}

export function prepareName(text: string, kind: EntryKind): PreparedName {
  const tokens = nameTokens(text, kind);
  return { text, tokens, codes: tokens.map(phoneticCodes) };
}

/** Two tokens that sound alike score at least this, whatever their spelling (Mohammed, Muhammad). */
const phoneticFloor = 0.9;
/** One typing mistake in a token of six letters or more (Kurenov, Kurenkov); in shorter ones it may be another name (Chen, Cheng). */
const typoFloor = 0.92;
/** An initial standing for a whole word ("B." for Boris). */
const initialScore = 0.9;
const unmatchedTokenCost: Record<EntryKind, number> = { person: 0.04, business: 0.06 };
/** A person matched on a single token of a longer name (a shared surname) is at most this. */
const singleTokenCap = 0.7;

function shareCode(a: string[], b: string[]): boolean {
  for (const x of a) if (b.includes(x)) return true;
  return false;
}

/**
 * Jaro-Winkler, kept high for spellings that sound alike or differ by one mistake, and otherwise capped
 * by the share of letters that survive the edits: Jaro-Winkler alone rewards a shared start, and
 * Tkachuk (three edits from Tkachenko) is another family.
 */
export function tokenSimilarity(a: string, aCodes: string[], b: string, bCodes: string[]): number {
  if (a === b) return 1;
  if (a.length === 1 || b.length === 1) return a[0] === b[0] ? initialScore : 0;
  const jw = jaroWinkler(a, b);
  if (Math.min(a.length, b.length) >= 4 && shareCode(aCodes, bCodes)) return Math.max(jw, phoneticFloor);
  const longer = Math.max(a.length, b.length);
  const distance = editDistance(a, b);
  if (distance === 1 && longer >= 6) return Math.max(jw, typoFloor);
  return Math.min(jw, 1 - distance / longer);
}

// Reused between calls: names are short, and screening scores thousands of them per query.
const pairScores: number[] = [];
const usedQuery: boolean[] = [];
const usedCandidate: boolean[] = [];

export function scoreNames(query: PreparedName, candidate: PreparedName, kind: EntryKind): NameScore {
  const score = scoreTokens(query, candidate, kind);
  if (query.tokens.length === candidate.tokens.length || score.score < mergeFloor || score.score >= 1 - unmatchedTokenCost[kind]) return score;
  // Names split differently: "Min-jun" and "Minjun", "Abdel Rahman" and "Abdelrahman".
  let best = score;
  const [longer, shorter] = query.tokens.length > candidate.tokens.length ? [query, candidate] : [candidate, query];
  for (let k = 0; k + 1 < longer.tokens.length; k++) {
    const merged = scoreTokens(shorter, joinTokens(longer, k), kind);
    if (merged.score > best.score) best = merged;
  }
  return best;
}

/** Below this a name is not worth trying split differently. */
const mergeFloor = 0.4;

function joinTokens(name: PreparedName, k: number): PreparedName {
  const joined = name.tokens[k]! + name.tokens[k + 1]!;
  return {
    text: name.text,
    tokens: [...name.tokens.slice(0, k), joined, ...name.tokens.slice(k + 2)],
    codes: [...name.codes.slice(0, k), phoneticCodes(joined), ...name.codes.slice(k + 2)],
  };
}

function scoreTokens(query: PreparedName, candidate: PreparedName, kind: EntryKind): NameScore {
  const nq = query.tokens.length;
  const nc = candidate.tokens.length;
  if (nq === 0 || nc === 0) return { score: 0, matchedTokens: 0, unmatchedTokens: Math.max(nq, nc) };

  pairScores.length = 0;
  for (let i = 0; i < nq; i++) {
    for (let j = 0; j < nc; j++) pairScores.push(tokenSimilarity(query.tokens[i]!, query.codes[i]!, candidate.tokens[j]!, candidate.codes[j]!));
  }
  usedQuery.length = 0;
  usedCandidate.length = 0;

  // Greedy assignment, best pair first: with a handful of tokens it finds the optimum in practice.
  const pairs = Math.min(nq, nc);
  let shortfall = 0;
  for (let k = 0; k < pairs; k++) {
    let best = -1;
    let bi = 0;
    let bj = 0;
    for (let i = 0; i < nq; i++) {
      if (usedQuery[i]) continue;
      for (let j = 0; j < nc; j++) {
        if (usedCandidate[j]) continue;
        const s = pairScores[i * nc + j]!;
        if (s > best) [best, bi, bj] = [s, i, j];
      }
    }
    usedQuery[bi] = true;
    usedCandidate[bj] = true;
    shortfall += 1 - best;
  }

  const unmatched = Math.abs(nq - nc);
  // Every imperfect token costs its own shortfall: two near-misses are less likely one person than one.
  let score = 1 - shortfall - unmatched * unmatchedTokenCost[kind];
  if (kind === 'person' && pairs === 1 && unmatched > 0) score = Math.min(score, singleTokenCap);
  return { score: Math.max(0, score), matchedTokens: pairs, unmatchedTokens: unmatched };
}
