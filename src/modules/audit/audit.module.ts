// The audit module's wiring: the log of what people did in the portal and the console. No routes or jobs
// of its own; the console reads it.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Module } from '../../platform/module.ts';
import { createAuditService, type AuditService } from './audit.service.ts';

export interface AuditModuleDeps {
  db: Database;
  clock: Clock;
}

export function createAuditModule(deps: AuditModuleDeps): Module<{ audit: AuditService }> {
  return { services: { audit: createAuditService({ db: deps.db, clock: deps.clock }) }, jobs: [], routes: {} };
}
