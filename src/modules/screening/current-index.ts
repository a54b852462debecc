// The index of the current list version, held in this process's memory. Every node checks the database
// for a newer version at most every `refreshSeconds` and rebuilds when there is one, so an import on any
// node reaches all of them within that time; the node that imported rebuilds at once.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import { buildIndex, type ScreeningIndex } from './matching/screening-index.ts';
import * as repo from './screening.repository.ts';

export interface LoadedIndex {
  version: number;
  index: ScreeningIndex;
}

export interface CurrentIndex {
  /** The index of the current version; null when no list has been imported. Throws when it cannot be loaded. */
  get(): Promise<LoadedIndex | null>;
  /** The next `get` checks the database (after an import in this process). */
  invalidate(): void;
}

export function createCurrentIndex(deps: { db: Database; clock: Clock; logger: Logger; refreshSeconds: number }): CurrentIndex {
  let loaded: LoadedIndex | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let refreshing: Promise<void> | undefined;

  async function refresh(): Promise<void> {
    try {
      const version = await repo.findCurrentVersion(deps.db);
      if (version !== null && version !== loaded?.version) {
        const started = performance.now();
        const entries = await repo.entriesOfVersion(deps.db, version);
        loaded = { version, index: buildIndex(entries) };
        deps.logger.info({ version, entries: entries.length, ms: Math.round(performance.now() - started) }, 'screening index loaded');
      }
      if (version === null) loaded = null;
      checkedAt = deps.clock.now().getTime();
    } catch (error) {
      // A node that already holds a version keeps screening with it; one that holds none cannot screen.
      if (!loaded) throw error;
      deps.logger.warn({ err: error, version: loaded.version }, 'screening index refresh failed; still using the loaded version');
      checkedAt = deps.clock.now().getTime();
    }
  }

  return {
    async get() {
      if (deps.clock.now().getTime() - checkedAt >= deps.refreshSeconds * 1000) {
        refreshing ??= refresh().finally(() => (refreshing = undefined));
        await refreshing;
      }
      return loaded;
    },
    invalidate() {
      checkedAt = Number.NEGATIVE_INFINITY;
    },
  };
}
