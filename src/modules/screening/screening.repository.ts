// Every SQL statement about screening lists, their imports and versions.
import type { Executor } from '../../platform/db/database.ts';
import type { EntryKind, ScreeningCategory } from './list-entry.ts';
import type { IndexedEntry } from './matching/screening-index.ts';

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
  return rows.map((r) => ({
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
  }));
}

/** `list|entryId` → content hash, for telling what a later version added or changed. */
export async function entryHashesOfVersion(db: Executor, version: number): Promise<Map<string, string>> {
  const rows = await db.query<{ list: string; entry_id: string; content_hash: string }>(
    `SELECT v.list, e.entry_id, e.content_hash FROM screening_version_lists v JOIN screening_entries e ON e.import_id = v.import_id WHERE v.version = $1`,
    [version],
  );
  return new Map(rows.map((r) => [`${r.list}|${r.entry_id}`, r.content_hash]));
}
