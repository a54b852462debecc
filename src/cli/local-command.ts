// An admin command run in the CLI's own process: the services opened for it, and closed after. Loaded
// only when no server serves DATA_DIR, so that a command answered by the server never loads them.
import type { AdminCommand } from '../admin/commands.ts';
import type { Config } from '../config.ts';
import { migrate } from '../platform/db/migrate.ts';
import { createLogger } from '../platform/logger.ts';
import { createServices, DataDirBusyError, openDatabase } from '../services.ts';

export { DataDirBusyError };

export async function runLocally(config: Config, command: AdminCommand, input: Record<string, unknown>): Promise<unknown> {
  // createServices migrates as it opens, which would leave `migrate` nothing to report: it opens the database itself.
  if (command.name === 'migrate') return migrateLocally(config);
  const services = await createServices(config, { logger: createLogger({ level: 'warn', destination: process.stderr as never }) });
  try {
    // A command with nothing warm to reuse here (a one-off screening search) may do less than the server would.
    return await (command.runLocally ?? command.run)(services, input as never);
  } finally {
    await services.close();
  }
}

async function migrateLocally(config: Config): Promise<{ applied: string[] }> {
  const { db, lock } = await openDatabase(config);
  try {
    return { applied: (await migrate(db)).applied };
  } finally {
    await db.close();
    lock?.release();
  }
}
