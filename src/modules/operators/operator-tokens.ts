// Operator access tokens: ES256 JWTs signed with the same keys as partner tokens, told apart by their
// audience and scope. A partner token has no `aud` and carries `partner_id` and the partner scope, so it
// fails here; an operator token has neither, so the /v1 guard (tokens.service.ts) refuses it.
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { keyOfToken, type SigningKeys } from '../auth/signing-keys.ts';
import type { Clock } from '../../platform/clock.ts';

export const operatorAudience = 'pvs-ops';
export const operatorScope = 'ops';
/** Short-lived: an operator token reaches every partner's data. */
export const operatorTokenLifetimeSeconds = 15 * 60;

export interface OperatorTokenClaims {
  operatorId: string;
  /** Seconds since the epoch. */
  issuedAt: number;
}

export interface OperatorTokens {
  issue(operatorId: string): Promise<{ token: string; expiresIn: number }>;
  /** The claims of a valid operator token for this environment, or undefined. Says nothing of the operator's state. */
  verify(token: string): Promise<OperatorTokenClaims | undefined>;
}

export function createOperatorTokens(deps: { keys: SigningKeys; clock: Clock; issuer: string; environment: string }): OperatorTokens {
  return {
    async issue(operatorId) {
      const now = Math.floor(deps.clock.now().getTime() / 1000);
      const { kid, privateKey } = await deps.keys.active();
      const token = await new SignJWT({ scope: operatorScope, env: deps.environment })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .setIssuer(deps.issuer)
        .setAudience(operatorAudience)
        .setSubject(operatorId)
        .setIssuedAt(now)
        .setExpirationTime(now + operatorTokenLifetimeSeconds)
        .sign(privateKey);
      return { token, expiresIn: operatorTokenLifetimeSeconds };
    },

    async verify(token) {
      const key = await keyOfToken(deps.keys, token);
      if (!key) return undefined;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['ES256'],
          issuer: deps.issuer,
          audience: operatorAudience,
          requiredClaims: ['sub', 'iat', 'exp'],
          currentDate: deps.clock.now(),
        });
        const { scope, env, sub, iat, partner_id: partnerId } = payload as Record<string, unknown>;
        if (scope !== operatorScope || env !== deps.environment || partnerId !== undefined) return undefined;
        if (typeof sub !== 'string' || typeof iat !== 'number') return undefined;
        return { operatorId: sub, issuedAt: iat };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return undefined;
        throw error;
      }
    },
  };
}
