// What Prometheus metrics cost a partner call: GET /v1/channel-partners/me (the cheapest authenticated
// call, so the fixed cost weighs most) on (b) the real app, which counts and times every answer, against
// (a) the same app built with METRICS_ADDRESS=off (nothing counted, no hook), on the same database, in the
// same run. Goal (issue 30): at most 5 % fewer requests per second, b/a ≥ 0.95.
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createServices } from '../../src/services.ts';
import partnersMe from './partners-me.ts';
import { defineScenario } from '../lib/types.ts';

export default defineScenario({
  name: 'metrics-overhead',
  description: 'GET /v1/channel-partners/me with metrics (b) against the same app with METRICS_ADDRESS=off (a)',
  goals: { postgres: { minThroughputRatio: 0.95, maxP99Ratio: 1.5 }, pglite: { minThroughputRatio: 0.95, maxP99Ratio: 1.5 } },
  async setup(ctx) {
    const run = await partnersMe.setup(ctx);
    // The same configuration as the real app's, but for metrics; the same database and signing keys, so
    // the partner's token is good on both.
    const config = loadConfig({
      ENVIRONMENT: 'sandbox',
      SECRET_KEY: ctx.services.config.SECRET_KEY,
      DATA_DIR: path.join(os.tmpdir(), 'pvs-bench-unused'),
      PUBLIC_BASE_URL: 'http://pvs.bench',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_SECOND: String(ctx.services.config.RATE_LIMIT_PER_SECOND),
      RATE_LIMIT_BURST: String(ctx.services.config.RATE_LIMIT_BURST),
      METRICS_ADDRESS: 'off',
    });
    const services = await createServices(config, { db: ctx.db, logger: createLogger({ level: 'silent' }) });
    const app = await buildApp(services);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    return {
      ...run,
      baselineOrigin: `http://127.0.0.1:${port}`,
      async teardown() {
        await app.close();
        await services.close();
      },
    };
  },
});
