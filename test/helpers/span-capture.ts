// Tracing on for a test file, into the SDK's in-memory exporter behind PVS's own PrivateSpanExporter:
// what a test reads is what a collector would receive. Start it before the test context, so that the
// services trace their statements and the app registers @fastify/otel.
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '../../src/platform/tracing/tracing.ts';
import { testConfig } from './context.ts';

export interface SpanCapture {
  /** Every span finished so far (flushed first). */
  spans(): Promise<ReadableSpan[]>;
  /** The spans as text, for searching for what must never be in them. */
  text(): Promise<string>;
  reset(): void;
  stop(): Promise<void>;
}

export async function captureSpans(): Promise<SpanCapture> {
  const exporter = new InMemorySpanExporter();
  const tracing = (await startTracing(testConfig(), { exporter }))!;
  const spans = async () => {
    await tracing.flush();
    return exporter.getFinishedSpans();
  };
  return {
    spans,
    async text() {
      const all = await spans();
      return JSON.stringify(all.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links, resource: s.resource.attributes })));
    },
    reset: () => exporter.reset(),
    stop: () => tracing.shutdown(),
  };
}
