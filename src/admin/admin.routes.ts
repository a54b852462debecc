// The loopback-only admin endpoint the `pvs` command uses while the server holds the embedded
// database. Authenticated with a token derived from SECRET_KEY, which only the machine's own files hold.
import { Type } from '@sinclair/typebox';
import { constantTimeEqual } from '../platform/crypto.ts';
import { AppError } from '../platform/errors.ts';
import type { HttpApp } from '../platform/http/types.ts';
import { optionalBodyKeyword } from '../platform/http/validation.ts';
import type { Services } from '../services.ts';
import { checkAdminInput } from './admin-input.ts';
import { adminCommands } from './commands.ts';
import { adminToken } from './admin-token.ts';

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

// Each command checks its own input below; the route only says that the body is a JSON object.
const CommandInput = Type.Object({}, { additionalProperties: true, [optionalBodyKeyword]: true });

export function registerAdminRoutes(app: HttpApp, services: Services): void {
  // The command line derives its token from SECRET_KEY; one whose .env still has the key before a
  // rotation (now in PREVIOUS_SECRET_KEYS) is let in too.
  const accepted = [services.config.SECRET_KEY, ...services.config.PREVIOUS_SECRET_KEYS].map((key) => `Bearer ${adminToken(key)}`);

  app.post<{ Params: { name: string } }>(
    '/admin/v1/commands/:name',
    {
      schema: { hide: true, body: CommandInput },
      // Before the body is read or validated: to anyone else the route does not exist.
      onRequest: (request, _reply, done) => {
        const allowed = loopback.has(request.socket.remoteAddress ?? '') && accepted.some((token) => constantTimeEqual(request.headers.authorization ?? '', token));
        done(allowed ? undefined : new AppError('NOT_FOUND', `No route POST ${request.url.split('?')[0]}`));
      },
    },
    async (request) => {
      // Own entries only: `toString` or `__proto__` name no command.
      const command = Object.hasOwn(adminCommands, request.params.name) ? adminCommands[request.params.name] : undefined;
      if (!command) throw new AppError('NOT_FOUND', `No admin command ${request.params.name}`);
      const input = request.body ?? {};
      const problem = checkAdminInput(command, input);
      if (problem) throw new AppError('VALIDATION_ERROR', problem.message, { pointer: problem.pointer });
      return command.run(services, input);
    },
  );
}
