// Screening monitored contacts and recording what it found: the part the re-screen of a list version and
// the first screening of one contact share. Screening (CPU) happens outside any transaction; what it
// found is written in one transaction per batch that re-reads and locks the batch's subscriptions and
// drops any that changed meanwhile, so a result is never applied to a subscription it was not made for.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Clock } from '../../platform/clock.ts';
import type { Tx } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import type { Outbox } from '../../platform/outbox.ts';
import {
  monitoringAlertCreated,
  monitoringSubscriptionCoverageMismatch,
  monitoringSubscriptionEnabled,
  monitoringSubscriptionError,
} from '../webhooks/events/monitoring.events.ts';
import type { LoadedIndex } from '../screening/current-index.ts';
import type { ScreeningIndex, Match } from '../screening/matching/screening-index.ts';
import type { ScreeningService } from '../screening/screening.service.ts';
import * as repo from './monitoring.repository.ts';
import type { SubscriptionErrorCode } from './monitoring.schemas.ts';
import { observedCoverage, sameCoverage, subjectHash, subjectOf } from './subjects.ts';

export const product = 'SCREENING';

/** What the in-house engine's lists can cover; ADVERSE_MEDIA needs a source PVS does not have. */
const listCoverages = new Set<string>(['SANCTIONS', 'PEP']);

/** One list version as a run screens against it: the whole index, and indexes of what changed since earlier versions. */
export interface ScreeningRun {
  loaded: LoadedIndex;
  categories: ReadonlySet<string>;
  changesSince(version: number): Promise<ScreeningIndex>;
}

/** What screening one contact found; `matches` null when it was already screened against this version and is ACTIVE. */
interface Screened {
  row: repo.MonitoredRow;
  subject: string;
  matches: Match[] | null;
}

export interface BatchOutcome {
  screened: number;
  alerts: number;
}

export interface ScreenerDeps {
  clock: Clock;
  outbox: Outbox;
  screening: Pick<ScreeningService, 'changesSince' | 'searchIn'>;
  /** Opens a sealed date of birth. */
  openDateOfBirth(sealed: string): string;
  subjectKey: Buffer;
}

