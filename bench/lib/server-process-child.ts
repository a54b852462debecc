// The real service in a process of its own (server-process.ts starts it): a bench database of its own
// (openBenchDatabase), `startRealApp` with the settings it is given, a partner with three contacts. It
// reports what only the server's own process can see: its memory (process.memoryUsage() every 50 ms,
// and the kernel's high-water mark VmHWM, reset at the start of each window), its CPU time, and the
// status of every answer it sent, with whether each 503 carried Retry-After. It stops when the parent
// goes away.
import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openBenchDatabase, type BenchDatabase } from './backends.ts';
import { startRealApp, type RealApp } from './context.ts';
import type { ServerCommand, ServerMessage, ServerStart, WindowFigures } from './server-process.ts';

const round1 = (n: number) => Math.round(n * 10) / 10;

function percentiles(samples: Float64Array) {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => (sorted.length ? round1(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!) : Number.NaN);
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}

let database: BenchDatabase | undefined;
let real: RealApp | undefined;
let stopping: Promise<void> | undefined;

function send(message: ServerMessage) {
  if (process.connected) process.send!(message);
}

const stop = () =>
  (stopping ??= (async () => {
    await real?.close().catch(() => {});
    await database?.dispose().catch(() => {});
  })().finally(() => process.exit(0)));

process.on('disconnect', () => void stop());
// Ctrl-C reaches the whole process group: drop the PostgreSQL database before going.
process.on('SIGINT', () => void stop());

/** Peak resident set size since the last reset, from the kernel (Linux); undefined elsewhere. */
function vmHwmBytes(): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0: `5` to /proc/self/clear_refs). */
function resetVmHwm(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

async function start(options: ServerStart) {
  database = await openBenchDatabase(options.backend, options.adminUrl);
  real = await startRealApp(options.backend, database, options.env);
  const partner = await real.ctx.partner({ name: 'Overload bench partner' });
  for (const name of ['Ada Contact', 'Grace Contact', 'Edsger Contact']) {
    const response = await real.ctx.app.inject({ method: 'POST', url: '/v1/contacts', headers: { ...partner.headers, 'content-type': 'application/json' }, payload: { name } });
    if (response.statusCode !== 201) throw new Error(`could not create a contact: ${response.statusCode} ${response.body}`);
  }

  // Every answer, at the HTTP layer: its status, whether a 503 said when to retry, and how many
  // requests were open at once (received, not yet answered or abandoned).
  let statuses: Record<string, number> = {};
  let unavailableByRetryAfter: Record<string, number> = {};
  let open = 0;
  let peakOpen = 0;
  // Milliseconds from the request's arrival to its answer's last byte handed to the socket, per 200.
  let servedMs = new Float64Array(1 << 16);
  let served = 0;
  // Before Fastify's own listener: a shed request is answered within it, synchronously.
  real.ctx.app.server.prependListener('request', (_request, response) => {
    const arrived = performance.now();
    open += 1;
    if (open > peakOpen) peakOpen = open;
    // Open until answered (writeHead) or abandoned (close), whichever comes first.
    let answered = false;
    const answer = () => {
      if (answered) return;
      answered = true;
      open -= 1;
    };
    // Fastify hands its headers to writeHead, where getHeader() does not see them.
    let retryAfter = '(none)';
    const writeHead = response.writeHead;
    response.writeHead = function (this: typeof response, ...args: Parameters<typeof writeHead>) {
      answer();
      const headers = args.find((a) => typeof a === 'object' && a !== null) as Record<string, unknown> | undefined;
      retryAfter = String(headers?.['retry-after'] ?? response.getHeader('retry-after') ?? '(none)');
      return writeHead.apply(this, args);
    } as typeof writeHead;
    response.once('finish', () => {
      if (response.statusCode !== 200) return;
      if (served === servedMs.length) {
        const bigger = new Float64Array(servedMs.length * 2);
        bigger.set(servedMs);
        servedMs = bigger;
      }
      servedMs[served++] = performance.now() - arrived;
    });
    response.once('close', () => {
      answer();
      if (!response.writableFinished) return;
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      if (response.statusCode === 503) unavailableByRetryAfter[retryAfter] = (unavailableByRetryAfter[retryAfter] ?? 0) + 1;
    });
  });
  // How late the event loop ran a 10-ms timer: the JavaScript work requests queue behind.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();

  let window: { sampler: NodeJS.Timeout; cpu: NodeJS.CpuUsage; rssStart: number; heapStart: number; peakRss: number; peakHeapUsed: number; hwmReset: boolean } | undefined;
  const sample = () => {
    if (!window) return;
    const { rss, heapUsed } = process.memoryUsage();
    if (rss > window.peakRss) window.peakRss = rss;
    if (heapUsed > window.peakHeapUsed) window.peakHeapUsed = heapUsed;
  };

  process.on('message', (command: ServerCommand) => {
    if (command.type === 'window-start') {
      if (window) clearInterval(window.sampler);
      statuses = {};
      unavailableByRetryAfter = {};
      served = 0;
      peakOpen = open;
      loopDelay.reset();
      const hwmReset = resetVmHwm();
      const { rss, heapUsed } = process.memoryUsage();
      window = { sampler: setInterval(sample, 50), cpu: process.cpuUsage(), rssStart: rss, heapStart: heapUsed, peakRss: rss, peakHeapUsed: heapUsed, hwmReset };
      send({ type: 'ack', id: command.id });
    } else if (command.type === 'window-stop') {
      if (!window) return send({ type: 'error', id: command.id, error: 'no window was started' });
      sample();
      clearInterval(window.sampler);
      const cpu = process.cpuUsage(window.cpu);
      const hwm = window.hwmReset ? vmHwmBytes() : undefined;
      const figures: WindowFigures = {
        rssStartBytes: window.rssStart,
        peakRssBytes: Math.max(window.peakRss, hwm ?? 0),
        peakRssSampledBytes: window.peakRss,
        vmHwmBytes: hwm ?? null,
        heapUsedStartBytes: window.heapStart,
        peakHeapUsedBytes: window.peakHeapUsed,
        cpuUs: cpu.user + cpu.system,
        statuses,
        unavailableByRetryAfter,
        peakOpenRequests: peakOpen,
        servedInServerMs: percentiles(servedMs.subarray(0, served)),
        eventLoopDelayMs: { mean: round1(loopDelay.mean / 1e6 - 10), p99: round1(loopDelay.percentile(99) / 1e6 - 10), max: round1(loopDelay.max / 1e6 - 10) },
      };
      window = undefined;
      send({ type: 'window', id: command.id, figures });
    }
  });

  send({ type: 'ready', origin: real.origin, headers: partner.headers, pid: process.pid });
}

process.once('message', (message: { type: 'start'; options: ServerStart }) => {
  start(message.options).catch((error: unknown) => {
    send({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    void stop();
  });
});
