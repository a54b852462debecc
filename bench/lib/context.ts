// The real service on a bench database: `buildApp(await createServices(config, { db, logger }))`,
// listening on an ephemeral port, with logs silent and the per-partner rate limit far above anything
// the load generator can reach (it is still taken on every request, as in production).
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createServices } from '../../src/services.ts';
import type { BenchDatabase } from './backends.ts';
import type { Backend, BenchContext, BenchPartner } from './types.ts';

/** Per partner: 10⁹ per second with a burst of 10⁹; a 10-s run at 10⁵ req/s takes 0.1 % of the burst. */
export const benchRateLimit = 1_000_000_000;

export function originOf(server: { server: { address(): AddressInfo | string | null } }): string {
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('server is not listening on TCP');
  return `http://127.0.0.1:${address.port}`;
}

export interface RealApp {
  ctx: BenchContext;
  origin: string;
  close(): Promise<void>;
}

/** `env`: settings on top of the bench's own (the overload scenario sets MAX_IN_FLIGHT_REQUESTS). */
export async function startRealApp(backend: Backend, database: BenchDatabase, env: Record<string, string> = {}): Promise<RealApp> {
  const config = loadConfig({
    ENVIRONMENT: 'sandbox',
    // The database is handed over below, so DATA_DIR and DATABASE_URL are never opened; SECRET_KEY
    // is given so that nothing is generated on disk.
    SECRET_KEY: randomBytes(32).toString('base64url'),
    DATA_DIR: path.join(os.tmpdir(), 'pvs-bench-unused'),
    PUBLIC_BASE_URL: 'http://pvs.bench',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_SECOND: String(benchRateLimit),
    RATE_LIMIT_BURST: String(benchRateLimit),
    ...env,
  });
  const { db } = database;
  const services = await createServices(config, { db, logger: createLogger({ level: config.LOG_LEVEL }) });
  const app = await buildApp(services);
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await services.close();
    throw error;
  }

  let counter = 0;
  const ctx: BenchContext = {
    backend,
    db,
    services,
    app,
    async partner(options = {}): Promise<BenchPartner> {
      counter += 1;
      const created = await services.partners.create({ name: options.name ?? `Bench partner ${counter}`, monitoring: options.monitoring });
      const issued = await services.tokens.issue({ clientId: created.clientId, clientSecret: created.clientSecret });
      if (!issued.ok) throw new Error(`could not issue a token: ${issued.description}`);
      const token = issued.body.access_token;
      return {
        partnerId: created.partnerId,
        clientId: created.clientId,
        clientSecret: created.clientSecret,
        token,
        headers: { authorization: `Bearer ${token}`, 'x-partner-id': created.partnerId },
      };
    },
  };

  return {
    ctx,
    origin: originOf(app),
    async close() {
      await app.close();
      await services.close();
    },
  };
}
