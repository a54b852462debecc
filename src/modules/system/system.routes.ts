import { Type } from '@sinclair/typebox';
import { AppError } from '../../platform/errors.ts';
import { sendProblem } from '../../platform/http/problem.ts';
import type { HttpApp } from '../../platform/http/types.ts';

const Status = Type.Object({ status: Type.String({ description: '`ok` (alive) or `ready`.', examples: ['ok'] }) });

export function registerSystemRoutes(app: HttpApp, deps: { isReady: () => Promise<boolean> }): void {
  app.get('/health', { schema: { tags: ['system'], summary: 'The process is alive', operationId: 'getHealth', response: { 200: Status } } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/ready',
    { schema: { tags: ['system'], summary: 'The database is reachable and migrated', operationId: 'getReady', response: { 200: Status } } },
    async (_request, reply) => {
      const ready = await Promise.race([deps.isReady().catch(() => false), new Promise<boolean>((r) => setTimeout(r, 2_000, false).unref())]);
      if (!ready) return sendProblem(reply, new AppError('SERVICE_UNAVAILABLE', 'The database is unreachable or not migrated', { retryAfter: 5 }));
      return { status: 'ready' };
    },
  );
}
