// Every SQL statement about screening lists, their imports and versions.
import type { Executor } from '../../platform/db/database.ts';
import type { EntryKind, ScreeningCategory } from './list-entry.ts';
import type { IndexedEntry } from './matching/screening-index.ts';
import type { CandidateFilter, Finder, ReachedWord } from './matching/search-filter.ts';

export interface ImportRow {
  id: string;
  list: string;
  format: string;
  file_name: string;
  file_sha256: string;
  entry_count: number;
  imported_at: Date;
}

export interface VersionListRow extends ImportRow {
  version: number;
}

/** Two imports never make the same version number: the second waits for the first to commit. */
export async function lockVersions(tx: Executor): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('pvs:screening-versions'))`);
}

export async function findCurrentVersion(db: Executor): Promise<number | null> {
  const [row] = await db.query<{ version: number | null }>(`SELECT max(version) AS version FROM screening_list_versions`);
  return row?.version ?? null;
}

/** The imports in force in a version, one per list. */
export async function listsOfVersion(db: Executor, version: number): Promise<VersionListRow[]> {
  return db.query<VersionListRow>(
    `SELECT v.version, i.id, i.list, i.format, i.file_name, i.file_sha256, i.entry_count, i.imported_at
       FROM screening_version_lists v JOIN screening_imports i ON i.id = v.import_id
      WHERE v.version = $1 ORDER BY i.list`,
    [version],
  );
}

export async function insertImport(tx: Executor, row: ImportRow): Promise<void> {
  await tx.query(
    `INSERT INTO screening_imports (id, list, format, file_name, file_sha256, entry_count, imported_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.id, row.list, row.format, row.file_name, row.file_sha256, row.entry_count, row.imported_at],
  );
}

export async function setEntryCount(tx: Executor, importId: string, count: number): Promise<void> {
  await tx.query(`UPDATE screening_imports SET entry_count = $2 WHERE id = $1`, [importId, count]);
}

/** One statement per batch: arrays of columns, unnested (array columns travel as JSON). */
export async function insertEntries(tx: Executor, importId: string, entries: readonly IndexedEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.query(
    `INSERT INTO screening_entries (import_id, entry_id, kind, name, aliases, dates_of_birth, countries, identifiers, categories, source, content_hash)
     SELECT $1, e.entry_id, e.kind, e.name,
            ARRAY(SELECT jsonb_array_elements_text(e.doc->'aliases')),
            ARRAY(SELECT jsonb_array_elements_text(e.doc->'datesOfBirth')),
            ARRAY(SELECT jsonb_array_elements_text(e.doc->'countries')),
            ARRAY(SELECT jsonb_array_elements_text(e.doc->'identifiers')),
            ARRAY(SELECT jsonb_array_elements_text(e.doc->'categories')),
            e.source, e.content_hash
       FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::text[]) AS e(entry_id, kind, name, doc, source, content_hash)`,
    [
      importId,
      entries.map((e) => e.entryId),
      entries.map((e) => e.kind),
      entries.map((e) => e.name),
      entries.map((e) => JSON.stringify({ aliases: e.aliases, datesOfBirth: e.datesOfBirth, countries: e.countries, identifiers: e.identifiers, categories: e.categories })),
      entries.map((e) => e.source),
      entries.map((e) => e.contentHash),
    ],
  );
}

/** A new version: the previous version's imports with this one replacing its list's. */
export async function insertVersion(tx: Executor, version: number, importId: string, list: string, previous: number | null, at: Date): Promise<void> {
  await tx.query(`INSERT INTO screening_list_versions (version, import_id, created_at) VALUES ($1, $2, $3)`, [version, importId, at]);
  await tx.query(
    `INSERT INTO screening_version_lists (version, list, import_id)
     SELECT $1::integer, list, import_id FROM screening_version_lists WHERE version = $4::integer AND list <> $3
     UNION ALL SELECT $1::integer, $3, $2`,
    [version, importId, list, previous],
  );
}

interface EntryRow {
  list: string;
  entry_id: string;
  kind: EntryKind;
  name: string;
  aliases: string[];
  dates_of_birth: string[];
  countries: string[];
  identifiers: string[];
  categories: ScreeningCategory[];
  source: string;
  content_hash: string;
}

export async function entriesOfVersion(db: Executor, version: number): Promise<IndexedEntry[]> {
  const rows = await db.query<EntryRow>(
    `SELECT v.list, e.entry_id, e.kind, e.name, e.aliases, e.dates_of_birth, e.countries, e.identifiers, e.categories, e.source, e.content_hash
       FROM screening_version_lists v JOIN screening_entries e ON e.import_id = v.import_id
      WHERE v.version = $1 ORDER BY v.list, e.entry_id`,
    [version],
  );
  return rows.map(toIndexedEntry);
}

