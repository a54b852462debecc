// The database's availability as this process sees it: a circuit breaker around a Database. The first
// call that fails because the database cannot be reached marks it down. While it is down every call
// fails at once with DatabaseUnavailableError (a 503 to a partner) instead of waiting on the pool, and a
// probe (SELECT 1, every second, with a short timeout) marks it up again. One log line when it goes and
// one when it comes back, however many calls failed meanwhile.
import type { Logger } from 'pino';
import { DatabaseUnavailableError, isUnavailableError, type Database, type QueryOptions } from './database.ts';

export interface DatabaseAvailability {
  /** False from the first connection failure until a probe is answered. */
  readonly available: boolean;
  /**
   * The error (or one of its causes) is the database being unreachable: thrown by this guard, or a
   * connection failure that came through it. A connection error from any other system is not.
   */
  isOutage(error: unknown): boolean;
  /** Calls the listener each time the database comes back; answers a function that unsubscribes. */
  onAvailable(listener: () => void): () => void;
}

export interface GuardedDatabase extends Database {
  readonly availability: DatabaseAvailability;
  /** Stops the probe without closing the database (one the caller does not own). */
  detach(): void;
}

export interface GuardOptions {
  logger: Logger;
  probeIntervalMs?: number;
  probeTimeoutMs?: number;
}

function describe(error: unknown): string {
  const e = error as Error | undefined;
  return `${e?.name ?? 'Error'}: ${String(e?.message ?? error)}`.slice(0, 300);
}

export function guardDatabase(inner: Database, options: GuardOptions): GuardedDatabase {
  const { logger } = options;
  const probeIntervalMs = options.probeIntervalMs ?? 1_000;
  const probeTimeoutMs = options.probeTimeoutMs ?? 2_000;
  // Errors that came through the guard as connection failures; weak, so nothing is kept alive by it.
  const outages = new WeakSet<object>();
  const listeners = new Set<() => void>();
  let downSince: Date | undefined;
  let probeTimer: NodeJS.Timeout | undefined;
  let detached = false;

  function markDown(error: unknown) {
    if (downSince || detached) return;
    downSince = new Date();
    logger.error({ err: describe(error) }, 'database unavailable: calls fail at once (503) until it answers again');
    probeAfter(0);
  }

  function probeAfter(delay: number) {
    clearTimeout(probeTimer);
    probeTimer = setTimeout(() => void probe(), delay);
    probeTimer.unref();
  }

  async function probe() {
    if (!downSince || detached) return;
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        inner.query('SELECT 1'),
        new Promise((_, reject) => {
          timeout = setTimeout(() => reject(new Error('probe timed out')), probeTimeoutMs);
        }),
      ]);
    } catch {
      probeAfter(probeIntervalMs);
      return;
    } finally {
      clearTimeout(timeout);
    }
    if (detached) return;
    const downMs = Date.now() - downSince.getTime();
    downSince = undefined;
    logger.info({ downMs }, 'database available again');
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        logger.error({ err: describe(error) }, 'database availability listener failed');
      }
    }
  }

  async function guarded<T>(run: () => Promise<T>): Promise<T> {
    if (downSince) throw new DatabaseUnavailableError(`The database has been unreachable since ${downSince.toISOString()}; the call was not tried`);
    try {
      return await run();
    } catch (error) {
      if (isUnavailableError(error)) {
        if (typeof error === 'object' && error !== null) outages.add(error);
        markDown(error);
      }
      throw error;
    }
  }

  const availability: DatabaseAvailability = {
    get available() {
      return downSince === undefined;
    },
    isOutage(error) {
      for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
        if (e instanceof DatabaseUnavailableError || (typeof e === 'object' && outages.has(e))) return true;
      }
      return false;
    },
    onAvailable(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  function detach() {
    detached = true;
    clearTimeout(probeTimer);
  }

  return {
    kind: inner.kind,
    availability,
    query: <Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) => guarded(() => inner.query<Row>(sql, params, options)),
    exec: (sql) => guarded(() => inner.exec(sql)),
    write: (sql, params, options) => guarded(() => inner.write(sql, params, options)),
    // Inside a transaction nothing is refused: one already open finishes or fails on its own connection,
    // and a connection failure still marks the database down as it leaves.
    transaction: (fn) => guarded(() => inner.transaction(fn)),
    detach,
    async close() {
      detach();
      await inner.close();
    },
    ...(inner.poolStats ? { poolStats: () => inner.poolStats!() } : {}),
  };
}
