// `pvs screening search` without a server: the one-off search reads only its candidates' keys and
// entries, and must answer exactly what the warm index answers (same outcome, same entries in the same
// order, same scores, names and features), on a generated list with the labelled sets' entries in it,
// after a re-import, and for a list imported before the keys existed.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateScreeningList, generateScreeningQueries, type GeneratedList } from '../../bench/lib/screening-list.ts';
import type { Database, Tx } from '../../src/platform/db/database.ts';
import type { ListEntry } from '../../src/modules/screening/list-entry.ts';
import { buildIndex, type Match, type ScreeningQuery } from '../../src/modules/screening/matching/screening-index.ts';
import { searchOnce, type OneOffQuery } from '../../src/modules/screening/one-off-search.ts';
import * as repo from '../../src/modules/screening/screening.repository.ts';
import { createScreeningService, type SearchInput } from '../../src/modules/screening/screening.service.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { labelledEntry, readLabelledPairs } from './labelled-pairs.ts';
import { writeSimpleCsvList } from './simple-csv-list.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'pvs-one-off-'));
const listSize = 2500;

/** The bench's labelled queries and their entries (bench/scenarios/screening.ts puts them in its list alike). */
const labelled = readLabelledPairs();
const labelledEntries: ListEntry[] = labelled.map(labelledEntry);

/** Queries a partner would send: the bench's, the labelled ones, and listed people by their Cyrillic or Arabic-script aliases. */
function queriesFor(generated: GeneratedList, seed: number): OneOffQuery[] {
  const bench = generateScreeningQueries(generated, { persons: 150, businesses: 30, seed }).map(({ query }) => withoutIdentifiers(query));
  const scripted = generated.entries
    .flatMap((e) => e.aliases.filter((a) => /[\u0400-\u04ff\u0600-\u06ff]/.test(a)).map((a) => ({ kind: e.kind, names: [a], dateOfBirth: e.datesOfBirth.find((d) => d.length === 10) })))
    .slice(0, 40);
  const fromLabels = labelled.map((p) => ({ kind: p.kind, names: [p.query.name], dateOfBirth: p.query.dateOfBirth, countries: p.query.countries }));
  return [...bench, ...scripted, ...fromLabels];
}

const withoutIdentifiers = ({ identifiers: _, ...query }: ScreeningQuery): OneOffQuery => query;

/** Everything an answer shows, in order. */
const shown = (matches: readonly Match[]) => matches.map((m) => ({ list: m.entry.list, entryId: m.entry.entryId, score: m.score, matchedName: m.matchedName, features: m.features }));

function writeList(name: string, entries: readonly ListEntry[]): string {
  return writeSimpleCsvList(path.join(dir, name), entries);
}

async function keyRows(db: Database) {
  const [row] = await db.query<{ sets: number; words: number; names: number; orphans: number }>(
    `SELECT (SELECT count(*)::int FROM screening_search_key_sets) AS sets, (SELECT count(*)::int FROM screening_search_words) AS words,
            (SELECT count(*)::int FROM screening_search_names) AS names,
            (SELECT count(*)::int FROM screening_search_names n WHERE NOT EXISTS (SELECT 1 FROM screening_search_key_sets s WHERE s.import_id = n.import_id)) AS orphans`,
  );
  return row!;
}

