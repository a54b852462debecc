// Times every call a provider answers with a promise (registers, identity, gateway, storage, extractor),
// by provider, method and outcome (pvs_provider_request_duration_seconds). The provider is wrapped, not
// changed: a Proxy that passes every property through and times only what returns a promise. Labels are
// the provider's name and the method's name: bounded, and never an argument. Outcomes: `ok`, `error` (a
// rejection, or an answer that says the provider is unavailable), `timeout`. With tracing on, each call
// is also a span (pvs.provider, pvs.operation, pvs.outcome).
import type { Metrics, ProviderOutcome } from './metrics.ts';
import { childSpan, SpanKind, SpanStatusCode, tracingOn, type Span } from '../tracing/spans.ts';

/** A timeout by any of the names Node, undici, the AWS SDK and our own providers give one. */
function outcomeOf(error: unknown): ProviderOutcome {
  const e = error as { name?: string; code?: string; message?: string } | undefined;
  const words = `${e?.name ?? ''} ${e?.code ?? ''} ${e?.message ?? ''}`;
  return /timeout|timed out|ETIMEDOUT|UND_ERR_(?:CONNECT|HEADERS|BODY)_TIMEOUT|AbortError/i.test(words) ? 'timeout' : 'error';
}

/**
 * Some providers answer an outage rather than throw it (`{ ok: false, reason: 'UNAVAILABLE' }`, the
 * identity provider's `{ ok: false, kind: 'unavailable' }`): that is an error too. Any other answer, a
 * `NOT_FOUND`, a decline, a refused step or checks still running included, is the provider working.
 */
function answerOutcome(answer: unknown): ProviderOutcome {
  const a = answer as { ok?: unknown; reason?: unknown; kind?: unknown } | null | undefined;
  if (a?.ok === false && a.kind === 'unavailable') return 'error';
  if (a?.ok !== false || typeof a.reason !== 'string') return 'ok';
  if (/TIMEOUT|TIMED_OUT/.test(a.reason)) return 'timeout';
  return a.reason === 'UNAVAILABLE' ? 'error' : 'ok';
}

export function instrumentProvider<T extends object>(provider: string, target: T, metrics: Pick<Metrics, 'providerRequest'>): T {
  /** Times a call that answered a promise, by outcome; `span` (when tracing) is told the outcome too. */
  function timed(operation: string, result: Promise<unknown>, span?: Span): Promise<unknown> {
    const started = performance.now();
    const record = (outcome: ProviderOutcome) => {
      metrics.providerRequest(provider, operation, outcome, (performance.now() - started) / 1000);
      span?.setAttribute('pvs.outcome', outcome);
      if (outcome !== 'ok') span?.setStatus({ code: SpanStatusCode.ERROR });
    };
    return result.then(
      (answer) => {
        record(answerOutcome(answer));
        return answer;
      },
      (error: unknown) => {
        record(outcomeOf(error));
        throw error;
      },
    );
  }

  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor') return value;
      let instrumented = wrapped.get(property);
      if (!instrumented) {
        instrumented = function (this: unknown, ...args: unknown[]) {
          const call = () => (value as (...a: unknown[]) => unknown).apply(this === receiver ? object : this, args);
          if (!tracingOn()) {
            const result = call();
            return result instanceof Promise ? timed(property, result) : result;
          }
          // Traced: the call runs inside a span of its own (provider, method, outcome), so that the HTTP
          // calls it makes are its children. An answer that is not a promise passes through as it came.
          let answer: unknown;
          let thrown: { error: unknown } | undefined;
          const traced = childSpan(`${provider}.${property}`, SpanKind.CLIENT, { 'pvs.provider': provider, 'pvs.operation': property }, (span) => {
            try {
              answer = call();
            } catch (error) {
              thrown = { error };
              return Promise.reject(error);
            }
            return answer instanceof Promise ? timed(property, answer, span) : Promise.resolve(answer);
          });
          if (thrown) {
            traced.catch(() => {});
            throw thrown.error;
          }
          return answer instanceof Promise ? traced : answer;
        };
        wrapped.set(property, instrumented);
      }
      return instrumented;
    },
  });
}
