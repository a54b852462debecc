// The audit log: every decision and change people make in the console and the portal, with who made it
// and when, shown in the console. An entry is written in the same transaction as the change when the
// change's service offers one (pass `tx`), so a change is never left without its entry. Entries hold
// ids and the fields that changed; never a secret, a password or a person's details.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Executor } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import { toPage } from '../../platform/http/pagination.ts';
import * as repo from './audit.repository.ts';

export interface Actor {
  /** ADMIN: the `pvs` command on the machine (id `cli`), not a person signed in. */
  kind: 'OPERATOR' | 'PORTAL_USER' | 'ADMIN';
  id: string;
  email: string;
}

export interface AuditInput {
  actor: Actor;
  /** What was done, as a dotted verb: `verification.individual.decided`, `destination.secret_rotated`. */
  action: string;
  partnerId?: string;
  targetId?: string;
  detail?: Record<string, unknown>;
}

export interface AuditEntry {
  id: string;
  actor: Actor;
  action: string;
  partnerId: string | null;
  targetId: string | null;
  detail: Record<string, unknown>;
  createdAt: string;
}

export function createAuditService(deps: { db: Database; clock: Clock }) {
  return {
    /** Writes one entry, in `tx` when given. */
    async record(input: AuditInput, tx?: Executor): Promise<void> {
      const now = deps.clock.now();
      await repo.insertEntry(tx ?? deps.db, {
        id: newId('auditEntry', now.getTime()),
        actor_kind: input.actor.kind,
        actor_id: input.actor.id,
        actor_email: input.actor.email,
        partner_id: input.partnerId ?? null,
        action: input.action,
        target_id: input.targetId ?? null,
        detail: input.detail ?? {},
        created_at: now,
      });
    },

    /** The actions recorded so far, for a filter. */
    actions: () => repo.listActions(deps.db),

    async list(filter: { partnerId?: string; actorKind?: string; action?: string }, page: { limit: number; from: number }) {
      const rows = await repo.listEntries(deps.db, filter, page);
      return toPage(
        rows.map(
          (row): AuditEntry => ({
            id: row.id,
            actor: { kind: row.actor_kind, id: row.actor_id, email: row.actor_email },
            action: row.action,
            partnerId: row.partner_id,
            targetId: row.target_id,
            detail: row.detail,
            createdAt: row.created_at.toISOString(),
          }),
        ),
        page,
      );
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
