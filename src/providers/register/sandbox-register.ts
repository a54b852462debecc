// The sandbox business registers: the ABN register, the company register and the UBO-report provider in
// one, answering the CONTRACT §13 test values exactly and every other valid number with a deterministic
// synthetic business (sandbox/sandbox-synthetic.ts). No network, no database: the registers' data is in
// code, and the only thing an instance keeps is its own call log.
//
// Failure modes, as values (never thrown):
// - ABN 85 900 000 004: NOT_FOUND from findByAbn.
// - ABN 66 900 000 005: UNAVAILABLE from findByAbn, every call.
// - ABN 51 824 753 556 (ATO's published example): UNAVAILABLE on the first two findByAbn calls for it in
//   each instance, then found, so a lookup job's retries can be tested. The count is per instance.
// - ACN 777 777 778: ownership() is UNAVAILABLE; the registers and officers() answer.
// - ACN 888 888 882 (listed) and 999 999 996 (deregistered): ownership() answers ok with graph null.
// What is thrown: an identifier that is not a valid ABN or ACN (spaces aside). The caller validates first,
// so that is a bug in the caller; the real clients answer NOT_FOUND for it instead.
import { isValidAbn, isValidAcn } from '../../platform/business-numbers.ts';
import { type Clock, systemClock } from '../../platform/clock.ts';
import type { Officer, OwnershipReport, OwnershipReportProvider, PersonDetails, RegisterParty } from './ownership-report.ts';
import type { AbnRecord, AbnRegister, CompanyRecord, CompanyRegister, RegisterResult } from './register.ts';
import { abnOfAcn, abnRecordOf, buildOwnershipReport, companyRecordOf, partiesOf, type SandboxCompany } from './sandbox/sandbox-model.ts';
import { personDetailsOf, syntheticBusiness, syntheticCompany } from './sandbox/sandbox-synthetic.ts';
import {
  abnNotOnRegister, abnRegisterUnavailable, abnTransientlyUnavailable, tableBusinesses, tableCompanies, tableCompaniesByAbn, tablePersons,
  transientFailures,
} from './sandbox/sandbox-table.ts';

const callLogSize = 1000;

export type SandboxRegisterMethod = 'findByAbn' | 'findByAcn' | 'findCompany' | 'officers' | 'ownership' | 'personDetails';

/** One call the sandbox answered: `id` is the ABN or ACN as digits, or the partyRefs joined by commas. */
export interface SandboxRegisterCall {
  method: SandboxRegisterMethod;
  id: string;
  at: Date;
}

export type SandboxRegister = AbnRegister & CompanyRegister & OwnershipReportProvider & {
  /** The latest calls this instance answered (at most the last 1 000), oldest first (a copy). */
  calls(): SandboxRegisterCall[];
};

type Failure = { ok: false; reason: 'NOT_FOUND' | 'UNAVAILABLE'; detail: string };

