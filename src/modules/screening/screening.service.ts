// The screening engine every capability calls: lookups screen owners, verifications screen individuals,
// monitoring re-screens contacts when a new list version arrives.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import { createCurrentIndex, type LoadedIndex } from './current-index.ts';
import { createListImporter, type ImportRequest, type ImportResult } from './list-import.ts';
import type { EntryKind, ScreeningCategory } from './list-entry.ts';
import { namesABusiness } from './matching/normalise.ts';
import { buildIndex, type Match, type ScreeningIndex, type ScreeningQuery } from './matching/screening-index.ts';
import { searchOnce, type OneOffQuery } from './one-off-search.ts';
import * as repo from './screening.repository.ts';

export type ScreeningOutcome = 'CLEAR' | 'POSSIBLE_MATCH' | 'UNAVAILABLE';

export interface ScreeningResult {
  outcome: ScreeningOutcome;
  /** The list version screened against; null when none could be. */
  listVersion: number | null;
  /** Best first. Empty unless POSSIBLE_MATCH. */
  matches: Match[];
}

export interface PersonSubject {
  /** The legal name first, then any other names the person is known by. */
  names: string[];
  dateOfBirth?: string;
  countries?: string[];
}

export interface BusinessSubject {
  name: string;
  identifiers?: string[];
  countries?: string[];
}

/** A subject of kind `any` (a name PVS cannot tell is a person's or a business's) is screened as both. */
export type RescreenSubject = { subjectId: string } & (
  | { kind: 'person'; person: PersonSubject }
  | { kind: 'business'; business: BusinessSubject }
  | { kind: 'any'; person: PersonSubject; business: BusinessSubject }
);

export interface RescreenResult {
  subjectId: string;
  listVersion: number;
  /** Only matches on entries that the earlier version did not hold in this form. */
  matches: Match[];
}

export interface SearchInput {
  name: string;
  kind?: EntryKind;
  dateOfBirth?: string;
  country?: string;
}

/** What `pvs screening search --json` prints (CONTRACT §11). */
export interface SearchOutput {
  outcome: ScreeningOutcome;
  listVersion: number | null;
  matches: Array<{ entryId: string; list: string; name: string; matchedName: string; score: number; categories: ScreeningCategory[]; features: Match['features'] }>;
}

export interface ListStatus {
  version: number | null;
  lists: Array<{ list: string; format: string; fileName: string; entries: number; importedAt: string }>;
}

export type ScreeningService = ReturnType<typeof createScreeningService>;

const personQuery = (p: PersonSubject): ScreeningQuery => ({ kind: 'person', names: p.names, dateOfBirth: p.dateOfBirth, countries: p.countries });
const businessQuery = (b: BusinessSubject): ScreeningQuery => ({ kind: 'business', names: [b.name], identifiers: b.identifiers, countries: b.countries });

/**
 * The queries a subject is screened with: a person's, a business's, or both. A subject of unknown kind
 * whose name says it is a business's (a legal form, an entity word, an ampersand) is not one person, so
 * it meets business entries only: "Williams & Smith Cafe Pty Ltd" is not William Smith (decision 127).
 */
function queriesOf(subject: RescreenSubject): ScreeningQuery[] {
  if (subject.kind === 'person') return [personQuery(subject.person)];
  if (subject.kind === 'business' || namesABusiness(subject.business.name)) return [businessQuery(subject.business)];
  return [personQuery(subject.person), businessQuery(subject.business)];
}

/**
 * A subject's matches in an index: person entries by the person rules and business entries by the
 * business rules (a query reaches only entries of its kind), an entry met twice counted once at its best
 * score, best first. This is OpenSanctions' `LegalEntity`: compared with people and organisations alike.
 */
