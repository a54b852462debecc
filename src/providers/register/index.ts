// Which business registers a lookup reads: chosen from configuration here and nowhere else.
//   sandbox: one simulation answers the ABN register, the company register and the UBO report (§13 values).
//   live:    ABR ABN Lookup for the ABN register, the imported ASIC company dataset for the company register,
//            and no UBO-report provider yet: officers and ownership answer UNAVAILABLE, which a lookup
//            reports as such (ownershipSource UNAVAILABLE) rather than inventing an answer.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Executor } from '../../platform/db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import { createAbrClient } from './abr-client.ts';
import { createAsicDatasetRegister } from './asic-dataset/asic-dataset-register.ts';
import type { OwnershipReportProvider } from './ownership-report.ts';
import type { AbnRegister, CompanyRegister } from './register.ts';
import { createSandboxRegister } from './sandbox-register.ts';

export interface Registers {
  abn: AbnRegister;
  companies: CompanyRegister;
  reports: OwnershipReportProvider;
}

export function createRegisters(config: Config, deps: { db: Executor; clock: Clock; logger: Logger }): Registers {
  if (config.REGISTERS === 'live') {
    return {
      abn: createAbrClient({ guid: config.ABR_GUID!, baseUrl: config.ABR_BASE_URL, logger: deps.logger }),
      companies: createAsicDatasetRegister(deps.db),
      reports: noReportProvider,
    };
  }
  const sandbox = createSandboxRegister({ clock: deps.clock });
  return { abn: sandbox, companies: sandbox, reports: sandbox };
}

const notConfigured = { ok: false, reason: 'UNAVAILABLE', detail: 'No UBO-report provider is configured for the live registers.' } as const;

/** The live registers' UBO report until a commercial provider is contracted: always unavailable, never empty. */
export const noReportProvider: OwnershipReportProvider = {
  officers: async () => notConfigured,
  ownership: async () => notConfigured,
  personDetails: async () => notConfigured,
};
