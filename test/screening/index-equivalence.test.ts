// The index answers exactly what scoring every name answers, on a list shaped like a real one: the bench's
// generated list (skewed name pools, aliases, joined and split words; bench/lib/screening-list.ts, seeded)
// with the labelled pairs' entries in it, queried by the bench's queries and by names made only of the
// commonest words, where the walk is longest and its shortcuts (the commonest group looked up, not
// walked; a word a name holds twice counted twice) decide the answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildIndex, type IndexedEntry, type Match, type ScreeningQuery } from '../../src/modules/screening/matching/screening-index.ts';
import { generateScreeningList, generateScreeningQueries } from '../../bench/lib/screening-list.ts';
import { labelledEntry, readLabelledPairs } from './labelled-pairs.ts';

const threshold = 0.8;
const generated = generateScreeningList(1_500, { seed: 11 });
const repeated: IndexedEntry[] = ['Mohammed bin Mohammed al-Masri', 'Mohammad Mohammadi', 'Muhammad Mohammed', 'Kim Kim', 'Mohamed Muhammad Ali'].map((name, i) => ({
  list: 'repeated',
  entryId: `repeated-${i}`,
  kind: 'person',
  name,
  aliases: [],
  datesOfBirth: i % 2 ? ['1973'] : [],
  countries: [],
  identifiers: [],
  categories: ['SANCTIONS'],
  source: 'test',
  contentHash: `repeated-${i}`,
}));
const entries: IndexedEntry[] = [
  ...generated.entries,
  ...readLabelledPairs().map((pair) => ({ ...labelledEntry(pair), entryId: `labelled-${pair.entryId}`, list: 'labelled', contentHash: pair.entryId })),
  ...repeated,
];
const index = buildIndex(entries);

const summary = (matches: Match[]) => matches.map((m) => `${m.entry.list}/${m.entry.entryId} ${m.score} ${m.matchedName}`);

describe('the screening index against brute force', () => {
  it('answers the bench queries alike', () => {
    const queries = generateScreeningQueries(generated, { persons: 120, businesses: 12, seed: 5 });
    let matched = 0;
    for (const { query } of queries) {
      const expected = summary(index.searchAll(query, threshold));
      assert.deepEqual(summary(index.search(query, threshold)), expected, JSON.stringify(query));
      if (expected.length) matched++;
    }
    // The comparison means something only if many queries match.
    assert.ok(matched >= 30, `only ${matched} of ${queries.length} queries matched anything`);
  });

  it('answers names made of the commonest words alike, a word held twice included', () => {
    const queries: ScreeningQuery[] = [
      { kind: 'person', names: ['Mohammad Mohammadi'] },
      { kind: 'person', names: ['Mohammad Mohammadi'], dateOfBirth: '1973-07-19' },
      { kind: 'person', names: ['Mohammed Mohammed'] },
      { kind: 'person', names: ['Muhammad bin Mohammed'], dateOfBirth: '1964-03-15' },
      { kind: 'person', names: ['Mohammed Omar Muhammad al-Masri'], countries: ['SY'] },
      { kind: 'person', names: ['Kim Kim'] },
      { kind: 'person', names: ['Ali Mohamed'] },
    ];
    for (const query of queries) assert.deepEqual(summary(index.search(query, threshold)), summary(index.searchAll(query, threshold)), JSON.stringify(query));
    // A name holding the query's word twice is found by it.
    assert.ok(summary(index.search({ kind: 'person', names: ['Mohammed Mohammed'] }, threshold)).some((s) => s.startsWith('repeated/repeated-2 ')));
  });

  it('answers names with initials alike: an initial stands in for a word it begins, and for no other', () => {
    // Listed people's names with a given name cut to its initial ("J. Hollwell", "John D. Hollwell"), and
    // with an initial that begins none of their words: the candidates an initial lets through are decided
    // by its letter.
    const people = generated.entries.filter((e) => e.kind === 'person' && e.name.split(' ').length >= 2).slice(0, 50);
    const queries: ScreeningQuery[] = people.flatMap((entry, i) => {
      const words = entry.name.split(' ');
      const cut = (at: number, letter = words[at]![0]!) => words.map((w, j) => (j === at ? `${letter}.` : w)).join(' ');
      const dateOfBirth = i % 3 === 0 ? entry.datesOfBirth[0] : undefined;
      return [
        { kind: 'person' as const, names: [cut(0)], dateOfBirth },
        { kind: 'person' as const, names: [cut(words.length - 2)] },
        { kind: 'person' as const, names: [`${words[0]} ${String.fromCharCode(65 + (i % 26))}. ${words.at(-1)}`] },
        { kind: 'person' as const, names: [cut(0, 'Q')] },
      ];
    });
    let matched = 0;
    for (const query of queries) {
      const expected = summary(index.searchAll(query, threshold));
      assert.deepEqual(summary(index.search(query, threshold)), expected, JSON.stringify(query));
      if (expected.length) matched++;
    }
    assert.ok(matched >= 30, `only ${matched} of ${queries.length} queries matched anything`);
  });
});
