// A search in a process that holds no index (the CLI without a server): instead of building the index of
// the whole current version (seconds, for one query), it reads the words the query's keys reach, then the
// entries with a name those words could make a candidate, and scores those with an index of them alone.
// The answer is the warm index's: the candidate rule only reads a name and the query (so a name is a
// candidate in any index that holds it), candidates are scored in the index's order, and the entries
// arrive in the order the full index holds them.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Executor } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import type { EntryKind, ListEntry } from './list-entry.ts';
import { buildIndex, type IndexedEntry, type Match, type ScreeningQuery } from './matching/screening-index.ts';
import { candidateFilters, planQuery } from './matching/search-filter.ts';
import { searchKeyScheme, searchNamesOf, wordKeys } from './matching/search-keys.ts';
import * as repo from './screening.repository.ts';

/** A one-off query: identifiers are not searched this way (the command has no option for them). */
export type OneOffQuery = Omit<ScreeningQuery, 'identifiers'>;

export interface OneOffAnswer {
  /** Null: no list is loaded. */
  version: number | null;
  matches: Match[];
  /** What was read: the query's stored words and candidate entries; `fallback` when the whole version was. */
  read: { words: number; entries: number; fallback: boolean };
}

/**
 * Writes an import's keys as its entries go in, inside the import's transaction: names per entry, each
 * word once per import. `finish` marks them complete.
 */
export function createSearchKeyWriter(tx: Executor, importId: string) {
  const seen = new Set<string>();
  return {
    async add(entries: ReadonlyArray<Pick<ListEntry, 'entryId' | 'kind' | 'name' | 'aliases'>>): Promise<void> {
      const names: Array<{ entryId: string; nameNo: number; kind: EntryKind; tokens: string[]; repeats: string[]; initials: number }> = [];
      const words: Array<{ kind: EntryKind; token: string; keys: string[] }> = [];
      for (const entry of entries) {
        searchNamesOf(entry).forEach((name, nameNo) => {
          names.push({ entryId: entry.entryId, nameNo, kind: entry.kind, ...name });
          for (const token of name.tokens.map(wordOf)) {
            if (seen.has(`${entry.kind} ${token}`)) continue;
            seen.add(`${entry.kind} ${token}`);
            const keys = wordKeys(token);
            // Initials have no keys: no query reaches a name through them.
            if (keys.length > 0) words.push({ kind: entry.kind, token, keys });
          }
        });
      }
      await repo.insertSearchNames(tx, importId, names);
      await repo.insertSearchWords(tx, importId, words);
    },
    finish: (at: Date) => repo.markSearchKeys(tx, importId, searchKeyScheme(), at),
  };
}

/** `karlov/3` → `karlov`. */
const wordOf = (shaped: string) => shaped.slice(0, shaped.lastIndexOf('/'));

const backfillBatch = 1000;

/**
 * Writes the keys of an import that has none, or keys of another scheme (an import made before they
 * existed, or by older code), in one transaction. Whoever comes second finds them written.
 */
export async function writeSearchKeys(db: Database, clock: Clock, importId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await repo.lockSearchKeys(tx, importId);
    if ((await repo.searchKeySchemes(tx, [importId])).get(importId) === searchKeyScheme()) return;
    await repo.deleteSearchKeys(tx, importId);
    const writer = createSearchKeyWriter(tx, importId);
    const entries = (await repo.entryNamesOfImport(tx, importId)).map((r) => ({ entryId: r.entry_id, kind: r.kind, name: r.name, aliases: r.aliases }));
    for (let i = 0; i < entries.length; i += backfillBatch) await writer.add(entries.slice(i, i + backfillBatch));
    await writer.finish(clock.now());
  });
}

type Read = { version: null } | { version: number; missing: string[] } | { version: number; missing: []; candidates: IndexedEntry[]; words: number };

/** One consistent read of the current version and the query's candidates: an import committing meanwhile is not half seen. */
async function readCandidates(db: Database, query: OneOffQuery, threshold: number): Promise<Read> {
  return db.transaction(async (tx): Promise<Read> => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    // Words and names are to be found through their keys' indexes, and the planner, which costs an array
    // overlap as cheap and a tree of them as dear, would rather read every stored name in turn, by the
    // table or by its primary key (10–100× slower here). Nothing this transaction reads wants either.
    await tx.query('SET LOCAL enable_seqscan = off');
    await tx.query('SET LOCAL enable_indexscan = off');
    const version = await repo.findCurrentVersion(tx);
    if (version === null) return { version: null };
    const importIds = (await repo.listsOfVersion(tx, version)).map((l) => l.id);
    const schemes = await repo.searchKeySchemes(tx, importIds);
    const missing = importIds.filter((id) => schemes.get(id) !== searchKeyScheme());
    if (missing.length > 0) return { version, missing };

    const plan = planQuery(query, threshold);
    const words = plan.keys.length === 0 ? [] : await repo.findSearchWords(tx, query.kind, plan.keys);
    const candidates = words.length === 0 ? [] : await repo.findCandidateEntries(tx, version, query.kind, candidateFilters(plan, words));
    return { version, missing: [], candidates, words: words.length };
  });
}

/**
 * The current version searched as the warm index would search it. Keys missing for an import in force
 * are written first; if they cannot be, the whole version is read and indexed, as the server would.
 * Throws when the database cannot be read.
 */
export async function searchOnce(deps: { db: Database; clock: Clock; logger: Logger }, query: OneOffQuery, threshold: number): Promise<OneOffAnswer> {
  let read = await readCandidates(deps.db, query, threshold);
  if (read.version !== null && !('candidates' in read)) {
    try {
      for (const importId of read.missing) await writeSearchKeys(deps.db, deps.clock, importId);
      deps.logger.info({ version: read.version, imports: read.missing }, 'screening search keys written');
      read = await readCandidates(deps.db, query, threshold);
    } catch (error) {
      deps.logger.warn({ err: error, version: read.version }, 'screening search keys could not be written; reading the whole version');
    }
  }
  if (read.version === null) return { version: null, matches: [], read: { words: 0, entries: 0, fallback: false } };
  if ('candidates' in read) {
    return { version: read.version, matches: buildIndex(read.candidates).search(query, threshold), read: { words: read.words, entries: read.candidates.length, fallback: false } };
  }
  // Still missing: they could not be written, or the version moved on meanwhile.
  const entries = await repo.entriesOfVersion(deps.db, read.version);
  return { version: read.version, matches: buildIndex(entries).search(query, threshold), read: { words: 0, entries: entries.length, fallback: true } };
}
