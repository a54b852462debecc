// How a one-off search finds, among the stored names (search-keys.ts), the ones the index would score for
// a query, reading as few others as it can: the candidate rule of `buildIndex` as data, and what a name
// must hold to have a chance of passing it, in terms the database's index of words can answer.
//
// The rule, per query name (one of the query's names or a joined-word variant of it): the query's words
// fall into groups that share keys (`keyGroups`); a name's words that a group reaches count for it up to
// the group's size (its hits); a name is scored when its hits reach
// `GREATEST(1, LEAST(queryTokens, its words) - queryInitials - its initials - weakPairs)`.
//
// What a name must hold (`find`): for a name of each shape (initials, or one to four-or-more words) the
// least it needs is known, and it can only have hits from the groups that reach it: one from a group it
// holds a word of, up to the group's size from a group it holds two words of (two different ones, or
// one twice). So it must hold words of enough groups, or two words of a large enough group, to make up
// that least need. A name that holds less cannot pass and is not read; one that holds enough is read,
// counted exactly by the database, and decided again by an index of the candidates. `find` may pass
// more than the rule (it only costs time); it must never pass less (it would miss a match).
import { allShapes, initialsOf, keyGroups, queryNames, weakPairsAffordable, type ScreeningQuery } from './screening-index.ts';
import { shapedToken } from './search-keys.ts';

export type Finder =
  /** The name holds one of these (shaped) words. */
  | { holds: string[] }
  /** The name holds one of these words twice or more. */
  | { repeats: string[] }
  | { all: Finder[] }
  | { any: Finder[] };

export interface CandidateFilter {
  find: Finder;
  /** Each group's words in every shape, and its size: what the hits count. */
  groups: Array<{ size: number; tokens: string[] }>;
  /** The query name's words, initials included. */
  queryTokens: number;
  queryInitials: number;
  weakPairs: number;
}

export interface QueryPlan {
  /** Every key of the query's words: what finds the stored words the query reaches. */
  keys: string[];
  names: Array<{ groups: Array<{ size: number; keys: Set<string> }>; queryTokens: number; queryInitials: number; weakPairs: number }>;
}

export function planQuery(query: Pick<ScreeningQuery, 'kind' | 'names'>, threshold: number): QueryPlan {
  const names = queryNames(query).map((name) => ({
    groups: keyGroups(name),
    queryTokens: name.tokens.length,
    queryInitials: initialsOf(name),
    weakPairs: weakPairsAffordable(threshold),
  }));
  return { keys: [...new Set(names.flatMap((n) => n.groups.flatMap((g) => [...g.keys])))], names };
}

/** A stored word that shares a key with the query. */
export interface ReachedWord {
  token: string;
  keys: readonly string[];
}

/** A shape's finder with more alternatives than this is replaced by "holds a word of any group", which passes more. */
const maxLeaves = 48;

/** The plan's filters, given the stored words that share a key with the query (`plan.keys`). */
export function candidateFilters(plan: QueryPlan, words: readonly ReachedWord[]): CandidateFilter[] {
  return plan.names.flatMap((name) => {
    const groups = name.groups
      .map((g) => ({ size: g.size, words: words.filter((w) => w.keys.some((k) => g.keys.has(k))).map((w) => w.token) }))
      .filter((g) => g.words.length > 0);
    if (groups.length === 0) return [];
    const perShape = allShapes.flatMap((shape) => {
      // Shape 0 has initials, maybe enough to need one hit; shape 4 is four words or more, so it needs at least what four need.
      const least = shape === 0 ? 1 : Math.max(1, Math.min(name.queryTokens, shape) - name.queryInitials - name.weakPairs);
      const find = shapeFinder(groups, shape, least);
      return find ? [find] : [];
    });
    if (perShape.length === 0) return [];
    return [
      {
        find: { any: perShape },
        groups: groups.map((g) => ({ size: g.size, tokens: shaped(g.words, allShapes) })),
        queryTokens: name.queryTokens,
        queryInitials: name.queryInitials,
        weakPairs: name.weakPairs,
      },
    ];
  });
}

const shaped = (tokens: readonly string[], shapes: readonly number[]) => tokens.flatMap((t) => shapes.map((shape) => shapedToken(t, shape)));

/**
 * What a name of `shape` must hold to make up `least` hits: for each least way of making them up (a
 * word of some groups, two words of others), all of it. Undefined when no name of the shape can.
 */
function shapeFinder(groups: ReadonlyArray<{ size: number; words: string[] }>, shape: number, least: number): Finder | undefined {
  const holds = (words: readonly string[]): Finder => ({ holds: shaped(words, [shape]) });
  // Per group, what each level of hits asks: one word, or (a group of two or more) two.
  const levels = groups.map((g) => [{ hits: 0 }, { hits: 1, find: holds(g.words) }, ...(g.size >= 2 ? [{ hits: g.size, find: twoOf(g.words, shape) }] : [])]);
  const ways: Finder[] = [];
  const choose = (i: number, chosen: number[]): void => {
    if (i === groups.length) {
      const total = chosen.reduce((n, level, g) => n + levels[g]![level]!.hits, 0);
      // The least ways only: one group's fewer hits would fall short.
      const least_ = chosen.every((level, g) => level === 0 || total - levels[g]![level]!.hits + levels[g]![level - 1]!.hits < least);
      if (total >= least && least_) ways.push({ all: chosen.flatMap((level, g) => (level === 0 ? [] : [levels[g]![level]!.find!])) });
      return;
    }
    for (let level = 0; level < levels[i]!.length; level++) choose(i + 1, [...chosen, level]);
  };
  choose(0, []);
  if (ways.length === 0) return undefined;
  const find: Finder = { any: ways };
  return leaves(find) <= maxLeaves ? find : holds(groups.flatMap((g) => g.words));
}

/**
 * Two of these words, or one twice. Two different words differ in some bit of their position in the
 * list: for each bit, one word with it clear and one with it set.
 */
function twoOf(words: readonly string[], shape: number): Finder {
  const ways: Finder[] = [{ repeats: shaped(words, [shape]) }];
  for (let bit = 1; bit < words.length; bit <<= 1) {
    const clear = words.filter((_, i) => (i & bit) === 0);
    const set = words.filter((_, i) => (i & bit) !== 0);
    ways.push({ all: [{ holds: shaped(clear, [shape]) }, { holds: shaped(set, [shape]) }] });
  }
  return { any: ways };
}

function leaves(find: Finder): number {
  return 'all' in find ? find.all.reduce((n, f) => n + leaves(f), 0) : 'any' in find ? find.any.reduce((n, f) => n + leaves(f), 0) : 1;
}
