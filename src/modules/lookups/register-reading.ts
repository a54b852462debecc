// What one lookup reads from the registers, in order, and how each answer decides what happens next. No
// database and no clock: the job stores what comes out, so a crash before that leaves nothing behind.
//
//   ABN given      → ABN register by ABN (not found: NOT_FOUND). With an ACN too, the ABN's company must be
//                    that ACN (else IDENTIFIER_MISMATCH).
//   company's ACN  → company register; with only an ACN given, also the ABN register by ACN. A company
//                    neither register knows is NOT_FOUND; one the company register lacks is named from the
//                    ABN register (SPEC's fallback).
//   officers       → FULL and ASIC_ONLY, companies only.
//   ownership      → FULL and UBO_ONLY. Businesses without an ACN have no ownership register at all.
//
// Only the registers themselves are required: their UNAVAILABLE stops the reading so that the job can try
// again. The UBO report is not: when it cannot be read, the lookup completes and says so (ownershipSource
// UNAVAILABLE, completeness UNKNOWN), which is the answer SPEC gives partners for that case.
import type { LookupScope } from '../billing/prices.ts';
import type { Registers } from '../../providers/register/index.ts';
import type { Officer, OwnershipReport } from '../../providers/register/ownership-report.ts';
import type { AbnRecord, CompanyRecord, EntityType } from '../../providers/register/register.ts';

export type OwnershipReading = { source: 'NOT_REQUESTED' | 'UNAVAILABLE' } | { source: 'AVAILABLE'; report: OwnershipReport };

export interface RegisterFacts {
  entity: { name: string; type: EntityType };
  abr: AbnRecord | null;
  asic: CompanyRecord | null;
  /** null when not requested (UBO_ONLY, or not a company) or when the report provider could not answer. */
  officers: Officer[] | null;
  officersSource: 'AVAILABLE' | 'UNAVAILABLE' | 'NOT_REQUESTED';
  ownership: OwnershipReading;
}

export type RegisterReading =
  | { kind: 'FOUND'; facts: RegisterFacts }
  | { kind: 'FAILED'; reason: 'NOT_FOUND' | 'IDENTIFIER_MISMATCH' }
  | { kind: 'UNAVAILABLE'; detail: string };

const unavailable = (detail: string | undefined): RegisterReading => ({ kind: 'UNAVAILABLE', detail: detail ?? 'the register did not answer' });

export async function readRegisters(registers: Registers, lookup: { abn: string | null; acn: string | null; scope: LookupScope }): Promise<RegisterReading> {
  let abr: AbnRecord | null = null;
  if (lookup.abn) {
    const found = await registers.abn.findByAbn(lookup.abn);
    if (!found.ok) return found.reason === 'NOT_FOUND' ? { kind: 'FAILED', reason: 'NOT_FOUND' } : unavailable(found.detail);
    abr = found.value;
    if (lookup.acn && abr.acn !== lookup.acn) return { kind: 'FAILED', reason: 'IDENTIFIER_MISMATCH' };
  }

  const acn = lookup.acn ?? abr?.acn ?? null;
  let asic: CompanyRecord | null = null;
  if (acn) {
    const company = await registers.companies.findCompany(acn);
    if (!company.ok && company.reason === 'UNAVAILABLE') return unavailable(company.detail);
    asic = company.ok ? company.value : null;
    if (!abr) {
      const byAcn = await registers.abn.findByAcn(acn);
      if (!byAcn.ok && byAcn.reason === 'UNAVAILABLE') return unavailable(byAcn.detail);
      abr = byAcn.ok ? byAcn.value : null;
    }
  }
  if (!abr && !asic) return { kind: 'FAILED', reason: 'NOT_FOUND' };

  let officers: Officer[] | null = null;
  let officersSource: RegisterFacts['officersSource'] = 'NOT_REQUESTED';
  if (acn && lookup.scope !== 'UBO_ONLY') {
    const read = await registers.reports.officers(acn);
    officersSource = read.ok || read.reason === 'NOT_FOUND' ? 'AVAILABLE' : 'UNAVAILABLE';
    officers = read.ok ? read.value : read.reason === 'NOT_FOUND' ? [] : null;
  }

  let ownership: OwnershipReading = { source: 'NOT_REQUESTED' };
  if (lookup.scope !== 'ASIC_ONLY') {
    if (!acn) ownership = { source: 'UNAVAILABLE' };
    else {
      const read = await registers.reports.ownership(acn);
      if (read.ok) ownership = { source: 'AVAILABLE', report: read.value };
      // The source answered that it holds nothing for this company: a read with no graph.
      else if (read.reason === 'NOT_FOUND') ownership = { source: 'AVAILABLE', report: { graph: null, persons: {} } };
      else ownership = { source: 'UNAVAILABLE' };
    }
  }

  const entity = { name: asic?.name ?? abr!.entityName, type: abr?.entityType ?? 'COMPANY' };
  return { kind: 'FOUND', facts: { entity, abr, asic, officers, officersSource, ownership } };
}
