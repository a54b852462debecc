// The file a serving PVS leaves in DATA_DIR (server.json) so that `pvs` commands on the same machine can
// find it: its pid and the loopback URL of its admin endpoint. Removed at a clean shutdown; a server that
// died leaves it behind, which is why readers check that the pid is alive.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '../platform/db/lock-file.ts';

export interface ServerInfo {
  pid: number;
  adminUrl: string;
}

export function serverInfoPath(dataDir: string): string {
  return path.join(dataDir, 'server.json');
}

export function writeServerInfo(dataDir: string, info: ServerInfo): void {
  writeFileSync(serverInfoPath(dataDir), JSON.stringify(info), { mode: 0o600 });
}

/** The server serving DATA_DIR, if its file is there and its process is alive. */
export function readServerInfo(dataDir: string): ServerInfo | undefined {
  const file = serverInfoPath(dataDir);
  if (!existsSync(file)) return undefined;
  let info: ServerInfo;
  try {
    info = JSON.parse(readFileSync(file, 'utf8')) as ServerInfo;
  } catch {
    // Being written at this instant, or damaged: as if absent.
    return undefined;
  }
  return isProcessAlive(info.pid) ? info : undefined;
}
