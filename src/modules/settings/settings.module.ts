// The settings module's wiring: the settings operators change while PVS runs, and their /ops/v1 routes.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Module } from '../../platform/module.ts';
import { createRuntimeSettings, type RuntimeSettingName, type RuntimeSettings } from './runtime-settings.ts';
import { registerSettingsRoutes } from './settings.routes.ts';

export interface SettingsModuleDeps {
  db: Database;
  clock: Clock;
  /** The defaults, until an operator changes them. */
  config: Pick<Config, RuntimeSettingName>;
}

export function createSettingsModule(deps: SettingsModuleDeps): Module<{ settings: RuntimeSettings }> {
  const settings = createRuntimeSettings({ db: deps.db, clock: deps.clock, config: deps.config });
  return { services: { settings }, jobs: [], routes: { ops: (api) => registerSettingsRoutes(api, { settings }) } };
}
