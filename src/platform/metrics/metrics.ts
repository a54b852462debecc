// What a PVS process counts, in Prometheus's terms (docs/operations.md, "Metrics"). The names and labels
// are a contract that dashboards and alert rules (ops/) rely on: change one and they break.
//
// One registry per process (per `createServices` in tests), never prom-client's global one. Labels are
// bounded by construction: a route is its template (`/v1/business-lookups/:id`), a job is its kind, a
// provider call is the provider's and the method's names; no id, name, email or raw path ever becomes a
// label. Gauges that read the database (queue depth and age, pending notifications) are computed when
// scraped, from one cached reading shared by every gauge and every scraper (readings.ts), so that nobody
// scraping costs nothing and ten scrapers cost one reading (three small queries) every 5 s.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type JobOutcome = 'succeeded' | 'retried' | 'waiting' | 'failed';
export type DeliveryOutcome = 'delivered' | 'attempt_failed' | 'exhausted';
export type ProviderOutcome = 'ok' | 'error' | 'timeout';

/** What the database-reading gauges show, read at scrape time (readings.ts). */
export interface Readings {
  jobs: Array<{ kind: string; ready: number; oldestAgeSeconds: number }>;
  notificationsPending: number;
  screeningListVersion: number;
  pool: { idle: number; busy: number; waiting: number } | null;
}

export interface Metrics {
  /** False with METRICS_ADDRESS=off: nothing is counted (buildApp installs no hook), nothing served. */
  readonly enabled: boolean;
  readonly registry: Registry;
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  jobFinished(kind: string, outcome: JobOutcome, seconds: number): void;
  webhookDelivery(outcome: DeliveryOutcome, lagSeconds?: number): void;
  providerRequest(provider: string, operation: string, outcome: ProviderOutcome, seconds: number): void;
  rateLimited(): void;
  /** Where the database-reading gauges get their figures; set once the services exist. */
  readFrom(read: () => Promise<Readings>): void;
  /** prom-client's process and Node.js metrics: for a process that serves /metrics, not for every test. */
  collectProcessMetrics(): void;
}

// Seconds. Requests: a cached read is a few ms, a hosted submit with images a second or more.
const requestBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Jobs and provider calls run from milliseconds (a webhook fan-out) to minutes (a deed's OCR, a re-screen).
const jobBuckets = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];
const providerBuckets = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
// From an event's commit to the receiver's 2xx: seconds when all is well, hours when a receiver was down.
const lagBuckets = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400];

/** How long one reading of the database serves every gauge and every scraper. */
export const readingTtlMs = 5_000;

/** What a process with METRICS_ADDRESS=off counts: nothing, at no cost. */
export function disabledMetrics(): Metrics {
  const nothing = () => {};
  return { enabled: false, registry: new Registry(), httpRequest: nothing, jobFinished: nothing, webhookDelivery: nothing, providerRequest: nothing, rateLimited: nothing, readFrom: nothing, collectProcessMetrics: nothing };
}

