// What Prometheus metrics cost a partner call: GET /v1/channel-partners/me (the cheapest authenticated
// call, so the fixed cost weighs most) on (b) the real app, which counts and times every answer, against
// (a) the same app started with METRICS_ADDRESS=off (nothing counted, no hook), on the same database, in
// the same run. Goal (issue 30): at most 5 % fewer requests per second, b/a ≥ 0.95.
import { startRealApp } from '../lib/context.ts';
import { defineScenario } from '../lib/types.ts';
import partnersMe from './partners-me.ts';

export default defineScenario({
  name: 'metrics-overhead',
  description: 'GET /v1/channel-partners/me with metrics (b) against the same app with METRICS_ADDRESS=off (a)',
  goals: { postgres: { minThroughputRatio: 0.95, maxP99Ratio: 1.5 }, pglite: { minThroughputRatio: 0.95, maxP99Ratio: 1.5 } },
  async setup(ctx) {
    const run = await partnersMe.setup(ctx);
    // The same database, and the real app's SECRET_KEY so that the partner's token is good on both.
    const off = await startRealApp(ctx.backend, { db: ctx.db, where: 'the real app’s', dispose: async () => {} }, { SECRET_KEY: ctx.services.config.SECRET_KEY, METRICS_ADDRESS: 'off' });
    return { ...run, baselineOrigin: off.origin, teardown: () => off.close() };
  },
});
