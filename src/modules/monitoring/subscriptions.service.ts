// Switching monitoring on and off for a contact. Enabling (or changing what is screened) queues the
// contact's first screening; `.enabled` is sent when that screening has run, `.disabled` at once.
import type { Clock } from '../../platform/clock.ts';
import type { Database, Tx } from '../../platform/db/database.ts';
import { AppError, fieldProblems, notFound, type FieldProblem } from '../../platform/errors.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Outbox } from '../../platform/outbox.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import * as contactsRepo from '../billing/contacts.repository.ts';
import { monitoringSubscriptionDisabled } from '../webhooks/events/monitoring.events.ts';
import { screenContactJob } from './monitoring.jobs.ts';
import * as repo from './monitoring.repository.ts';
import type { PutSubscriptionBody, Subscription } from './monitoring.schemas.ts';
import { product } from './screener.ts';
import { canonicalCoverage, sameCoverage } from './subjects.ts';

export interface SubscriptionDeps {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  queue: JobQueue;
  isEligible(tenant: Tenant): Promise<boolean>;
  sealDateOfBirth(dateOfBirth: string): string;
  openDateOfBirth(sealed: string): string;
}

export function createSubscriptionService(deps: SubscriptionDeps) {
  const { db, clock } = deps;
  const dateOfBirthOf = (row: Pick<repo.SubscriptionRow, 'date_of_birth_sealed'>) => (row.date_of_birth_sealed ? deps.openDateOfBirth(row.date_of_birth_sealed) : null);

  function toSubscription(contactId: string, row: repo.SubscriptionRow | undefined): Subscription {
    if (!row) {
      return {
        contactId,
        enabled: false,
        status: 'DISABLED',
        errorCode: null,
        coverage: [],
        observedCoverage: null,
        screenAs: 'ANY',
        dateOfBirth: null,
        countries: [],
        listVersion: null,
        lastScreenedAt: null,
        enabledAt: null,
        disabledAt: null,
        updatedAt: null,
      };
    }
    return {
      contactId,
      enabled: row.enabled,
      status: row.status,
      errorCode: row.error_code,
      coverage: row.coverage,
      observedCoverage: row.observed_coverage,
      screenAs: row.screen_as,
      dateOfBirth: dateOfBirthOf(row),
      countries: row.countries,
      listVersion: row.screened_version,
      lastScreenedAt: row.last_screened_at?.toISOString() ?? null,
      enabledAt: row.enabled_at?.toISOString() ?? null,
      disabledAt: row.disabled_at?.toISOString() ?? null,
      updatedAt: row.updated_at.toISOString(),
    };
  }

  async function requireEligible(tenant: Tenant): Promise<void> {
    if (!(await deps.isEligible(tenant))) {
      throw new AppError('FORBIDDEN', 'Monitoring is available only to partners eligible for it; ask PVS to enable it for your account');
    }
  }

  async function ownContact(tx: Tx, tenant: Tenant, contactId: string) {
    const contact = await contactsRepo.findContact(tx, tenant, contactId, { lock: true });
    if (!contact) throw notFound(`Contact ${contactId}`);
    return contact;
  }

  function checkBody(body: PutSubscriptionBody): void {
    const problems: FieldProblem[] = [];
    if (body.enabled && body.coverage === undefined) problems.push({ pointer: '/coverage', message: 'is required when enabled is true' });
    if (body.dateOfBirth !== undefined && body.screenAs === 'BUSINESS') problems.push({ pointer: '/dateOfBirth', message: 'is not allowed with screenAs BUSINESS: a business has no date of birth' });
    if (problems.length > 0) throw fieldProblems(problems);
  }

  return {
    async get(tenant: Tenant, contactId: string): Promise<Subscription> {
      await requireEligible(tenant);
      if (!(await contactsRepo.findContact(db, tenant, contactId))) throw notFound(`Contact ${contactId}`);
      return toSubscription(contactId, await repo.findSubscription(db, tenant, contactId));
    },

    async put(tenant: Tenant, contactId: string, body: PutSubscriptionBody): Promise<Subscription> {
      await requireEligible(tenant);
      checkBody(body);
      return db.transaction(async (tx) => {
        const contact = await ownContact(tx, tenant, contactId);
        const existing = await repo.findSubscription(tx, tenant, contactId, { lock: true });
        const now = clock.now();
        if (!body.enabled) {
          if (!existing?.enabled) return toSubscription(contactId, existing);
          await disable(tx, existing, now);
          return toSubscription(contactId, await repo.findSubscription(tx, tenant, contactId));
        }
        if (contact.archived_at) throw new AppError('INVALID_STATE', `Contact ${contactId} is ARCHIVED and cannot be monitored`);

        const wanted = {
          coverage: canonicalCoverage(body.coverage!),
          // Not said: people and businesses alike, so that a listed person is never missed (decision 127).
          screen_as: body.screenAs ?? 'ANY',
          dateOfBirth: body.dateOfBirth ?? null,
          countries: [...(body.countries ?? [])].sort(),
        };
        const unchanged =
          existing?.enabled &&
          sameCoverage(existing.coverage, wanted.coverage) &&
          existing.screen_as === wanted.screen_as &&
          dateOfBirthOf(existing) === wanted.dateOfBirth &&
          existing.countries.join() === wanted.countries.join();
        if (unchanged) return toSubscription(contactId, existing);

        await repo.saveSubscription(tx, {
          contact_id: contactId,
          partner_id: tenant.partnerId,
          enabled: true,
          status: 'PENDING',
          error_code: null,
          coverage: wanted.coverage,
          observed_coverage: existing?.observed_coverage ?? null,
          screen_as: wanted.screen_as,
          date_of_birth_sealed: wanted.dateOfBirth === null ? null : deps.sealDateOfBirth(wanted.dateOfBirth),
          countries: wanted.countries,
          // Kept: the screening compares what was screened with what is now, and screens only what changed.
          screened_version: existing?.screened_version ?? null,
          screened_subject: existing?.screened_subject ?? null,
          last_screened_at: existing?.last_screened_at ?? null,
          enabled_at: existing?.enabled ? existing.enabled_at : now,
          disabled_at: null,
          created_at: existing?.created_at ?? now,
          updated_at: now,
        });
        await deps.queue.enqueue(tx, screenContactJob, { contactId });
        return toSubscription(contactId, await repo.findSubscription(tx, tenant, contactId));
      });
    },

    /** An archived contact is no longer monitored (contacts.service calls this in its transaction). */
    async contactArchived(tx: Tx, tenant: Tenant, contactId: string): Promise<void> {
      const existing = await repo.findSubscription(tx, tenant, contactId, { lock: true });
      if (existing?.enabled) await disable(tx, existing, clock.now());
    },

    /** A renamed contact is screened again, against the whole list (its subject changed). */
    async contactRenamed(tx: Tx, tenant: Tenant, contactId: string): Promise<void> {
      const existing = await repo.findSubscription(tx, tenant, contactId);
      if (existing?.enabled) await deps.queue.enqueue(tx, screenContactJob, { contactId });
    },
  };

  async function disable(tx: Tx, existing: repo.SubscriptionRow, now: Date): Promise<void> {
    await repo.saveSubscription(tx, { ...existing, enabled: false, status: 'DISABLED', error_code: null, disabled_at: now, updated_at: now });
    await deps.outbox.emit(tx, monitoringSubscriptionDisabled, { partnerId: existing.partner_id, occurredAt: now, payload: { contactId: existing.contact_id, product } });
  }
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
