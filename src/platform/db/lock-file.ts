// PGlite allows one process per data directory. Whoever opens it holds `pglite.lock` (our pid);
// a second process finds the lock held by a live pid and must talk to that process instead
// (the admin endpoint), never open the files itself.
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface DataDirLock {
  release(): void;
}

export type LockResult = { ok: true; lock: DataDirLock } | { ok: false; holderPid: number };

/** Whether a process with this pid is alive (EPERM: alive, another user's). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function tryLockDataDir(dataDir: string): LockResult {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
      process.once('exit', release);
      return { ok: true, lock: { release } };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holderPid = Number(readFileSync(file, 'utf8'));
      if (holderPid === process.pid) throw new Error('This process already holds the data directory lock');
      if (Number.isInteger(holderPid) && holderPid > 0 && isProcessAlive(holderPid)) return { ok: false, holderPid };
      // The holder died without releasing it (a crash): the lock is stale.
      try {
        unlinkSync(file);
      } catch {
        // Someone else removed it first; try again.
      }
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
