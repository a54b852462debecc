// Settings an operator changes while PVS runs, such as the evidence kill switch. A row in runtime_settings
// wins over the environment; without one, the value the process started with (config) holds. Every use
// reads the row (one primary-key read), so a change holds on every node at once, with no restart and no
// cache to expire. Only the settings named here exist: a typo is refused, never stored.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Executor } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../platform/errors.ts';

export const runtimeSettingNames = ['EVIDENCE_DETAIL_ENABLED'] as const;
export type RuntimeSettingName = (typeof runtimeSettingNames)[number];

const descriptions: Record<RuntimeSettingName, string> = {
  EVIDENCE_DETAIL_ENABLED:
    'Whether the evidence endpoints (document-details, aml-matches) fetch and answer evidence; false answers UPSTREAM_UNAVAILABLE on both at once.',
};

export interface RuntimeSetting {
  name: RuntimeSettingName;
  value: boolean;
  /** RUNTIME: an operator set it; ENVIRONMENT: the value the process started with. */
  source: 'RUNTIME' | 'ENVIRONMENT';
  description: string;
  environmentValue: boolean;
  changedBy: string | null;
  changedAt: string | null;
}

interface Row {
  name: string;
  value: string;
  changed_by: string;
  changed_at: Date;
}

export function isRuntimeSettingName(name: string): name is RuntimeSettingName {
  return (runtimeSettingNames as readonly string[]).includes(name);
}

export function createRuntimeSettings(deps: { db: Executor; clock: Clock; config: Pick<Config, RuntimeSettingName> }) {
  const { db, clock, config } = deps;

  function nameOf(name: string): RuntimeSettingName {
    if (!isRuntimeSettingName(name)) throw notFound(`Runtime setting ${name} (known: ${runtimeSettingNames.join(', ')})`);
    return name;
  }

  function present(name: RuntimeSettingName, row: Row | undefined): RuntimeSetting {
    const environmentValue = config[name];
    return {
      name,
      value: row ? row.value === 'true' : environmentValue,
      source: row ? 'RUNTIME' : 'ENVIRONMENT',
      description: descriptions[name],
      environmentValue,
      changedBy: row?.changed_by ?? null,
      changedAt: row?.changed_at.toISOString() ?? null,
    };
  }

  async function read(name: RuntimeSettingName): Promise<RuntimeSetting> {
    const [row] = await db.query<Row>('SELECT name, value, changed_by, changed_at FROM runtime_settings WHERE name = $1', [name]);
    return present(name, row);
  }

  return {
    /** The kill switch of the evidence endpoints, as it is now. */
    async evidenceDetailEnabled(): Promise<boolean> {
      return (await read('EVIDENCE_DETAIL_ENABLED')).value;
    },

    async list(): Promise<RuntimeSetting[]> {
      const rows = await db.query<Row>('SELECT name, value, changed_by, changed_at FROM runtime_settings');
      return runtimeSettingNames.map((name) => present(name, rows.find((r) => r.name === name)));
    },

    get: (name: string) => read(nameOf(name)),

    /** Sets a value that wins over the environment until reset. `changedBy`: an operator id, or `cli`. */
    async set(name: string, value: unknown, changedBy: string): Promise<RuntimeSetting> {
      const known = nameOf(name);
      if (typeof value !== 'boolean') throw new AppError('VALIDATION_ERROR', `${known} is true or false`, { pointer: '/value' });
      await db.query(
        `INSERT INTO runtime_settings (name, value, changed_by, changed_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
        [known, String(value), changedBy, clock.now()],
      );
      return read(known);
    },

    /** Drops the operator's value: the environment's holds again. */
    async reset(name: string): Promise<RuntimeSetting> {
      const known = nameOf(name);
      await db.query('DELETE FROM runtime_settings WHERE name = $1', [known]);
      return read(known);
    },
  };
}

export type RuntimeSettings = ReturnType<typeof createRuntimeSettings>;
