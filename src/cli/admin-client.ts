// Runs an admin command where it is cheapest and safe: inside the server serving DATA_DIR when there is
// one (through its loopback admin endpoint: a warm screening index, and no second process opening the
// embedded database, which PGlite allows only once), else in this process. This file loads no service
// code: a command answered by the server pays only for the request.
import { request } from 'node:http';
import { checkAdminInput } from '../admin/admin-input.ts';
import { adminToken } from '../admin/admin-token.ts';
import { adminCommands } from '../admin/commands.ts';
import type { Config } from '../config.ts';
import { readServerInfo, type ServerInfo } from './server-info.ts';

export async function runAdminCommand(config: Config, name: string, input: Record<string, unknown>): Promise<unknown> {
  const command = adminCommands[name];
  if (!command) throw new Error(`Unknown admin command ${name}`);
  // Checked here as the admin endpoint checks it, so a bad option reads the same wherever the command
  // runs, and is refused before a database is opened or a server is called.
  const problem = checkAdminInput(command, input);
  if (problem) throw new Error(problem.message);
  // `migrate` reports what it applied: a server has applied everything at its start, so it runs here
  // (and asks the server only when the server holds the embedded database).
  const server = name === 'migrate' ? undefined : readServerInfo(config.DATA_DIR);
  if (server) {
    const answer = await runRemotely(config, server, name, input);
    if (answer !== unreachable) return answer;
  }
  const local = await import('./local-command.ts');
  try {
    return await local.runLocally(config, command, input);
  } catch (error) {
    if (!(error instanceof local.DataDirBusyError)) throw error;
    return runRemotely(config, await waitForServer(config, error.holderPid), name, input, { required: true });
  }
}

/** The embedded database is held by a PVS that is still starting: it writes server.json once it listens. */
async function waitForServer(config: Config, holderPid: number): Promise<ServerInfo> {
  for (let i = 0; i < 50; i++) {
    const info = readServerInfo(config.DATA_DIR);
    if (info) return info;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`PVS process ${holderPid} holds ${config.DATA_DIR} but is not serving HTTP; stop it and try again`);
}

const unreachable = Symbol('unreachable');

/**
 * POSTs the command to the server's admin endpoint. A server that refuses the connection (it stopped
 * since it wrote server.json, or the pid now belongs to another process) is `unreachable`, and the
 * command runs here instead, unless the server is `required` (it holds the embedded database).
 */
function runRemotely(config: Config, server: ServerInfo, name: string, input: Record<string, unknown>, options: { required?: boolean } = {}): Promise<unknown> {
  const body = JSON.stringify(input);
  return new Promise((resolve, reject) => {
    // No timeout: a large list import takes minutes, and the server is on this machine.
    const req = request(
      `${server.adminUrl}/admin/v1/commands/${name}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken(config.SECRET_KEY)}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          let answer: Record<string, unknown>;
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
          } catch {
            return reject(new Error(`The running server (pid ${server.pid}) answered ${res.statusCode} with no JSON`));
          }
          const ok = res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300;
          if (ok) resolve(answer);
          else reject(new Error(`The running server refused the command: ${String(answer.detail ?? res.statusCode)}`));
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && !options.required) resolve(unreachable);
      else reject(new Error(`Could not reach the running server (pid ${server.pid}) at ${server.adminUrl}: ${error.message}`));
    });
    req.end(body);
  });
}
