// BENCH_PROFILE=1: a V8 CPU profile of this process (the servers and the database driver; PGlite's
// WebAssembly too) around each measured slice, written where Chrome DevTools and
// bench/tools/profile-summary.ts can read it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { resultsDir } from './report.ts';

// Named latest-* like latest.json: per-run output, ignored by git (baseline.json is the file to keep).
export const profilesDir = path.join(resultsDir, 'latest-profiles');

export interface Profiler {
  around<T>(name: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function startProfiler(): Promise<Profiler> {
  mkdirSync(profilesDir, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  return {
    async around(name, fn) {
      await session.post('Profiler.start');
      try {
        return await fn();
      } finally {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(path.join(profilesDir, `${name}.cpuprofile`), JSON.stringify(profile));
      }
    },
    async close() {
      await session.post('Profiler.disable');
      session.disconnect();
    },
  };
}

export const noProfiler: Profiler = { around: (_name, fn) => fn(), close: async () => {} };
