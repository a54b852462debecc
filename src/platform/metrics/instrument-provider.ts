// Times every call a provider answers with a promise (registers, identity, gateway, storage, extractor),
// by provider, method and outcome (pvs_provider_request_duration_seconds). The provider is wrapped, not
// changed: a Proxy that passes every property through and times only what returns a promise. Labels are
// the provider's name and the method's name: bounded, and never an argument. Outcomes: `ok`, `error` (a
// rejection, or an answer that says the provider is unavailable), `timeout`.
import type { Metrics, ProviderOutcome } from './metrics.ts';

/** A timeout by any of the names Node, undici, the AWS SDK and our own providers give one. */
function outcomeOf(error: unknown): ProviderOutcome {
  const e = error as { name?: string; code?: string; message?: string } | undefined;
  const words = `${e?.name ?? ''} ${e?.code ?? ''} ${e?.message ?? ''}`;
  return /timeout|timed out|ETIMEDOUT|UND_ERR_(?:CONNECT|HEADERS|BODY)_TIMEOUT|AbortError/i.test(words) ? 'timeout' : 'error';
}

/**
 * Some providers answer an outage rather than throw it (`{ ok: false, reason: 'UNAVAILABLE' }`): that is
 * an error too. Any other answer, a `NOT_FOUND` or a decline included, is the provider working.
 */
function answerOutcome(answer: unknown): ProviderOutcome {
  const a = answer as { ok?: unknown; reason?: unknown } | null | undefined;
  if (a?.ok !== false || typeof a.reason !== 'string') return 'ok';
  if (/TIMEOUT|TIMED_OUT/.test(a.reason)) return 'timeout';
  return a.reason === 'UNAVAILABLE' ? 'error' : 'ok';
}

export function instrumentProvider<T extends object>(provider: string, target: T, metrics: Pick<Metrics, 'providerRequest'>): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor') return value;
      let timed = wrapped.get(property);
      if (!timed) {
        timed = function (this: unknown, ...args: unknown[]) {
          const started = performance.now();
          const result: unknown = (value as (...a: unknown[]) => unknown).apply(this === receiver ? object : this, args);
          if (!(result instanceof Promise)) return result;
          const seconds = () => (performance.now() - started) / 1000;
          return result.then(
            (answer) => {
              metrics.providerRequest(provider, property, answerOutcome(answer), seconds());
              return answer;
            },
            (error: unknown) => {
              metrics.providerRequest(provider, property, outcomeOf(error), seconds());
              throw error;
            },
          );
        };
        wrapped.set(property, timed);
      }
      return timed;
    },
  });
}
