// The system module's wiring: liveness and readiness (/health, /ready).
import type { GuardedDatabase } from '../../platform/db/availability.ts';
import { isMigrated } from '../../platform/db/migrate.ts';
import type { Module } from '../../platform/module.ts';
import { registerSystemRoutes } from './system.routes.ts';

export interface SystemModuleDeps {
  /** Behind the availability guard, which knows whether the database answers. */
  db: GuardedDatabase;
}

export function createSystemModule(deps: SystemModuleDeps): Module<{ isReady(): Promise<boolean> }> {
  const { db } = deps;
  // Ready: the database answers (its availability guard says so) and every migration is applied.
  const isReady = async () => db.availability.available && (await isMigrated(db));
  return { services: { isReady }, jobs: [], routes: { public: (app) => registerSystemRoutes(app, { isReady }) } };
}
