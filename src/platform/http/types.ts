import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Tenant } from '../tenancy.ts';

export type HttpApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated partner; set on every /v1 route before its handler runs. */
    tenant: Tenant;
    /** The partner's API client whose token made the call (the token's `sub`); set with `tenant`. */
    apiClientId: string;
    /** The problem code of an error answer (`RATE_LIMITED` …), set by sendProblem: metrics count some. */
    problemCode?: string;
  }
}
