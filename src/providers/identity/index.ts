// Which identity provider keeps people's details and runs their checks: chosen from configuration here
// and nowhere else. `onfido` is the real one (onfido/, README.md); loadConfig refuses the sandbox in
// production, where the default is `none`: no provider, every call answering unavailable, so the rest of
// the service runs and verification says it cannot be done.
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import type { Database } from '../../platform/db/database.ts';
import type { IdentityProvider, IdentityUnavailable } from './identity-provider.ts';
import { createOnfidoIdentity } from './onfido/onfido-identity.ts';
import { createSandboxIdentity } from './sandbox-identity.ts';

export function createIdentityProvider(config: Config, deps: { db: Database; clock: Clock; keyRing: Pick<KeyRing, 'sealer'> }): IdentityProvider {
  switch (config.IDENTITY_PROVIDER) {
    case 'sandbox':
      return createSandboxIdentity({ db: deps.db, clock: deps.clock, sealer: deps.keyRing.sealer('sandbox-identity') });
    case 'onfido':
      // loadConfig requires the token, region and webhook token with IDENTITY_PROVIDER=onfido. The SDK
      // itself is loaded at the first call (onfido/onfido-client.ts).
      return createOnfidoIdentity({
        db: deps.db,
        clock: deps.clock,
        apiToken: config.ONFIDO_API_TOKEN!,
        region: config.ONFIDO_REGION!,
        webhookToken: config.ONFIDO_WEBHOOK_TOKEN!,
        ...(config.ONFIDO_API_URL ? { apiUrl: config.ONFIDO_API_URL } : {}),
      });
    case 'none':
      return noIdentityProvider;
  }
}

const notConfigured: IdentityUnavailable = { ok: false, kind: 'unavailable', message: 'No identity provider is configured (IDENTITY_PROVIDER=none)' };

/** No provider: nothing is kept and no check can run; every call says so, as an outage would. */
export const noIdentityProvider: IdentityProvider = {
  name: 'none',
  documentTypes: ['PASSPORT', 'DRIVER_LICENCE', 'MEDICARE'],
  disclosure: null,
  documentFields: 'ENTERED',
  createSubject: async () => notConfigured,
  saveDetails: async () => notConfigured,
  saveDocument: async () => notConfigured,
  saveSelfie: async () => notConfigured,
  missing: async () => notConfigured,
  verify: async () => notConfigured,
  evidence: async () => notConfigured,
  forget: async () => notConfigured,
};