function toIndexedEntry(r: EntryRow): IndexedEntry {
  return {
    list: r.list,
    entryId: r.entry_id,
    kind: r.kind,
    name: r.name,
    aliases: r.aliases,
    datesOfBirth: r.dates_of_birth,
    countries: r.countries,
    identifiers: r.identifiers,
    categories: r.categories,
    source: r.source,
    contentHash: r.content_hash,
  };
}

/** `list|entryId` → content hash, for telling what a later version added or changed. */
export async function entryHashesOfVersion(db: Executor, version: number): Promise<Map<string, string>> {
  const rows = await db.query<{ list: string; entry_id: string; content_hash: string }>(
    `SELECT v.list, e.entry_id, e.content_hash FROM screening_version_lists v JOIN screening_entries e ON e.import_id = v.import_id WHERE v.version = $1`,
    [version],
  );
  return new Map(rows.map((r) => [`${r.list}|${r.entry_id}`, r.content_hash]));
}

// ---- The one-off search's keys (one-off-search.ts) ---------------------------------------------

/** Entries' names, as an import's keys are derived from them. */
export async function entryNamesOfImport(db: Executor, importId: string): Promise<Array<{ entry_id: string; kind: EntryKind; name: string; aliases: string[] }>> {
  return db.query(`SELECT entry_id, kind, name, aliases FROM screening_entries WHERE import_id = $1 ORDER BY entry_id`, [importId]);
}

/** Words and keys travel space-separated: a token is letters and digits only (normalise.ts). */
const joined = (values: readonly string[]) => values.join(' ');

export async function insertSearchWords(tx: Executor, importId: string, words: ReadonlyArray<{ kind: EntryKind; token: string; keys: readonly string[] }>): Promise<void> {
  if (words.length === 0) return;
  await tx.query(
    `INSERT INTO screening_search_words (import_id, kind, token, keys)
     SELECT $1, w.kind, w.token, string_to_array(w.keys, ' ') FROM unnest($2::text[], $3::text[], $4::text[]) AS w(kind, token, keys)`,
    [importId, words.map((w) => w.kind), words.map((w) => w.token), words.map((w) => joined(w.keys))],
  );
}

export async function insertSearchNames(
  tx: Executor,
  importId: string,
  names: ReadonlyArray<{ entryId: string; nameNo: number; kind: EntryKind; tokens: readonly string[]; repeats: readonly string[]; initials: number }>,
): Promise<void> {
  if (names.length === 0) return;
  await tx.query(
    `INSERT INTO screening_search_names (import_id, entry_id, name_no, kind, tokens, repeats, initials)
     SELECT $1, n.entry_id, n.name_no, n.kind, string_to_array(n.tokens, ' '), string_to_array(n.repeats, ' '), n.initials
       FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::int[]) AS n(entry_id, name_no, kind, tokens, repeats, initials)`,
    [
      importId,
      names.map((n) => n.entryId),
      names.map((n) => n.nameNo),
      names.map((n) => n.kind),
      names.map((n) => joined(n.tokens)),
      names.map((n) => joined(n.repeats)),
      names.map((n) => n.initials),
    ],
  );
}

/** The keys of the import are complete, by this scheme. */
export async function markSearchKeys(tx: Executor, importId: string, scheme: string, at: Date): Promise<void> {
  await tx.query(
    `INSERT INTO screening_search_key_sets (import_id, scheme, written_at) VALUES ($1, $2, $3)
     ON CONFLICT (import_id) DO UPDATE SET scheme = EXCLUDED.scheme, written_at = EXCLUDED.written_at`,
    [importId, scheme, at],
  );
}

