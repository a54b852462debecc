// The shape of a benchmark scenario. A scenario compares (a) a bare route on a plain Fastify instance
// doing the minimum database work a capability needs with (b) the real route served by the real app.
// The difference between the two is the cost of everything the real app adds (authentication,
// tenancy, rate limiting, validation, serialisation, hooks), which is what these benchmarks watch.
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { HttpApp } from '../../src/platform/http/types.ts';
import type { Database } from '../../src/platform/db/database.ts';
import type { Services } from '../../src/services.ts';
import type { ScenarioResult } from './report.ts';
import type { BenchSettings } from './settings.ts';
import type { Backend, BenchRequest, Figures, Goal } from './vocabulary.ts';

// The words every part of the bench speaks live in vocabulary.ts (settings, load and report use them too).
export { backendLabels, type Backend, type BenchRequest, type Figures, type Goal } from './vocabulary.ts';

/** (a): the bare route. Registered on a plain `Fastify()` with no plugins, hooks or schemas. */
export interface BaselineRoute {
  method?: HTTPMethods;
  url: string;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  /** What to send to (a); defaults to the scenario's `request`, so both servers parse the same bytes. */
  request?: BenchRequest;
}

/** What a scenario's setup returns for one back-end. */
export interface ScenarioRun {
  /** (b): the request sent to the real app. */
  request: BenchRequest;
  /** (a): the bare equivalent. */
  baseline: BaselineRoute;
  /**
   * (a) served by another app instead of a bare route (its origin, e.g. `http://127.0.0.1:41234`): to
   * measure what one feature of the real app costs, against the same app without it.
   */
  baselineOrigin?: string;
  /**
   * Checks one response of each server before the load starts (status is already checked); answer a
   * message to refuse the run, e.g. when (b) answers something other than what (a) answers.
   */
  check?(server: 'baseline' | 'real', status: number, body: string): string | undefined;
  /** Called after both measurements of this scenario on this back-end. */
  teardown?(): Promise<void>;
}

interface ScenarioCommon {
  /** Unique, kebab-case; used in results, in BENCH_SCENARIOS and in baseline comparisons. */
  name: string;
  description: string;
  /** Back-ends it runs on (default: both). */
  backends?: readonly Backend[];
  /** Goals per back-end (default: `defaultGoals`). A back-end without a goal is measured only. */
  goals?: Partial<Record<Backend, Goal>>;
}

/** An HTTP scenario: the runner drives (a) a bare route and (b) the real route with autocannon. */
export interface HttpScenario extends ScenarioCommon {
  kind?: 'http';
  setup(ctx: BenchContext): Promise<ScenarioRun>;
}

/**
 * A scenario that is not one HTTP request repeated (e.g. webhook delivery): it runs its own (a) and
 * (b), interleaved as the runner does, and answers a result in the same format, so that the table,
 * results/latest.json, the goals and the baseline comparison treat it like any other.
 */
export interface MeasuredScenario extends ScenarioCommon {
  kind: 'measured';
  measure(ctx: MeasureContext): Promise<ScenarioResult>;
}

export type Scenario = HttpScenario | MeasuredScenario;

export const defaultGoals: Partial<Record<Backend, Goal>> = {
  postgres: { minThroughputRatio: 0.85, maxP99Ratio: 1.5 },
};

/** A partner with an API client and a valid access token. */
export interface BenchPartner {
  partnerId: string;
  clientId: string;
  clientSecret: string;
  token: string;
  /** Authorization and X-Partner-Id, ready to send. */
  headers: { authorization: string; 'x-partner-id': string };
}

/** What a scenario gets for one back-end. The real app is already listening. */
export interface BenchContext {
  backend: Backend;
  /** The database both servers use (the same pool or PGlite instance). */
  db: Database;
  /** The real app's services (rate limit set high, logs silent). */
  services: Services;
  app: HttpApp;
  /** Creates a partner through the real service, with a client and an issued token. */
  partner(options?: { name?: string; monitoring?: boolean }): Promise<BenchPartner>;
}

/** What a measured scenario gets: the back-end's context plus the run's settings and tools. */
export interface MeasureContext extends BenchContext {
  settings: BenchSettings;
  /** The goal for this back-end (the scenario's, else the default), for `scenarioResult`. */
  goal: Goal | undefined;
  /** Wraps one measured slice: CPU-profiled into bench/results/latest-profiles/<backend>-<scenario>-<name> under BENCH_PROFILE. */
  profile<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** A progress line on stderr. */
  progress(text: string): void;
  /**
   * Measures a run exactly as the runner measures an HTTP scenario (the bare route on a plain Fastify,
   * the real app, the checks, warm-up, interleaved slices, profiles named `a-<n>`/`b-<n>`), for a
   * measured scenario whose request comparison is one of its parts. Does not call `run.teardown`.
   */
  compareHttp(run: ScenarioRun): Promise<{ baseline: Figures; real: Figures }>;
  /** Sends `count` requests to the real app from the load generator, `connections` (default the run's) at a time. */
  send(request: BenchRequest, options: { count: number; connections?: number }): Promise<Figures>;
}

/** Identity helper, so scenario files get type checking without naming the type. */
export function defineScenario<S extends Scenario>(scenario: S): S {
  return scenario;
}