export function createSandboxRegister(options: { clock?: Clock } = {}): SandboxRegister {
  const clock = options.clock ?? systemClock;
  const log: SandboxRegisterCall[] = [];
  // Bounded: a sandbox server answers lookups for days, and the log is for tests and demos.
  const record = (method: SandboxRegisterMethod, id: string) => {
    log.push({ method, id, at: clock.now() });
    if (log.length > callLogSize) log.splice(0, log.length - callLogSize);
  };
  let transientCalls = 0;

  /** Table companies first; any other valid ACN is a synthetic company. */
  const companyOf = (acn: string): SandboxCompany => tableCompanies.get(acn) ?? syntheticCompany(acn);

  /** The company whose ABN this is, if it is a company's: its last nine digits are an ACN with this ABN. */
  function companyOfAbn(abn: string): SandboxCompany | undefined {
    const table = tableCompaniesByAbn.get(abn);
    if (table) return table;
    const acn = abn.slice(2);
    return isValidAcn(acn) && abnOfAcn(acn) === abn ? companyOf(acn) : undefined;
  }

  async function findByAbn(value: string): Promise<RegisterResult<AbnRecord>> {
    const abn = validAbn(value);
    record('findByAbn', abn);
    if (abn === abnNotOnRegister) return { ok: false, reason: 'NOT_FOUND', detail: `Sandbox ABN register: ABN ${abn} is not on the register (CONTRACT §13 test value).` };
    if (abn === abnRegisterUnavailable) return unavailable(`Sandbox ABN register: the register is unavailable for ABN ${abn} (CONTRACT §13 test value; every call).`);
    if (abn === abnTransientlyUnavailable && transientCalls < transientFailures) {
      transientCalls += 1;
      return unavailable(`Sandbox ABN register: the register is unavailable for ABN ${abn} (call ${transientCalls} of the first ${transientFailures} in this sandbox; later calls succeed).`);
    }
    const company = companyOfAbn(abn);
    if (company) return found(abnRecordOf(company));
    return found(structuredClone(tableBusinesses.get(abn) ?? syntheticBusiness(abn)));
  }

  async function findByAcn(value: string): Promise<RegisterResult<AbnRecord>> {
    const acn = validAcn(value);
    record('findByAcn', acn);
    return found(abnRecordOf(companyOf(acn)));
  }

  async function findCompany(value: string): Promise<RegisterResult<CompanyRecord>> {
    const acn = validAcn(value);
    record('findCompany', acn);
    return found(companyRecordOf(companyOf(acn)));
  }

  async function officers(value: string): Promise<RegisterResult<Officer[]>> {
    const acn = validAcn(value);
    record('officers', acn);
    return found(companyOf(acn).officers.map(({ party, role, appointedOn }) => ({ ...party, role, appointedOn })));
  }

  async function ownership(value: string): Promise<RegisterResult<OwnershipReport>> {
    const acn = validAcn(value);
    record('ownership', acn);
    const report = buildOwnershipReport(companyOf(acn), companyOf);
    if (report === 'UNAVAILABLE') return unavailable(`Sandbox UBO report: the ownership source is unavailable for ACN ${acn} (CONTRACT §13 test value; every call).`);
    return found(report);
  }

  async function personDetails(partyRefs: string[]): Promise<RegisterResult<PersonDetails[]>> {
    record('personDetails', partyRefs.join(','));
    const details = [...new Set(partyRefs)].flatMap((ref) => {
      const party = tablePersons.get(ref) ?? syntheticParty(ref);
      return party ? [personDetailsOf(party)] : [];
    });
    return found(details);
  }

  /** A synthetic company's person from `SBX-<ACN>-<n>`; undefined when there is no such person. */
  function syntheticParty(ref: string): RegisterParty | undefined {
    const acn = /^SBX-(\d{9})-\d+$/.exec(ref)?.[1];
    if (!acn || !isValidAcn(acn) || tableCompanies.has(acn)) return undefined;
    return partiesOf(syntheticCompany(acn)).find((p) => p.partyRef === ref);
  }

  return { findByAbn, findByAcn, findCompany, officers, ownership, personDetails, calls: () => log.map((call) => ({ ...call, at: new Date(call.at) })) };
}

function found<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

function unavailable(detail: string): Failure {
  return { ok: false, reason: 'UNAVAILABLE', detail };
}

function validAbn(value: string): string {
  const abn = value.replace(/ /g, '');
  if (!isValidAbn(abn)) throw new Error(`Sandbox register: '${value.slice(0, 30)}' is not a valid ABN; validate identifiers before asking the register.`);
  return abn;
}

function validAcn(value: string): string {
  const acn = value.replace(/ /g, '');
  if (!isValidAcn(acn)) throw new Error(`Sandbox register: '${value.slice(0, 30)}' is not a valid ACN; validate identifiers before asking the register.`);
  return acn;
}
