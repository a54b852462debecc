// The last door before a span leaves the process: only attributes on this list pass, whatever an
// instrumentation recorded. A path can hold a link token (/v/…), a query string a signature, a
// partner's webhook address a secret of theirs, an error message what a person typed; none of those
// are on the list. What passes is a route's template, a method, a status, a host, a statement's
// summary, an error's class and PVS's own attributes (pvs.*: kinds, attempts, outcomes, ids).
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { Attributes } from '@opentelemetry/api';

const allowed = new Set([
  'http.request.method',
  'http.route',
  'http.response.status_code',
  'url.scheme',
  'server.address',
  'server.port',
  'network.protocol.version',
  'db.system.name',
  'db.operation.name',
  'db.query.summary',
  'error.type',
  'exception.type',
  // @fastify/otel's names for the hook or handler a span timed (function names, from our code).
  'fastify.root',
  'fastify.type',
  'hook.name',
  'hook.callback.name',
]);

const passes = (key: string) => allowed.has(key) || key.startsWith('pvs.');

export function privateAttributes(attributes: Attributes | undefined): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes ?? {})) if (passes(key)) kept[key] = value;
  return kept;
}

/** A copy of the span with only what may leave: listed attributes, a status without its message. */
export function privateSpan(span: ReadableSpan): ReadableSpan {
  const events: TimedEvent[] = span.events.map((e) => ({ time: e.time, name: e.name, attributes: privateAttributes(e.attributes) }));
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: { code: span.status.code },
    attributes: privateAttributes(span.attributes),
    links: span.links.map((l) => ({ context: l.context })),
    events,
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

export class PrivateSpanExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans.map(privateSpan), resultCallback);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
