// What is screened for a monitored contact, and how PVS tells that it changed. The contact's name is
// screened as the subscription's screenAs says: against people and businesses alike (ANY, the default:
// a contact whose kind PVS does not know must not miss a listed person), or as one of them. A date of
// birth and any countries are evidence for or against a match, never a match alone; a date of birth
// counts for person entries only (docs/monitoring.md).
import { hmacHex } from '../../platform/crypto.ts';
import type { RescreenSubject } from '../screening/screening.service.ts';
import type { MonitoredRow } from './monitoring.repository.ts';
import { coverages, type Coverage } from './monitoring.schemas.ts';

export function subjectOf(row: MonitoredRow, dateOfBirth: string | null): RescreenSubject {
  if (row.screen_as === 'PERSON') {
    return { subjectId: row.contact_id, kind: 'person', person: { names: [row.name], dateOfBirth: dateOfBirth ?? undefined, countries: row.countries } };
  }
  if (row.screen_as === 'ANY') {
    return {
      subjectId: row.contact_id,
      kind: 'any',
      person: { names: [row.name], dateOfBirth: dateOfBirth ?? undefined, countries: row.countries },
      business: { name: row.name, countries: row.countries },
    };
  }
  return { subjectId: row.contact_id, kind: 'business', business: { name: row.name, countries: row.countries } };
}

/**
 * A keyed hash of everything screened: a contact whose name, kind, date of birth or countries changed
 * since its last screening is screened against the whole list again. Keyed, so that the stored value
 * cannot be tested against guessed names and dates of birth.
 */
export function subjectHash(key: Buffer, row: Pick<MonitoredRow, 'screen_as' | 'name' | 'countries'>, dateOfBirth: string | null): string {
  return hmacHex(key, JSON.stringify([row.screen_as, row.name, dateOfBirth, [...row.countries].sort()])).slice(0, 32);
}

/** What the loaded lists can cover of what was asked, in the canonical order. */
export function observedCoverage(requested: readonly Coverage[], available: ReadonlySet<string>): Coverage[] {
  return coverages.filter((c) => requested.includes(c) && available.has(c));
}

export function sameCoverage(a: readonly Coverage[] | null, b: readonly Coverage[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((c) => b.includes(c));
}

/** The canonical order, so that stored and sent coverage read the same whatever order was asked. */
export function canonicalCoverage(requested: readonly Coverage[]): Coverage[] {
  return coverages.filter((c) => requested.includes(c));
}
