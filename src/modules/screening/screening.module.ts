// The screening module's wiring: the sanctions and PEP lists and the matcher every capability screens
// with (see README.md). No routes or jobs of its own; lists are imported by admin commands.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import { createScreeningService, type ScreeningService } from './screening.service.ts';

export interface ScreeningModuleDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'SCREENING_MATCH_THRESHOLD' | 'SCREENING_REFRESH_SECONDS'>;
  /** Runs inside the transaction that makes a new list version (monitoring enqueues its re-screen there). */
  onVersionCreated?(tx: Tx, version: number): Promise<void>;
}

export function createScreeningModule(deps: ScreeningModuleDeps): Module<{ screening: ScreeningService }> {
  const screening = createScreeningService({
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger.child({ module: 'screening' }),
    threshold: deps.config.SCREENING_MATCH_THRESHOLD,
    refreshSeconds: deps.config.SCREENING_REFRESH_SECONDS,
    onVersionCreated: deps.onVersionCreated,
  });
  return { services: { screening }, jobs: [], routes: {} };
}
