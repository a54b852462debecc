// Idempotency-Key on creating POSTs. The key's record is written in the same transaction as what the
// request creates, so a retry after a crash or a lost response either finds the committed answer and
// replays it, or finds nothing and runs again: never a duplicate, never a half-written record.
// Two concurrent requests with one key: the second's INSERT waits on the first's row and then
// replays it. Error answers are not stored (nothing was created), so the client may retry them.
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tenant } from '../tenancy.ts';
import type { Clock } from '../clock.ts';
import type { Database, Tx } from '../db/database.ts';
import { AppError } from '../errors.ts';

export const idempotencyRetentionHours = 24;

export const IdempotencyHeaders = {
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7E]+$',
      'x-message': 'must be 1–255 visible ASCII characters without spaces',
      description: 'Makes a retry safe: a repeat with the same body returns the first response (kept 24 h).',
      examples: ['order-1042'],
    }),
  ),
};

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}


export interface Idempotency {
  /** Runs a create in one transaction with its idempotency record, answering `status`; a repeat replays. */
  run<T>(request: FastifyRequest, reply: FastifyReply, status: number, create: (tx: Tx) => Promise<T>, options?: RunOptions<T>): Promise<T>;
  /**
   * The same, for a key that does not come from a header (a portal form's own key): `requestHash` says
   * what was asked, so the key sent again with something else is IDEMPOTENCY_KEY_REUSED.
   */
  once<T>(tenant: Tenant, key: string, requestHash: string, status: number, create: (tx: Tx) => Promise<T>, options?: RunOptions<T>): Promise<Outcome<T>>;
}

export interface RunOptions<T> {
  /** What to keep for replays; a response holding a secret keeps a copy without it. */
  stored?: (body: T) => unknown;
}

/** A first run answers the create's own value; a replay answers what `stored` kept of it. */
export type Outcome<T> = { replay: false; status: number; body: T } | { replay: true; status: number; body: unknown };

export function requestHashOf(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${JSON.stringify(canonical(body ?? null))}`).digest('hex');
}

export function createIdempotency(deps: { db: Database; clock: Clock }): Idempotency {
  async function once<T>(tenant: Tenant, key: string, hash: string, status: number, create: (tx: Tx) => Promise<T>, options: RunOptions<T> = {}): Promise<Outcome<T>> {
    return deps.db.transaction(async (tx): Promise<Outcome<T>> => {
      const now = deps.clock.now();
      const expiresAt = new Date(now.getTime() + idempotencyRetentionHours * 3600_000);
      // An expired record counts as absent: the insert takes its place.
      const claimed = await tx.query(
        `INSERT INTO idempotency_keys (partner_id, key, request_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (partner_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, response_status = NULL,
           response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= $4
         RETURNING key`,
        [tenant.partnerId, key, hash, now, expiresAt],
      );
      if (claimed.length === 0) {
        const [previous] = await tx.query<{ request_hash: string; response_status: number; response_body: unknown }>(
          'SELECT request_hash, response_status, response_body FROM idempotency_keys WHERE partner_id = $1 AND key = $2',
          [tenant.partnerId, key],
        );
        if (!previous || previous.request_hash !== hash) {
          throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request; use a new key for a new request', {
            pointer: 'header:Idempotency-Key',
          });
        }
        return { replay: true, status: previous.response_status, body: previous.response_body };
      }
      const body = await create(tx);
      // Held (Queryable.write): it goes with the create's own held writes, in one statement.
      await tx.write('UPDATE idempotency_keys SET response_status = $3, response_body = $4 WHERE partner_id = $1 AND key = $2', [
        tenant.partnerId,
        key,
        status,
        JSON.stringify(options.stored ? options.stored(body) : body),
      ]);
      return { replay: false, status, body };
    });
  }

  return {
    once,

    async run<T>(request: FastifyRequest, reply: FastifyReply, status: number, create: (tx: Tx) => Promise<T>, options: RunOptions<T> = {}): Promise<T> {
      const key = request.headers['idempotency-key'];
      if (key !== undefined && (typeof key !== 'string' || !/^[\x21-\x7E]{1,255}$/.test(key))) {
        throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 1 to 255 visible ASCII characters', { pointer: 'header:Idempotency-Key' });
      }
      if (key === undefined) {
        reply.code(status);
        return deps.db.transaction(create);
      }
      const outcome = await once(request.tenant, key, requestHashOf(request.method, request.url.split('?')[0]!, request.body), status, create, options);
      if (outcome.replay) reply.header('idempotent-replayed', 'true');
      reply.code(outcome.status);
      // A replay answers the stored body, which is what the route sends.
      return outcome.body as T;
    },
  };
}

export async function purgeIdempotencyKeys(db: Database, now: Date): Promise<number> {
  const rows = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= $1 RETURNING key', [now]);
  return rows.length;
}
