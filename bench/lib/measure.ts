// Small measuring tools the measured scenarios share: timing a call with this process's CPU, turning
// timings into the runner's RawRun, rounding, medians and the load average printed beside the figures.
import os from 'node:os';
import type { RawRun } from './load.ts';

export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The 1-, 5- and 15-minute load averages, to two places: how busy the machine was around a figure. */
export const loadAverage = () => os.loadavg().map((n) => Math.round(n * 100) / 100);

export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Timed<T> {
  ms: number;
  /** User + system CPU of this process meanwhile, µs. */
  cpuUs: number;
  value: T;
}

export async function timed<T>(fn: () => Promise<T>): Promise<Timed<T>> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await fn();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpuUs: used.user + used.system, value };
}

/** One measured side from per-operation times (ms) and the CPU they took: count, seconds and latencies. */
export function rawRun(latencies: number[], cpuUs: number): RawRun {
  const seconds = latencies.reduce((a, b) => a + b, 0) / 1000;
  return { count: latencies.length, seconds, latencies: Float64Array.from(latencies), unexpectedStatus: {}, errors: 0, timeouts: 0, serverCpuUs: cpuUs };
}
