// The spans PVS makes itself: a database statement, a job, a webhook delivery, a provider's call. Only
// @opentelemetry/api is loaded here, and nothing is done at all until tracing.ts has started the SDK:
// with tracing off every helper runs its function and returns (no span, no context, no cost).
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type TextMapPropagator } from '@opentelemetry/api';

let on = false;

/**
 * A job or a notification carries the trace of what made it as a W3C `traceparent`, stored beside it:
 * its work joins that trace. Not the global propagator, which by default is off at the public port
 * (docs/operations.md, Traces).
 */
let w3c: TextMapPropagator | undefined;

/** Called by tracing.ts with a W3C trace-context propagator once the SDK is registered; undefined turns it off. */
export function setTracingOn(propagator: TextMapPropagator | undefined): void {
  on = propagator !== undefined;
  w3c = propagator;
}

export function tracingOn(): boolean {
  return on;
}

const tracer = () => trace.getTracer('pvs');

/** The current span as a `traceparent`, or null when there is none (or tracing is off). */
export function currentTraceparent(): string | null {
  if (!w3c || !trace.getSpan(context.active())) return null;
  const carrier: Record<string, string> = {};
  w3c.inject(context.active(), carrier, { set: (c, k, v) => (c[k] = v) });
  return carrier.traceparent ?? null;
}

function contextOf(traceparent: string | null | undefined): Context {
  if (!traceparent || !w3c) return ROOT_CONTEXT;
  return w3c.extract(ROOT_CONTEXT, { traceparent }, { get: (c, k) => c[k as 'traceparent'], keys: () => ['traceparent'] });
}

/** error.type of a failure: a database's SQLSTATE, a system call's code, or the error's class. */
export function errorType(error: unknown): string {
  const e = error as { code?: unknown; name?: unknown } | undefined;
  if (typeof e?.code === 'string' && /^[A-Z0-9_]{2,40}$/.test(e.code)) return e.code;
  return typeof e?.name === 'string' && /^\w{1,60}$/.test(e.name) ? e.name : 'Error';
}

async function inSpan<T>(span: Span, parent: Context, fn: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    // The error's class only: its message may quote what a person typed.
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute('error.type', errorType(error));
    throw error;
  } finally {
    span.end();
  }
}

/**
 * fn in a span that is a child of the current one. With no current span (a worker's poll, a timer) there
 * is nothing to join, and no span is made: background polling would otherwise fill a trace store with
 * roots of one statement each.
 */
export function childSpan<T>(name: string, kind: SpanKind, attributes: Attributes, fn: (span?: Span) => Promise<T>): Promise<T> {
  if (!on) return fn();
  const parent = context.active();
  if (!trace.getSpan(parent)) return fn();
  return inSpan(tracer().startSpan(name, { kind, attributes }, parent), parent, fn);
}

/**
 * fn in a span that continues the trace a job or notification was made in (its stored `traceparent`),
 * or starts one of its own when it has none (a scheduled job).
 */
export function continuedSpan<T>(name: string, kind: SpanKind, traceparent: string | null | undefined, attributes: Attributes, fn: (span?: Span) => Promise<T>): Promise<T> {
  if (!on) return fn();
  const parent = contextOf(traceparent);
  return inSpan(tracer().startSpan(name, { kind, attributes }, parent), parent, fn);
}

/** The active span's ids for a log line; none when tracing is off or nothing is traced. */
export function traceIds(): { traceId: string; spanId: string } | Record<string, never> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

export { SpanKind, SpanStatusCode, type Span };
