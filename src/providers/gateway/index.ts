// Which gateway holds the cards: chosen from configuration here and nowhere else. Stripe's SDK is loaded
// at its first call, not here (lazy-stripe-gateway.ts).
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { PaymentGateway } from './gateway.ts';
import { createLazyStripeGateway } from './lazy-stripe-gateway.ts';
import { createSandboxGateway } from './sandbox-gateway.ts';

export function createGateway(config: Config, deps: { db: Database; clock: Clock }): PaymentGateway {
  if (config.PAYMENT_GATEWAY === 'stripe') {
    return createLazyStripeGateway({ secretKey: config.STRIPE_SECRET_KEY!, publishableKey: config.STRIPE_PUBLISHABLE_KEY!, apiBase: config.STRIPE_API_BASE });
  }
  return createSandboxGateway({ db: deps.db, clock: deps.clock, publicBaseUrl: config.PUBLIC_BASE_URL });
}
