// What the one-off search reads: for every query name, `find` (the words a stored name must hold) must
// pass every name the candidate rule passes, or the search would miss a match the index finds; and it
// should pass few others, or the search reads the list. Checked without a database on a generated list
// and the bench's queries, at the default threshold and at one that affords a weak pair.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateScreeningList, generateScreeningQueries } from '../../bench/lib/screening-list.ts';
import { candidateFilters, planQuery, type CandidateFilter, type Finder } from '../../src/modules/screening/matching/search-filter.ts';
import { searchNamesOf, wordKeys, type SearchName } from '../../src/modules/screening/matching/search-keys.ts';

function holds(find: Finder, name: SearchName): boolean {
  if ('holds' in find) return find.holds.some((t) => name.tokens.includes(t));
  if ('repeats' in find) return find.repeats.some((t) => name.repeats.includes(t));
  if ('all' in find) return find.all.every((f) => holds(f, name));
  return find.any.some((f) => holds(f, name));
}

/** The rule as findCandidateEntries asks it of the database. */
function passes(filter: CandidateFilter, name: SearchName): boolean {
  const hits = filter.groups.reduce((n, g) => n + Math.min(g.size, name.tokens.filter((t) => g.tokens.includes(t)).length), 0);
  return hits >= Math.max(1, Math.min(filter.queryTokens, name.tokens.length) - filter.queryInitials - name.initials - filter.weakPairs);
}

describe('the words a one-off search looks names up by', () => {
  const generated = generateScreeningList(2000, { seed: 61 });
  const names = generated.entries.map((e) => ({ kind: e.kind, names: searchNamesOf(e) }));
  const words = new Map<string, { token: string; keys: string[] }>();
  for (const e of names) for (const n of e.names) for (const t of n.tokens) words.set(`${e.kind} ${t.slice(0, t.lastIndexOf('/'))}`, { token: t.slice(0, t.lastIndexOf('/')), keys: wordKeys(t.slice(0, t.lastIndexOf('/'))) });
  const queries = generateScreeningQueries(generated, { persons: 150, businesses: 30, seed: 8 }).map((q) => q.query);

  for (const threshold of [0.8, 0.7]) {
    it(`find every name the rule passes, and few others (threshold ${threshold})`, () => {
      let passed = 0;
      let found = 0;
      let reached = 0;
      for (const query of queries) {
        const plan = planQuery(query, threshold);
        const keys = new Set(plan.keys);
        const reachedWords = [...words.entries()].filter(([k, w]) => k.startsWith(`${query.kind} `) && w.keys.some((key) => keys.has(key))).map(([, w]) => w);
        const filters = candidateFilters(plan, reachedWords);
        const reachedTokens = new Set(filters.flatMap((f) => f.groups.flatMap((g) => g.tokens)));
        for (const entry of names) {
          if (entry.kind !== query.kind) continue;
          for (const name of entry.names) {
            if (name.tokens.some((t) => reachedTokens.has(t))) reached++;
            for (const filter of filters) {
              const rule = passes(filter, name);
              const find = holds(filter.find, name);
              assert.ok(find || !rule, `${JSON.stringify(query.names)}: ${name.tokens.join(' ')} passes the rule but is not found`);
              if (rule) passed++;
              if (find) found++;
            }
          }
        }
      }
      assert.ok(passed > queries.length, `${passed} names passed`);
      // Of the names the query's words reach that the rule refuses, few are read.
      assert.ok(found - passed <= (reached - passed) / 4, `found ${found} names for ${passed} candidates; the query's words reach ${reached}`);
    });
  }
});
