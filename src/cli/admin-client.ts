// Runs an admin command wherever it can run safely: in this process when the database is PostgreSQL
// or the embedded database is free, else inside the running server through its loopback endpoint.
import { existsSync, readFileSync } from 'node:fs';
import { Agent, fetch } from 'undici';
import { checkAdminInput } from '../admin/admin-input.ts';
import { adminToken } from '../admin/admin-token.ts';
import { adminCommands } from '../admin/commands.ts';
import type { Config } from '../config.ts';
import { createLogger } from '../platform/logger.ts';
import { migrate } from '../platform/db/migrate.ts';
import { createServices, DataDirBusyError, openDatabase } from '../services.ts';
import { serverInfoPath } from './serve.ts';

export async function runAdminCommand(config: Config, name: string, input: Record<string, unknown>): Promise<unknown> {
  const command = adminCommands[name];
  if (!command) throw new Error(`Unknown admin command ${name}`);
  // Checked here as the admin endpoint checks it, so a bad option reads the same wherever the command
  // runs, and is refused before a database is opened or a server is called.
  const problem = checkAdminInput(command, input);
  if (problem) throw new Error(problem.message);
  try {
    // createServices migrates as it opens, which would leave `migrate` nothing to report: it opens the database itself.
    if (name === 'migrate') return await migrateLocally(config);
    const services = await createServices(config, { logger: createLogger({ level: 'warn', destination: process.stderr as never }) });
    try {
      return await command.run(services, input as never);
    } finally {
      await services.close();
    }
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    return runRemotely(config, name, input, error.holderPid);
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

async function runRemotely(config: Config, name: string, input: Record<string, unknown>, holderPid: number): Promise<unknown> {
  const file = serverInfoPath(config);
  // The server writes server.json once it listens; give a starting server a moment.
  for (let i = 0; i < 50 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 200));
  if (!existsSync(file)) throw new Error(`PVS process ${holderPid} holds ${config.DATA_DIR} but is not serving HTTP; stop it and try again`);
  const info = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; adminUrl: string };
  const response = await fetch(`${info.adminUrl}/admin/v1/commands/${name}`, {
    method: 'POST',
    // A large list import takes minutes; the default five-minute header timeout would cut it off.
    dispatcher: new Agent({ headersTimeout: 0, bodyTimeout: 0 }),
    headers: { authorization: `Bearer ${adminToken(config.SECRET_KEY)}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`The running server refused the command: ${String(body.detail ?? response.status)}`);
  return body;
}
