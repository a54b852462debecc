// Child processes for the `cli` scenario: a command (`node -e 0`, `node <root>/bin/pvs.mjs …`) run to
// its end, or `pvs serve` started and stopped, each measured from the outside:
//
// - wall time: from just before spawn to the child's exit, in this process (performance.now());
// - peak RSS and CPU time: GNU time (`/usr/bin/time -f '%M %U %S' -o FILE`, apt package `time`), which
//   reads them from wait4()'s rusage of the command: the peak of the command's process (or of the largest
//   of its waited-for descendants, should bin/pvs.mjs start one). Without GNU time, commands run directly
//   and those figures are null (the scenario says so).
//
// Every child is started in a process group of its own (`detached`), so that one signal reaches GNU time
// and the node process under it: SIGINT stops `pvs serve` (GNU time ignores SIGINT while it waits),
// SIGKILL ends the whole group. Groups still running are killed on `killAll()`, and on this process's
// exit (the runner's Ctrl-C handler ends with process.exit), so a failed run leaves no server behind.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const gnuTime = '/usr/bin/time';

/** Whether /usr/bin/time is GNU time (it takes -f and -o). */
export function hasGnuTime(): boolean {
  if (!existsSync(gnuTime)) return false;
  const probe = spawnSync(gnuTime, ['-f', '%M', '-o', '/dev/null', 'true'], { stdio: 'ignore', timeout: 10_000 });
  return probe.status === 0;
}

export interface ChildRun {
  /** Spawn to exit, ms. */
  ms: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The last 64 KiB of stderr. */
  stderr: string;
  /** Peak RSS of the command, KiB (GNU time's %M); null without GNU time. */
  peakRssKiB: number | null;
  /** User + system CPU time of the command, ms (10-ms resolution); null without GNU time. */
  cpuMs: number | null;
  /** GNU time's own note, e.g. "Command terminated by signal 9". */
  timeNote?: string;
}

export interface Started {
  /** The process group (= GNU time's pid, or the command's without it). */
  pgid: number;
  /** performance.now() just before spawn. */
  startedAt: number;
  /** Resolves when the command has exited (never rejects). */
  exited: Promise<ChildRun>;
  hasExited(): boolean;
  /** Output so far (stdout then stderr, the last 8 KiB of each), for error messages. */
  output(): string;
  /** Sends `signal` to the whole group. */
  signal(signal: NodeJS.Signals): void;
}

export interface CliRunnerOptions {
  node: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where GNU time writes its figures (one file per run, removed after reading). */
  scratchDir: string;
  useGnuTime: boolean;
}

const maxStdout = 8 * 2 ** 20;
const maxStderr = 64 * 2 ** 10;

function keepTail(text: string, limit: number): string {
  return text.length > limit ? text.slice(text.length - limit) : text;
}

function parseTimeFile(file: string): { peakRssKiB: number | null; cpuMs: number | null; note?: string } {
  if (!existsSync(file)) return { peakRssKiB: null, cpuMs: null };
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  rmSync(file, { force: true });
  const last = lines.at(-1) ?? '';
  const match = /^(\d+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(last.trim());
  const note = lines.slice(0, -1).join(' ').trim() || undefined;
  if (!match) return { peakRssKiB: null, cpuMs: null, note: lines.join(' ') };
  return { peakRssKiB: Number(match[1]), cpuMs: Math.round((Number(match[2]) + Number(match[3])) * 1000), note };
}

export function createCliRunner(options: CliRunnerOptions) {
  const groups = new Set<number>();
  let runs = 0;

  const killGroup = (pgid: number, signal: NodeJS.Signals) => {
    // Never 0 or less: process.kill(-0) would signal this process's own group.
    if (!(pgid > 1)) return;
    try {
      process.kill(-pgid, signal);
    } catch {
      // Already gone.
    }
  };
  const killAll = () => {
    for (const pgid of groups) killGroup(pgid, 'SIGKILL');
    groups.clear();
  };
  process.on('exit', killAll);

  function start(args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}): Started {
    const timeFile = path.join(options.scratchDir, `time-${process.pid}-${++runs}.txt`);
    const command = options.useGnuTime ? gnuTime : options.node;
    const argv = options.useGnuTime ? ['-f', '%M %U %S', '-o', timeFile, options.node, ...args] : [...args];
    const startedAt = performance.now();
    const child: ChildProcess = spawn(command, argv, { cwd: options.cwd, env: { ...options.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    // No pid when the spawn failed (then 'error' and 'close' follow, and there is nothing to kill).
    const pgid = child.pid ?? 0;
    if (pgid > 0) groups.add(pgid);
    let stdout = '';
    let stderr = '';
    let exited = false;
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < maxStdout) stdout += chunk;
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = keepTail(stderr + chunk, maxStderr);
    });
    const done = new Promise<ChildRun>((resolve) => {
      let endedAt = 0;
      let code: number | null = null;
      let signal: NodeJS.Signals | null = null;
      // A failed spawn emits 'error' and then 'close'.
      child.once('error', (error) => {
        stderr += `\nspawn error: ${error.message}`;
        endedAt ||= performance.now();
      });
      child.once('exit', (c, s) => {
        endedAt = performance.now();
        code = c;
        signal = s;
      });
      // 'close' comes once stdout and stderr are drained as well.
      child.once('close', () => {
        exited = true;
        groups.delete(pgid);
        // The group may hold a process the command started and left behind.
        killGroup(pgid, 'SIGKILL');
        const time = parseTimeFile(timeFile);
        resolve({ ms: (endedAt || performance.now()) - startedAt, code, signal, stdout, stderr, peakRssKiB: time.peakRssKiB, cpuMs: time.cpuMs, timeNote: time.note });
      });
    });
    return {
      pgid,
      startedAt,
      exited: done,
      hasExited: () => exited,
      output: () => `${keepTail(stdout, 8192)}${stderr ? `\n[stderr] ${keepTail(stderr, 8192)}` : ''}`.trim(),
      signal: (s) => killGroup(pgid, s),
    };
  }

  /** Runs a command to its end; past `timeoutMs` the group is killed and the run is an error. */
  async function run(args: readonly string[], timeoutMs = 120_000, extraEnv: NodeJS.ProcessEnv = {}): Promise<ChildRun> {
    const started = start(args, extraEnv);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([started.exited, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      started.signal('SIGKILL');
      await started.exited;
      throw new Error(`${args.join(' ')}: no exit within ${timeoutMs / 1000} s (killed): ${started.output().slice(-2000)}`);
    }
    return outcome;
  }

  return {
    start,
    run,
    killAll,
    /** Kills what is left and stops watching for this process's exit. */
    dispose() {
      killAll();
      process.off('exit', killAll);
    },
  };
}

export type CliRunner = ReturnType<typeof createCliRunner>;

/** A loopback port nothing listens on now (the kernel's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** VmRSS and VmHWM of a process, KiB (null when it is gone or /proc is not there). */
export function procMemory(pid: number): { rssKiB: number; hwmKiB: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rssKiB: field('VmRSS'), hwmKiB: field('VmHWM') };
  } catch {
    return null;
  }
}

/** The process group a process belongs to (field 5 of /proc/<pid>/stat), or null. */
export function processGroupOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[2]);
  } catch {
    return null;
  }
}

/** The processes of a process group but its leader (GNU time, when it runs the command), from /proc. */
export function groupMembers(pgid: number): number[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
  } catch {
    return [];
  }
  return pids.filter((pid) => pid !== pgid && processGroupOf(pid) === pgid);
}
