// GET /v1/channel-partners/me: the cheapest authenticated call, so what it costs over (a) is the
// fixed price of the /v1 pipeline (token check, X-Partner-Id check, rate limit, header validation,
// helmet, hooks, response serialisation) that every partner call pays.
import type { PartnerRow } from '../../src/modules/partners/partners.repository.ts';
import { defineScenario } from '../lib/types.ts';

export default defineScenario({
  name: 'partners-me',
  description: 'GET /v1/channel-partners/me vs one primary-key SELECT on partners',
  async setup(ctx) {
    const partner = await ctx.partner({ name: 'Bench partner' });
    return {
      // Both servers get the same bytes; (a) ignores the token and takes the id from the header.
      request: { path: '/v1/channel-partners/me', headers: partner.headers },
      baseline: {
        url: '/v1/channel-partners/me',
        async handler(request, reply) {
          const rows = await ctx.db.query<PartnerRow>('SELECT id, name, environment, monitoring_eligible, created_at FROM partners WHERE id = $1', [
            request.headers['x-partner-id'],
          ]);
          const row = rows[0];
          if (!row) return reply.code(404).send({ error: 'not found' });
          return { id: row.id, name: row.name, environment: row.environment, monitoringEligible: row.monitoring_eligible, createdAt: row.created_at.toISOString() };
        },
      },
      check(_server, _status, body) {
        const parsed = JSON.parse(body) as { id?: string };
        return parsed.id === partner.partnerId ? undefined : `expected partner ${partner.partnerId}, got ${body.slice(0, 200)}`;
      },
    };
  },
});