export function createScreener(deps: ScreenerDeps) {
  const dateOfBirthOf = (row: repo.MonitoredRow) => (row.date_of_birth_sealed ? deps.openDateOfBirth(row.date_of_birth_sealed) : null);

  // The categories a loaded version covers, worked out once per version (every contact's own screening starts a run).
  const coveredBy = new WeakMap<LoadedIndex['index'], ReadonlySet<string>>();
  function coveredCategories(loaded: LoadedIndex): ReadonlySet<string> {
    let categories = coveredBy.get(loaded.index);
    // Entries tagged ADVERSE_MEDIA in a sanctions list are not an adverse-media source (news monitoring),
    // which PVS does not have: only list categories count as covered.
    if (!categories) coveredBy.set(loaded.index, (categories = new Set(loaded.index.entries.flatMap((e) => e.categories).filter((c) => listCoverages.has(c)))));
    return categories;
  }

  function startRun(loaded: LoadedIndex): ScreeningRun {
    const categories = coveredCategories(loaded);
    const deltas = new Map<number, Promise<ScreeningIndex>>();
    return {
      loaded,
      categories,
      changesSince(version) {
        let delta = deltas.get(version);
        if (!delta) deltas.set(version, (delta = deps.screening.changesSince(loaded, version)));
        return delta;
      },
    };
  }

  /**
   * A contact screened before against an older version, with the same subject, is screened only
   * against what changed since: what the rest matched was found then. Anything else meets the whole list.
   */
  async function indexFor(run: ScreeningRun, row: repo.MonitoredRow, subject: string): Promise<ScreeningIndex | null> {
    if (row.screened_version === null || row.screened_subject !== subject) return run.loaded.index;
    if (row.screened_version >= run.loaded.version) return null;
    return run.changesSince(row.screened_version);
  }

  async function screen(run: ScreeningRun, rows: readonly repo.MonitoredRow[]): Promise<Screened[]> {
    const screened: Screened[] = [];
    for (const [i, row] of rows.entries()) {
      // Matching is synchronous; let requests through now and then on a node that also serves the API.
      if (i % 50 === 49) await yieldToEventLoop();
      const dateOfBirth = dateOfBirthOf(row);
      const subject = subjectHash(deps.subjectKey, row, dateOfBirth);
      const index = await indexFor(run, row, subject);
      // Screened against this version already: nothing to search, but a subscription waiting to be
      // confirmed (new, changed, or in error) is confirmed by this run.
      const matches = index ? deps.screening.searchIn(index, subjectOf(row, dateOfBirth)) : row.status === 'ACTIVE' ? null : [];
      screened.push({ row, subject, matches });
    }
    return screened;
  }

  /** Writes a screened batch: alerts never opened before, subscription states, and their events. */
  async function record(tx: Tx, run: ScreeningRun, screened: readonly Screened[]): Promise<BatchOutcome> {
    const now = deps.clock.now();
    const locked = new Map((await repo.lockMonitored(tx, screened.map((s) => s.row.contact_id))).map((r) => [r.contact_id, r]));
    // A subscription that changed since it was read (disabled, re-subscribed, screened by another job)
    // is left to whoever changed it: its own screening is queued or done.
    const current = screened.filter((s) => {
      const row = locked.get(s.row.contact_id);
      return row !== undefined && row.revision === s.row.revision;
    });

    const alerts: repo.NewAlert[] = current.flatMap((s) =>
      (s.matches ?? []).map((m) => ({
        id: newId('monitoringAlert', now.getTime()),
        partner_id: s.row.partner_id,
        contact_id: s.row.contact_id,
        list: m.entry.list,
        entry_id: m.entry.entryId,
        list_version: run.loaded.version,
        categories: m.entry.categories,
        score: m.score,
        matched_name: m.matchedName,
        features: m.features as unknown as Record<string, unknown>,
        created_at: now,
      })),
    );
    const inserted = await repo.insertNewAlerts(tx, alerts);

    const updates: repo.ScreenedUpdate[] = [];
    for (const s of current) {
      if (s.matches === null) continue;
      const { row } = s;
      const event = { partnerId: row.partner_id, occurredAt: now };
      const ids = { contactId: row.contact_id, product };
      const observed = observedCoverage(row.coverage, run.categories);
      const confirming = row.status !== 'ACTIVE';
      const coverageChanged = !sameCoverage(row.observed_coverage, observed);
      const complete = sameCoverage(row.coverage, observed);
      if (confirming || (coverageChanged && complete)) {
        await deps.outbox.emit(tx, monitoringSubscriptionEnabled, { ...event, payload: { ...ids, coverage: observed } });
      }
      if (!complete && (confirming || coverageChanged)) {
        await deps.outbox.emit(tx, monitoringSubscriptionCoverageMismatch, { ...event, payload: { ...ids, requestedCoverage: row.coverage, observedCoverage: observed } });
      }
      updates.push({
        contactId: row.contact_id,
        status: 'ACTIVE',
        errorCode: null,
        observedCoverage: observed,
        screenedVersion: run.loaded.version,
        screenedSubject: s.subject,
        screenedAt: now,
      });
    }
    for (const alert of alerts) {
      if (!inserted.has(alert.id)) continue;
      await deps.outbox.emit(tx, monitoringAlertCreated, {
        partnerId: alert.partner_id,
        occurredAt: now,
        payload: { contactId: alert.contact_id, product, monitoringAlertId: alert.id, categories: alert.categories, status: 'OPEN' },
      });
    }
    await repo.recordScreened(tx, updates, now);
    return { screened: current.length, alerts: inserted.size };
  }

  /** Puts subscriptions in ERROR (those not already there) and says so, once each. */
  async function markError(tx: Tx, rows: ReadonlyArray<Pick<repo.SubscriptionRow, 'contact_id' | 'partner_id'>>, code: SubscriptionErrorCode): Promise<void> {
    const now = deps.clock.now();
    await repo.markErrored(tx, rows.map((r) => r.contact_id), code, now);
    for (const row of rows) {
      await deps.outbox.emit(tx, monitoringSubscriptionError, { partnerId: row.partner_id, occurredAt: now, payload: { contactId: row.contact_id, product, errorCode: code } });
    }
  }

  return { startRun, screen, record, markError };
}

export type Screener = ReturnType<typeof createScreener>;
