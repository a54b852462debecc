// The company register served from the imported copy of ASIC's company dataset (`pvs registers
// import-asic FILE`): company facts without a call to ASIC, as fresh as the last import (ASIC publishes
// the dataset weekly). It knows no officers or shareholders: the dataset has none.
//
// Expected failures are values:
// - NOT_FOUND: the number is not a valid ACN, or the dataset has no company with it;
// - UNAVAILABLE: the database cannot be reached, or no dataset has been imported yet (every answer would
//   otherwise be a NOT_FOUND that is not true).
import { type Executor, isUnavailableError } from '../../../platform/db/database.ts';
import type { CompanyRecord, CompanyRegister, RegisterResult } from '../register.ts';
import * as repo from './asic-companies.repository.ts';
import { normaliseAcn } from './asic-fields.ts';

export function createAsicDatasetRegister(db: Executor): CompanyRegister {
  async function read<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; reason: 'UNAVAILABLE'; detail: string }> {
    try {
      return { ok: true, value: await fn() };
    } catch (error) {
      if (isUnavailableError(error)) return { ok: false, reason: 'UNAVAILABLE', detail: 'The ASIC company dataset cannot be read: the database is unavailable.' };
      throw error;
    }
  }

  return {
    async findCompany(acn: string): Promise<RegisterResult<CompanyRecord>> {
      const digits = acn.replace(/\s/g, '');
      const valid = /^\d{9}$/.test(digits) ? normaliseAcn(digits) : undefined;
      if (!valid?.ok) return { ok: false, reason: 'NOT_FOUND', detail: `'${acn.slice(0, 30)}' is not a valid 9-digit ACN.` };

      const found = await read(() => repo.findCompanyByAcn(db, valid.value));
      if (!found.ok) return found;
      const row = found.value;
      if (row) {
        return {
          ok: true,
          value: {
            acn: row.acn,
            name: row.name,
            type: row.type,
            class: row.class,
            subClass: row.sub_class,
            status: row.status,
            registeredOn: row.registered_on,
            deregisteredOn: row.deregistered_on,
            abn: row.abn,
          },
        };
      }
      const loaded = await read(() => repo.hasAnyCompany(db));
      if (!loaded.ok) return loaded;
      if (!loaded.value) return { ok: false, reason: 'UNAVAILABLE', detail: 'No ASIC company dataset has been imported yet (pvs registers import-asic FILE).' };
      return { ok: false, reason: 'NOT_FOUND', detail: `ACN ${valid.value} is not in the imported ASIC company dataset.` };
    },
  };
}