/** Two processes writing one import's keys: the second waits, then finds them written. */
export async function lockSearchKeys(tx: Executor, importId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('pvs:screening-search-keys:' || $1))`, [importId]);
}

export async function deleteSearchKeys(tx: Executor, importId: string): Promise<void> {
  await tx.query(
    `WITH sets AS (DELETE FROM screening_search_key_sets WHERE import_id = $1),
          words AS (DELETE FROM screening_search_words WHERE import_id = $1)
     DELETE FROM screening_search_names WHERE import_id = $1`,
    [importId],
  );
}

/** Drops the keys of imports that are not in `version`: only the current version is searched without a server. */
export async function deleteSearchKeysOutside(tx: Executor, version: number): Promise<void> {
  await tx.query(
    `WITH gone AS (
       DELETE FROM screening_search_key_sets s
        WHERE NOT EXISTS (SELECT 1 FROM screening_version_lists v WHERE v.version = $1 AND v.import_id = s.import_id)
       RETURNING import_id),
     words AS (DELETE FROM screening_search_words WHERE import_id IN (SELECT import_id FROM gone))
     DELETE FROM screening_search_names WHERE import_id IN (SELECT import_id FROM gone)`,
    [version],
  );
}

/** import id → the scheme its keys were written by; an import without keys is absent. */
export async function searchKeySchemes(db: Executor, importIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ import_id: string; scheme: string }>(`SELECT import_id, scheme FROM screening_search_key_sets WHERE import_id = ANY($1::text[])`, [importIds]);
  return new Map(rows.map((r) => [r.import_id, r.scheme]));
}

/**
 * The stored words of `kind` that share a key with `keys`, each once with all its keys.
 *
 * Neither this nor `findCandidateEntries` asks for the imports of the version: the words' and names'
 * indexes are the only ones they can use, which keeps the planner off reading a whole import by a key
 * it believes rare. The tables hold the keys of the current version's imports (an import drops the
 * others), and at worst those of an import that just left it: its words reach only words the version's
 * own names hold too or none of theirs, and its names are left out when entries are joined to the version.
 */
export async function findSearchWords(db: Executor, kind: EntryKind, keys: readonly string[]): Promise<ReachedWord[]> {
  // The kind is told apart here, not by the database: a condition on it would tempt the planner into the primary key.
  const rows = await db.query<ReachedWord & { kind: EntryKind }>(`SELECT DISTINCT kind, token, keys FROM screening_search_words WHERE keys && $1::text[]`, [keys]);
  return rows.filter((r) => r.kind === kind).map(({ token, keys: wordKeys }) => ({ token, keys: wordKeys }));
}

/**
 * The entries of `version` with a name that passes any of the filters, in `entriesOfVersion`'s order:
 * found by the words it holds (`find`), then counted by the candidate rule of `buildIndex` (see
 * `CandidateFilter`). The index built from what this returns decides again, so passing more would only
 * cost time; passing less would miss a match, so the rule here changes with the index's
 * (test/screening/one-off-search.test.ts and search-filter.test.ts compare them).
 */
export async function findCandidateEntries(db: Executor, version: number, kind: EntryKind, filters: readonly CandidateFilter[]): Promise<IndexedEntry[]> {
  const params: unknown[] = [version, kind];
  const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
  // A group's words are both what finds a name and what its hits count: one parameter.
  const placed = new Map<string, string>();
  const wordsParam = (tokens: readonly string[]) => {
    const key = tokens.join(' ');
    return placed.get(key) ?? placed.set(key, param(tokens, 'text[]')).get(key)!;
  };
  const condition = (find: Finder): string =>
    'holds' in find
      ? `n.tokens && ${wordsParam(find.holds)}`
      : 'repeats' in find
        ? `n.repeats && ${wordsParam(find.repeats)}`
        : `(${('all' in find ? find.all : find.any).map(condition).join('all' in find ? ' AND ' : ' OR ')})`;
  const selects = filters.map((filter) => {
    const hits = filter.groups.map((g) =>
      // One word of a group counts once: the overlap says as much; more need counting, repeats included.
      g.size === 1
        ? `(n.tokens && ${wordsParam(g.tokens)})::int`
        : `LEAST(${param(g.size, 'int')}, (SELECT count(*) FROM unnest(n.tokens) AS t WHERE t = ANY(${wordsParam(g.tokens)}))::int)`,
    );
    return `SELECT DISTINCT n.import_id, n.entry_id FROM screening_search_names n
        WHERE ${condition(filter.find)} AND n.kind = $2
          AND ${hits.join(' + ')} >= GREATEST(1, LEAST(${param(filter.queryTokens, 'int')}, cardinality(n.tokens)) - ${param(filter.queryInitials, 'int')} - n.initials - ${param(filter.weakPairs, 'int')})`;
  });
  if (selects.length === 0) return [];
  const rows = await db.query<EntryRow>(
    `WITH candidates AS (${selects.join('\n UNION\n')})
     SELECT v.list, e.entry_id, e.kind, e.name, e.aliases, e.dates_of_birth, e.countries, e.identifiers, e.categories, e.source, e.content_hash
       FROM candidates c
       JOIN screening_entries e ON e.import_id = c.import_id AND e.entry_id = c.entry_id
       JOIN screening_version_lists v ON v.import_id = e.import_id AND v.version = $1
      ORDER BY v.list, e.entry_id`,
    params,
  );
  return rows.map(toIndexedEntry);
}