describe('the one-off search against the warm index', () => {
  let t: TestContext;
  let generated: GeneratedList;
  let threshold: number;
  const deps = () => ({ db: t.services.db, clock: t.services.clock, logger: t.services.logger });

  /** Every query both ways on the current version, at `thresholds`; answers the number of queries with a match. */
  async function assertSameAnswers(queries: readonly OneOffQuery[], thresholds: readonly number[]): Promise<number> {
    const version = (await repo.findCurrentVersion(t.services.db))!;
    const index = buildIndex(await repo.entriesOfVersion(t.services.db, version));
    let matched = 0;
    for (const at of thresholds) {
      for (const query of queries) {
        const once = await searchOnce(deps(), query, at);
        assert.equal(once.version, version);
        assert.equal(once.read.fallback, false);
        const expected = shown(index.search(query, at));
        assert.deepEqual(shown(once.matches), expected, `${JSON.stringify(query)} at ${at}`);
        if (expected.length > 0) matched++;
      }
    }
    return matched;
  }

  before(async () => {
    t = await createTestContext();
    threshold = t.config.SCREENING_MATCH_THRESHOLD;
    generated = generateScreeningList(listSize, { seed: 18, list: 'bench' });
    await t.services.screening.importList({ format: 'csv', list: 'bench', filePath: writeList('v1.csv', [...generated.entries, ...labelledEntries]) });
  });
  after(() => t.close());

  it('answers UNAVAILABLE before any list is loaded', async () => {
    const empty = await createTestContext();
    try {
      assert.deepEqual(await empty.services.screening.searchOnce({ name: 'Boris Karlov' }), { outcome: 'UNAVAILABLE', listVersion: null, matches: [] });
    } finally {
      await empty.close();
    }
  });

  it('answers the command exactly as the warm index does, and never builds the index', async () => {
    const inputs: SearchInput[] = [
      { name: 'Karlov Boris', dateOfBirth: '1961-03-14', country: 'RU' },
      { name: 'Борис Иванович Карлов' },
      { name: 'Amira El Sayed', dateOfBirth: '1975-09-02' },
      { name: 'NORTHWIND TRADING PTY LTD', kind: 'business' },
      ...queriesFor(generated, 5)
        .slice(0, 60)
        .map((q) => ({ name: q.names[0]!, kind: q.kind, dateOfBirth: q.dateOfBirth, country: q.countries?.[0] })),
    ];
    const answers = [];
    for (const input of inputs) answers.push(await t.services.screening.searchOnce(input));
    // Nothing so far has loaded this process's index: the one-off search reads the database only.
    assert.equal(t.logs.filter((l) => l.msg === 'screening index loaded').length, 0);
    for (const [i, input] of inputs.entries()) assert.deepEqual(answers[i], await t.services.screening.search(input), JSON.stringify(input));
    assert.equal(t.logs.filter((l) => l.msg === 'screening index loaded').length, 1);
    assert.ok(answers.filter((a) => a.outcome === 'POSSIBLE_MATCH').length >= 20);
  });

  it('finds what the index finds for the bench and labelled queries, Cyrillic and Arabic script, at three thresholds', async () => {
    const queries = queriesFor(generated, 11);
    const matched = await assertSameAnswers(queries, [threshold]);
    // Not a comparison of empty answers: many queries find someone.
    assert.ok(matched >= queries.length / 3, `${matched} of ${queries.length} answers with a match`);
    // 0.7 and 0.6 afford a weak pair: the candidate rule reads differently there.
    await assertSameAnswers(
      queries.filter((_, i) => i % 8 === 0),
      [0.7, 0.6],
    );
  });

  it('reads only the candidates: a few entries per query, not the list', async () => {
    const queries = queriesFor(generated, 3).slice(0, 100);
    let entries = 0;
    for (const query of queries) entries += (await searchOnce(deps(), query, threshold)).read.entries;
    assert.ok(entries / queries.length < listSize / 50, `${entries / queries.length} entries read per query`);
  });

  it('answers the new version after a re-import, and drops the keys of the import it replaced', async () => {
    // Entries dropped, renamed (a changed name is new keys) and added; and a second list beside it.
    const changed = generated.entries
      .filter((_, i) => i % 7 !== 0)
      .map((e, i) => (i % 5 === 0 && e.aliases.length > 0 ? { ...e, name: e.aliases[0]!, aliases: [e.name, ...e.aliases.slice(1)] } : e));
    const added = generateScreeningList(300, { seed: 99, idPrefix: 'new-' }).entries;
    const v2 = await t.services.screening.importList({ format: 'csv', list: 'bench', filePath: writeList('v2.csv', [...changed, ...added, ...labelledEntries]) });
    const v3 = await t.services.screening.importList({ format: 'csv', list: 'other', filePath: writeList('other.csv', generateScreeningList(400, { seed: 7, idPrefix: 'oth-' }).entries) });
    assert.equal(v3.version, v2.version + 1);

    const inForce = (await repo.listsOfVersion(t.services.db, v3.version)).map((l) => l.id);
    const sets = await t.services.db.query<{ import_id: string }>(`SELECT import_id FROM screening_search_key_sets ORDER BY import_id`);
    assert.deepEqual(sets.map((s) => s.import_id), [...inForce].sort());
    assert.equal((await keyRows(t.services.db)).orphans, 0);

    const queries = [...queriesFor(generated, 21).slice(0, 120), ...generateScreeningQueries({ entries: added, people: [] }, { persons: 0, businesses: 20 }).map(({ query }) => withoutIdentifiers(query))];
    await assertSameAnswers(queries, [threshold]);
    const newcomer = added.find((e) => e.kind === 'person')!;
    const answer = await t.services.screening.searchOnce({ name: newcomer.name });
    assert.equal(answer.listVersion, v3.version);
    assert.equal(answer.matches[0]?.entryId, newcomer.entryId);
  });

  it('writes no keys for an import that fails, the failure coming after a first batch of keys went in', async () => {
    const before_ = await keyRows(t.services.db);
    const file = writeList('bad.csv', generateScreeningList(700, { seed: 3, idPrefix: 'bad-' }).entries);
    // Row 651 (past the first batch of 500) names a country that is not one.
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[650] = lines[650]!.replace(/,"[A-Z]{2}(;[A-Z]{2})?","/, ',"Russia","');
    writeFileSync(file, lines.join('\n'));
    const written: string[] = [];
    const screening = createScreeningService({ db: watchingKeyWrites(t.services.db, written), clock: t.services.clock, logger: t.services.logger, threshold, refreshSeconds: 10 });
    await assert.rejects(screening.importList({ format: 'csv', list: 'bench', filePath: file }), /row 651, column "countries"/);
    assert.deepEqual(written, ['screening_search_names', 'screening_search_words']);
    assert.deepEqual(await keyRows(t.services.db), before_);
  });

  it('answers correctly for a version imported before the keys existed, and writes them once', async () => {
    const version = (await repo.findCurrentVersion(t.services.db))!;
    // As an import made before migration 0018 left it: entries, no keys.
    await t.services.db.transaction(async (tx) => {
      for (const l of await repo.listsOfVersion(tx, version)) await repo.deleteSearchKeys(tx, l.id);
    });
    assert.deepEqual(await keyRows(t.services.db), { sets: 0, words: 0, names: 0, orphans: 0 });

    const query: OneOffQuery = { kind: 'person', names: [generated.entries.find((e) => e.kind === 'person')!.name] };
    const first = await searchOnce(deps(), query, threshold);
    assert.equal(first.read.fallback, false);
    assert.equal((await keyRows(t.services.db)).sets, 2);
    assert.equal(t.logs.filter((l) => l.msg === 'screening search keys written').length, 1);
    await assertSameAnswers(queriesFor(generated, 31).slice(0, 80), [threshold]);
    assert.equal(t.logs.filter((l) => l.msg === 'screening search keys written').length, 1);
  });

  it('writes again keys of another scheme (older code) before using them', async () => {
    await t.services.db.query(`UPDATE screening_search_key_sets SET scheme = 'an older scheme'`);
    await assertSameAnswers(queriesFor(generated, 41).slice(0, 40), [threshold]);
    const schemes = await t.services.db.query<{ scheme: string }>(`SELECT DISTINCT scheme FROM screening_search_key_sets`);
    assert.equal(schemes.length, 1);
    assert.notEqual(schemes[0]!.scheme, 'an older scheme');
  });

  it('reads the whole version, and still answers as the index does, when the keys cannot be written', async () => {
    const version = (await repo.findCurrentVersion(t.services.db))!;
    await t.services.db.transaction(async (tx) => {
      for (const l of await repo.listsOfVersion(tx, version)) await repo.deleteSearchKeys(tx, l.id);
    });
    const db = refusingKeyWrites(t.services.db);
    const index = buildIndex(await repo.entriesOfVersion(t.services.db, version));
    for (const query of queriesFor(generated, 51).slice(0, 4)) {
      const once = await searchOnce({ ...deps(), db }, query, threshold);
      assert.equal(once.read.fallback, true);
      assert.deepEqual(shown(once.matches), shown(index.search(query, threshold)));
    }
    assert.equal((await keyRows(t.services.db)).sets, 0);
  });
});

/** The database, with `check` seeing every statement of its transactions first. */
function watchingTransactions(db: Database, check: (sql: string) => void): Database {
  const wrap = (tx: Tx): Tx => ({ ...tx, query: async (sql, params) => (check(sql), tx.query(sql, params)) });
  return { ...db, transaction: (fn) => db.transaction((tx) => fn(wrap(tx))) };
}

/** The database, but a statement writing search keys fails (a read-only role, a full disk). */
function refusingKeyWrites(db: Database): Database {
  return watchingTransactions(db, (sql) => {
    if (/INSERT INTO screening_search_/.test(sql)) throw new Error('permission denied for table screening_search_names');
  });
}

/** The database, noting the tables search keys are inserted into. */
function watchingKeyWrites(db: Database, written: string[]): Database {
  return watchingTransactions(db, (sql) => {
    const table = /INSERT INTO (screening_search_\w+)/.exec(sql)?.[1];
    if (table) written.push(table);
  });
}
