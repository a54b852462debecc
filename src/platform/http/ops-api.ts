// The /ops/v1 operator API: PVS's own staff, not partners. Every route registered through this plugin
// needs an operator token from POST /ops/v1/token (never a partner's), checked on every request against
// the operator's current state, and is documented with that scheme in the operators' OpenAPI document
// (/ops/openapi.json; app.ts registers /ops/v1 in that document's scope, openapi.ts). The guard sets
// `request.operator`; there is no tenant here, since operators work across partners.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { bearer } from './partner-api.ts';
import { sendProblem } from './problem.ts';
import type { HttpApp } from './types.ts';

export type OpsApi = HttpApp;

/** Who is calling an /ops/v1 route or using the console; set by the ops guard as `request.operator`. */
export interface OperatorIdentity {
  operatorId: string;
  email: string;
}

/** What the guard needs of the operator service (modules/operators). */
export interface OperatorAuthenticator {
  /** The operator a bearer token stands for, or undefined. */
  authenticate(token: string): Promise<OperatorIdentity | undefined>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator; set on every /ops/v1 route behind opsApi before its handler runs. */
    operator: OperatorIdentity;
  }
}

export const operatorSecurityScheme = 'operatorBearer';

export function opsApi(deps: { operators: OperatorAuthenticator }, register: (api: OpsApi) => void) {
  return async function plugin(api: HttpApp) {
    // JSON only, as on /v1: a form or plain text would otherwise reach the body schema.
    api.removeContentTypeParser(['text/plain', 'application/x-www-form-urlencoded']);

    api.addHook('onRoute', (route) => {
      const schema = (route.schema ??= {}) as Record<string, unknown>;
      schema.security = [{ [operatorSecurityScheme]: [] }];
      schema.tags ??= ['operators'];
    });

    api.addHook('onRequest', operatorGuard(deps));

    register(api);
  };
}

/**
 * The check every /ops/v1 route behind opsApi makes, as an onRequest hook: a valid operator token, or 401.
 * Also what guards the operators' OpenAPI document in production (openapi.ts).
 */
export function operatorGuard(deps: { operators: OperatorAuthenticator }) {
  return async function requireOperator(request: FastifyRequest, reply: FastifyReply) {
    const token = bearer(request);
    const operator = token ? await deps.operators.authenticate(token) : undefined;
    if (!operator) {
      reply.header('www-authenticate', 'Bearer realm="pvs-ops"');
      return sendProblem(
        reply,
        new AppError(
          'UNAUTHENTICATED',
          token
            ? 'The operator token is invalid, expired, for another environment, or no longer valid for its operator (disabled, or the password changed)'
            : 'Send Authorization: Bearer <operator token> from POST /ops/v1/token',
        ),
      );
    }
    request.operator = operator;
  };
}
