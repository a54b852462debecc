// How a portal page makes a change (the API client, destination and delivery pages use it): every change
// is written to the audit log with who made it, and a form whose answer shows a secret takes effect once.
//
// Why "once": a secret is shown in the POST's own answer (never stored, never in a redirect), so reloading
// that answer sends the form again, and a browser does so without asking. Each such form carries a random
// `formKey`; it is used as an Idempotency-Key through the same mechanism the /v1 API uses, so a second
// sending of the form finds the first one's record and answers "already done" without a new secret.
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../../platform/db/database.ts';
import { AppError, type FieldProblem } from '../../platform/errors.ts';
import { requestHashOf } from '../../platform/http/idempotency.ts';
import { formOf, tenantOfViewer, viewerOf } from '../area.ts';
import type { FieldError } from '../ui.ts';
import type { PortalDeps } from './portal-deps.ts';

/** A fresh key for a form that must take effect once; a new one with every showing of the form. */
export function newFormKey(): string {
  return randomBytes(18).toString('base64url');
}

/** Writes the audit entry of a change made by the page's viewer, in `tx` when the change has one. */
export async function recordChange(
  deps: Pick<PortalDeps, 'audit'>,
  request: FastifyRequest,
  change: { action: string; targetId?: string; detail?: Record<string, unknown> },
  tx?: Tx,
): Promise<void> {
  const viewer = viewerOf(request);
  await deps.audit.record(
    { actor: { kind: 'PORTAL_USER', id: viewer.accountId, email: viewer.email }, partnerId: tenantOfViewer(request).partnerId, ...change },
    tx,
  );
}

export type OnceResult<T, S> = { first: true; value: T } | { first: false; earlier: S | undefined };

/**
 * Runs `make` in one transaction with the record of the form's key. Sent again with the same key it
 * runs nothing and answers what `stored` kept of the first answer (never the secret).
 */
export async function runOnce<T, S>(
  deps: Pick<PortalDeps, 'idempotency' | 'db'>,
  request: FastifyRequest,
  make: (tx: Tx) => Promise<T>,
  stored: (value: T) => S,
): Promise<OnceResult<T, S>> {
  const fields = formOf(request);
  const tenant = tenantOfViewer(request);
  const key = /^[A-Za-z0-9_-]{16,64}$/.test(fields.formKey ?? '') ? `portal-form:${fields.formKey}` : undefined;
  // A form without its key (not one of ours) still works; it is only not protected from a second sending.
  if (!key) return { first: true, value: await deps.db.transaction(make) };
  try {
    const outcome = await deps.idempotency.once(tenant, key, requestHashOf('POST', request.url.split('?')[0]!, fields), 200, make, { stored });
    return outcome.replay ? { first: false, earlier: outcome.body as S } : { first: true, value: outcome.body };
  } catch (error) {
    // The same key with other fields: the form was sent, then changed and sent again from a stale page.
    if (error instanceof AppError && error.code === 'IDEMPOTENCY_KEY_REUSED') return { first: false, earlier: undefined };
    throw error;
  }
}

/** The field errors of a service's VALIDATION_ERROR: pointer `/url` is the field named `url`. */
export function fieldErrorsOf(error: unknown, messages: Record<string, (message: string) => string> = {}): FieldError[] | undefined {
  if (!(error instanceof AppError) || error.code !== 'VALIDATION_ERROR') return undefined;
  const problems: FieldProblem[] = error.errors ?? [{ pointer: '', message: error.message }];
  return problems.map((p) => {
    const name = p.pointer.replace(/^\//, '').split('/')[0] ?? '';
    return { name, message: messages[name]?.(p.message) ?? p.message };
  });
}