function searchSubject(index: ScreeningIndex, subject: RescreenSubject, threshold: number): Match[] {
  const queries = queriesOf(subject);
  if (queries.length === 1) return index.search(queries[0]!, threshold);
  const best = new Map<string, Match>();
  for (const match of queries.flatMap((q) => index.search(q, threshold))) {
    const key = `${match.entry.list}|${match.entry.entryId}`;
    const seen = best.get(key);
    if (!seen || match.score > seen.score) best.set(key, match);
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

function searchQuery(input: SearchInput): OneOffQuery {
  const countries = input.country ? [input.country] : undefined;
  return input.kind === 'business' ? businessQuery({ name: input.name, countries }) : personQuery({ names: [input.name], dateOfBirth: input.dateOfBirth, countries });
}

function searchOutput(result: ScreeningResult): SearchOutput {
  return {
    outcome: result.outcome,
    listVersion: result.listVersion,
    matches: result.matches.map((m) => ({
      entryId: m.entry.entryId,
      list: m.entry.list,
      name: m.entry.name,
      matchedName: m.matchedName,
      score: m.score,
      categories: m.entry.categories,
      features: m.features,
    })),
  };
}

export function createScreeningService(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  threshold: number;
  refreshSeconds: number;
  /** Runs inside the transaction that makes a new version (monitoring enqueues its re-screen there). */
  onVersionCreated?: (tx: Tx, version: number) => Promise<void>;
}) {
  const current = createCurrentIndex(deps);
  const importList = createListImporter({ db: deps.db, clock: deps.clock, onImported: () => current.invalidate(), onVersionCreated: deps.onVersionCreated });

  async function screen(query: ScreeningQuery): Promise<ScreeningResult> {
    let loaded;
    try {
      loaded = await current.get();
    } catch (error) {
      deps.logger.error({ err: error }, 'screening index could not be loaded');
      return { outcome: 'UNAVAILABLE', listVersion: null, matches: [] };
    }
    // No list loaded is not "no match": nothing was screened.
    if (!loaded) return { outcome: 'UNAVAILABLE', listVersion: null, matches: [] };
    const matches = loaded.index.search(query, deps.threshold);
    return { outcome: matches.length > 0 ? 'POSSIBLE_MATCH' : 'CLEAR', listVersion: loaded.version, matches };
  }

  return {
    importList: (request: ImportRequest): Promise<ImportResult> => importList(request),

    screenPerson: (subject: PersonSubject) => screen(personQuery(subject)),

    screenBusiness: (subject: BusinessSubject) => screen(businessQuery(subject)),

    /**
     * Screens every subject against the current version and yields those with matches on entries that
     * are new or changed since `sinceVersion` (by default the version before the current one). An entry
     * carried over unchanged scored the same before, so what it matched was already reported.
     */
    async *rescreenAll(subjects: Iterable<RescreenSubject> | AsyncIterable<RescreenSubject>, options: { sinceVersion?: number } = {}): AsyncGenerator<RescreenResult> {
      const loaded = await current.get();
      if (!loaded) return;
      const since = options.sinceVersion ?? loaded.version - 1;
      const earlier = since >= 1 ? await repo.entryHashesOfVersion(deps.db, since) : new Map<string, string>();
      for await (const subject of subjects) {
        const matches = searchSubject(loaded.index, subject, deps.threshold).filter((m) => earlier.get(`${m.entry.list}|${m.entry.entryId}`) !== m.entry.contentHash);
        if (matches.length > 0) yield { subjectId: subject.subjectId, listVersion: loaded.version, matches };
      }
    },

    /** The current version's index, checked against the database now: a job must not screen an older one. */
    async freshIndex(): Promise<LoadedIndex | null> {
      current.invalidate();
      return current.get();
    },

    /** An index of the entries of `loaded` that version `since` did not hold in this form (new or changed). */
    async changesSince(loaded: LoadedIndex, since: number): Promise<ScreeningIndex> {
      const earlier = await repo.entryHashesOfVersion(deps.db, since);
      return buildIndex(loaded.index.entries.filter((e) => earlier.get(`${e.list}|${e.entryId}`) !== e.contentHash));
    },

    /** One subject against a given index, at the configured threshold. */
    searchIn(index: ScreeningIndex, subject: RescreenSubject): Match[] {
      return searchSubject(index, subject, deps.threshold);
    },

    /** `pvs screening search` on this node's index. */
    async search(input: SearchInput): Promise<SearchOutput> {
      return searchOutput(await screen(searchQuery(input)));
    },

    /**
     * `search` in a process with no index to reuse (the CLI without a server): reads only the entries the
     * query can match from the database, and answers exactly what `search` answers (one-off-search.ts).
     * Never builds this node's index.
     */
    async searchOnce(input: SearchInput): Promise<SearchOutput> {
      let answer;
      try {
        answer = await searchOnce(deps, searchQuery(input), deps.threshold);
      } catch (error) {
        deps.logger.error({ err: error }, 'screening list could not be read');
        return { outcome: 'UNAVAILABLE', listVersion: null, matches: [] };
      }
      if (answer.version === null) return { outcome: 'UNAVAILABLE', listVersion: null, matches: [] };
      return searchOutput({ outcome: answer.matches.length > 0 ? 'POSSIBLE_MATCH' : 'CLEAR', listVersion: answer.version, matches: answer.matches });
    },

    /** The newest list version in the database (null: none): one small query, no index loaded (metrics). */
    listVersion: () => repo.findCurrentVersion(deps.db),

    /** The version this node screens against now (null: none, or unreadable); cheap once the index is loaded. */
    async currentVersion(): Promise<number | null> {
      try {
        return (await current.get())?.version ?? null;
      } catch {
        return null;
      }
    },

    async status(): Promise<ListStatus> {
      const version = await repo.findCurrentVersion(deps.db);
      const lists = version === null ? [] : await repo.listsOfVersion(deps.db, version);
      return {
        version,
        lists: lists.map((l) => ({ list: l.list, format: l.format, fileName: l.file_name, entries: l.entry_count, importedAt: l.imported_at.toISOString() })),
      };
    },
  };
}
