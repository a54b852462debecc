// Which child processes this test process has, from Linux's /proc: to check that a deadline leaves none.
import { readdirSync, readFileSync } from 'node:fs';

/** The pids of this process's children (every thread's), sorted. */
export function childPids(): number[] {
  const tasks = readdirSync(`/proc/${process.pid}/task`);
  const pids = tasks.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return [...new Set(pids)].sort((a, b) => a - b);
}

/** True while a process with this pid exists (a zombie not yet reaped counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}
