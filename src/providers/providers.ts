// The providers, each chosen from configuration by its own index.ts, and each call timed and traced
// (pvs_provider_request_duration_seconds; a span per call when tracing is on).
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/database.ts';
import type { KeyRing } from '../platform/keys/key-ring.ts';
import type { Logger } from '../platform/logger.ts';
import { instrumentProvider } from '../platform/metrics/instrument-provider.ts';
import type { Metrics } from '../platform/metrics/metrics.ts';
import { createExtractor } from './extractor/index.ts';
import type { PaymentGateway } from './gateway/gateway.ts';
import { createGateway } from './gateway/index.ts';
import { createIdentityProvider } from './identity/index.ts';
import { createRegisters, type Registers } from './register/index.ts';
import { createStorage } from './storage/index.ts';

export interface ProviderWrappers {
  /** Wraps the configured gateway (crash tests stop a worker right after the gateway answered). */
  wrapGateway?: (gateway: PaymentGateway) => PaymentGateway;
  /** Wraps the configured registers (tests make a source fail or stall at a chosen call). */
  wrapRegisters?: (registers: Registers) => Registers;
}

const same = <T>(value: T) => value;

export function createProviders(config: Config, deps: { db: Database; clock: Clock; logger: Logger; metrics: Metrics; keyRing: KeyRing }, wrappers: ProviderWrappers = {}) {
  const { db, clock, logger, metrics, keyRing } = deps;
  const timed = <T extends object>(name: string, provider: T) => instrumentProvider(name, provider, metrics);
  const chosenRegisters = (wrappers.wrapRegisters ?? same)(createRegisters(config, { db, clock, logger: logger.child({ module: 'registers' }) }));
  return {
    gateway: timed('gateway', (wrappers.wrapGateway ?? same)(createGateway(config, { db, clock }))),
    registers: {
      abn: timed('registers.abn', chosenRegisters.abn),
      companies: timed('registers.companies', chosenRegisters.companies),
      reports: timed('registers.reports', chosenRegisters.reports),
    } satisfies Registers,
    identity: timed('identity', createIdentityProvider(config, { db, clock, keyRing })),
    storage: timed('storage', createStorage(config, { clock, keyRing })),
    extractor: timed('extractor', createExtractor(config)),
  };
}