export function createMetrics(options: { version: string; now?: () => number }): Metrics {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  const httpRequests = new Counter({ name: 'pvs_http_requests_total', help: 'HTTP requests answered, by method, route template and status code', labelNames: ['method', 'route', 'status'] as const, registers: [registry] });
  const httpDuration = new Histogram({ name: 'pvs_http_request_duration_seconds', help: 'Time to answer an HTTP request, by method and route template', labelNames: ['method', 'route'] as const, buckets: requestBuckets, registers: [registry] });
  const jobsFinished = new Counter({ name: 'pvs_jobs_finished_total', help: 'Job attempts finished, by kind and outcome (succeeded, retried, failed: attempts exhausted or a permanent error)', labelNames: ['kind', 'outcome'] as const, registers: [registry] });
  const jobDuration = new Histogram({ name: 'pvs_job_duration_seconds', help: 'Time one job attempt ran, by kind', labelNames: ['kind'] as const, buckets: jobBuckets, registers: [registry] });
  const deliveries = new Counter({ name: 'pvs_webhook_deliveries_total', help: 'Webhook delivery attempts, by outcome (delivered, attempt_failed: to be retried, exhausted: no attempt left)', labelNames: ['outcome'] as const, registers: [registry] });
  const deliveryLag = new Histogram({ name: 'pvs_webhook_delivery_lag_seconds', help: 'From the notification’s creation (its event’s commit; a manual retry’s own time) to the receiver’s 2xx answer', buckets: lagBuckets, registers: [registry] });
  const providerDuration = new Histogram({ name: 'pvs_provider_request_duration_seconds', help: 'Calls to external providers (registers, identity, gateway, storage, extractor), by provider, operation and outcome', labelNames: ['provider', 'operation', 'outcome'] as const, buckets: providerBuckets, registers: [registry] });
  const rateLimited = new Counter({ name: 'pvs_rate_limited_total', help: 'Requests refused with 429 RATE_LIMITED', registers: [registry] });
  new Gauge({ name: 'pvs_build_info', help: 'The running build: 1, with its version and Node.js version as labels', labelNames: ['version', 'node'] as const, registers: [registry] }).set({ version: options.version, node: process.versions.node }, 1);

  let read: (() => Promise<Readings>) | undefined;
  let cached: { at: number; value: Promise<Readings | null> } | undefined;
  /** One reading for every gauge of one scrape, and for every scrape within `readingTtlMs`. */
  const reading = (): Promise<Readings | null> => {
    if (!read) return Promise.resolve(null);
    if (!cached || now() - cached.at >= readingTtlMs) cached = { at: now(), value: read().catch(() => null) };
    return cached.value;
  };
  const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge<string>, r: Readings) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const r = await reading();
        // No reading (the database unreachable): a labelled gauge shows no series; one without labels
        // keeps its last value (prom-client shows one always), and pvs_database_up says it is old.
        if (!r && labelNames.length === 0) return;
        this.reset();
        if (r) fill(this, r);
      },
    });
  gauge('pvs_jobs_ready', 'Jobs due to run and not yet claimed, by kind', ['kind'], (g, r) => r.jobs.forEach((j) => g.set({ kind: j.kind }, j.ready)));
  gauge('pvs_jobs_oldest_ready_age_seconds', 'How long the oldest job due to run has waited, by kind (0 when none waits)', ['kind'], (g, r) => r.jobs.forEach((j) => g.set({ kind: j.kind }, j.oldestAgeSeconds)));
  gauge('pvs_webhook_notifications_pending', 'Webhook notifications not yet delivered nor failed', [], (g, r) => g.set(r.notificationsPending));
  gauge('pvs_screening_list_version', 'The screening list version in force (0: no list loaded: screening finds nothing)', [], (g, r) => g.set(r.screeningListVersion));
  gauge('pvs_db_pool_connections', 'PostgreSQL pool connections by state (idle, busy, waiting: callers waiting for one)', ['state'], (g, r) => {
    if (r.pool) for (const [state, count] of Object.entries(r.pool)) g.set({ state }, count);
  });
  // Up or down is worth knowing even when the reading failed: a failed reading is the database down.
  new Gauge({
    name: 'pvs_database_up',
    help: 'Whether the database answers (what /ready checks): 1 or 0',
    registers: [registry],
    async collect() {
      const r = await reading();
      this.set(r ? 1 : 0);
    },
  });

  // Every answer updates two series. prom-client finds a series by hashing its labels on every call;
  // keeping each series' handle, found once per method, route and status (a bounded set: routes are
  // templates), makes the count and the timing two array updates (bench/README.md, metrics-overhead).
  const requestSeries = new Map<string, { count: { inc(): void }; duration: { observe(seconds: number): void } }>();
  const durationSeries = new Map<string, { observe(seconds: number): void }>();
  const seriesOf = (method: string, route: string, status: number) => {
    const key = `${method} ${status} ${route}`;
    let series = requestSeries.get(key);
    if (!series) {
      const durationKey = `${method} ${route}`;
      let duration = durationSeries.get(durationKey);
      if (!duration) durationSeries.set(durationKey, (duration = httpDuration.labels({ method, route })));
      series = { count: httpRequests.labels({ method, route, status: String(status) }), duration };
      requestSeries.set(key, series);
    }
    return series;
  };

  let processMetrics = false;
  return {
    enabled: true,
    registry,
    httpRequest(method, route, status, seconds) {
      const series = seriesOf(method, route, status);
      series.count.inc();
      series.duration.observe(seconds);
    },
    jobFinished(kind, outcome, seconds) {
      jobsFinished.inc({ kind, outcome });
      jobDuration.observe({ kind }, seconds);
    },
    webhookDelivery(outcome, lagSeconds) {
      deliveries.inc({ outcome });
      if (outcome === 'delivered' && lagSeconds !== undefined) deliveryLag.observe(Math.max(0, lagSeconds));
    },
    providerRequest(provider, operation, outcome, seconds) {
      providerDuration.observe({ provider, operation, outcome }, seconds);
    },
    rateLimited() {
      rateLimited.inc();
    },
    readFrom(fn) {
      read = fn;
      cached = undefined;
    },
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}
