// The loopback-only admin endpoint the `pvs` command uses while the server holds the embedded
// database. Authenticated with a token derived from SECRET_KEY, which only the machine's own files hold.
import { Value } from '@sinclair/typebox/value';
import { constantTimeEqual } from '../platform/crypto.ts';
import { AppError } from '../platform/errors.ts';
import type { HttpApp } from '../platform/http/types.ts';
import type { Services } from '../services.ts';
import { adminCommands } from './commands.ts';
import { adminToken } from './admin-token.ts';

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export function registerAdminRoutes(app: HttpApp, services: Services): void {
  const expected = `Bearer ${adminToken(services.config.SECRET_KEY)}`;

  app.post<{ Params: { name: string } }>('/admin/v1/commands/:name', { schema: { hide: true } }, async (request) => {
    if (!loopback.has(request.socket.remoteAddress ?? '') || !constantTimeEqual(request.headers.authorization ?? '', expected)) {
      throw new AppError('NOT_FOUND', `No route POST ${request.url}`);
    }
    const command = adminCommands[request.params.name];
    if (!command) throw new AppError('NOT_FOUND', `No admin command ${request.params.name}`);
    const input = request.body ?? {};
    if (!Value.Check(command.input, input)) {
      const first = Value.Errors(command.input, input).First();
      throw new AppError('VALIDATION_ERROR', `${first?.path || 'input'}: ${first?.message}`, { pointer: first?.path ?? '' });
    }
    return command.run(services, input);
  });
}
