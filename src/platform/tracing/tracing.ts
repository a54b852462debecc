// OpenTelemetry traces, off unless an OTLP endpoint is configured. Off, none of the SDK is loaded and
// spans.ts does nothing. On, one tracer provider for the process: HTTP requests through @fastify/otel
// (buildApp registers it), outgoing calls through undici's diagnostics channels, and PVS's own spans
// for statements, jobs, deliveries and provider calls (spans.ts). Everything leaves through
// PrivateSpanExporter, which passes listed attributes only.
import type { FastifyPluginCallback } from 'fastify';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TextMapPropagator } from '@opentelemetry/api';
import type { Config } from '../../config.ts';
import { packageVersion } from '../version.ts';
import { setTracingOn } from './spans.ts';

type TracingConfig = Pick<
  Config,
  | 'OTEL_EXPORTER_OTLP_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_PROTOCOL'
  | 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
  | 'OTEL_TRACES_EXPORTER'
  | 'OTEL_SDK_DISABLED'
  | 'OTEL_SERVICE_NAME'
  | 'OTEL_PROPAGATORS'
>;

export interface Tracing {
  /** @fastify/otel for an app: a span per request, named by method and route template. */
  fastifyPlugin(): FastifyPluginCallback;
  /** Sends what is buffered (tests, and before a shutdown). */
  flush(): Promise<void>;
  /** Flushes, stops, and leaves the process untraced again. */
  shutdown(): Promise<void>;
}

let active: Tracing | undefined;

/** The tracing this process started, if any (OpenTelemetry's provider is per process too). */
export function activeTracing(): Tracing | undefined {
  return active;
}

/** Where traces go, or undefined when tracing is off. */
export function tracesEndpoint(config: TracingConfig): string | undefined {
  if (config.OTEL_SDK_DISABLED || config.OTEL_TRACES_EXPORTER === 'none') return undefined;
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

async function otlpExporter(config: TracingConfig, url: string): Promise<SpanExporter> {
  const protocol = config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter({ url });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url });
}

async function propagatorOf(names: string): Promise<TextMapPropagator | null> {
  const list = new Set(names.split(',').filter((n) => n !== 'none'));
  if (list.size === 0) return null;
  const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const propagators = [...(list.has('tracecontext') ? [new W3CTraceContextPropagator()] : []), ...(list.has('baggage') ? [new W3CBaggagePropagator()] : [])];
  return new CompositePropagator({ propagators });
}

/**
 * Starts tracing when configured (or when a test hands its own exporter), once per process. The
 * sampler and the batch's limits come from the standard OTEL_TRACES_SAMPLER and OTEL_BSP_* variables,
 * read by the SDK; OTLP headers and timeout from OTEL_EXPORTER_OTLP_*.
 */
export async function startTracing(config: TracingConfig, options: { exporter?: SpanExporter } = {}): Promise<Tracing | undefined> {
  if (active) return active;
  const url = tracesEndpoint(config);
  if (!options.exporter && !url) return undefined;
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { detectResources, envDetector, resourceFromAttributes }, { registerInstrumentations }, { UndiciInstrumentation }, { FastifyOtelInstrumentation }, { PrivateSpanExporter }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/instrumentation'),
      import('@opentelemetry/instrumentation-undici'),
      import('@fastify/otel'),
      import('./private-exporter.ts'),
    ]);
  const exporter = new PrivateSpanExporter(options.exporter ?? (await otlpExporter(config, url!)));
  const resource = resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME, 'service.version': packageVersion() }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register({ propagator: await propagatorOf(config.OTEL_PROPAGATORS) });

  const fastifyOtel = new FastifyOtelInstrumentation({
    // An exception's message and stack may quote a request; the span records its class (error.type).
    recordExceptions: false,
    // One span per request: PVS's hooks are plugins' closures (every one would be "onRequest - plugin"),
    // and the time inside a request is in its statements' and provider calls' spans.
    instrumentHooks: false,
    instrumentHandler: false,
    requestHook(span, request) {
      const route = request.routeOptions.url ?? 'unmatched';
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.route', route);
    },
  });
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      fastifyOtel,
      // Only calls made for a request, a job or a delivery: a health probe's own fetch is nobody's.
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  setTracingOn(new W3CTraceContextPropagator());

  const tracing: Tracing = {
    fastifyPlugin: () => fastifyOtel.plugin() as FastifyPluginCallback,
    flush: () => provider.forceFlush(),
    async shutdown() {
      if (active !== tracing) return;
      active = undefined;
      setTracingOn(undefined);
      unregister();
      await provider.shutdown();
      // Leaves the globals free for a later start (tests start and stop more than once).
      const api = await import('@opentelemetry/api');
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
    },
  };
  active = tracing;
  return tracing;
}
