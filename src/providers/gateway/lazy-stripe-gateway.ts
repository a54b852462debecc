// The Stripe gateway as the service holds it: the Stripe SDK (and stripe-gateway.ts with it) is loaded at
// the first call that needs it, once, not when the service starts (platform/lazy.ts). Until then the
// process has paid nothing for Stripe; the hosted card page's publishable key needs no SDK.
//
// A failed load is the gateway being unavailable, answered as Stripe's own outage is: the
// `{ ok: false, kind: 'unavailable' }` value, whose message (logged by the jobs that retry, never sent to
// a partner) says what failed to load. The next call loads again.
import { describeLoadError, lazy } from '../../platform/lazy.ts';
import type { GatewayUnavailable, PaymentGateway } from './gateway.ts';
import type { createStripeGateway, StripeGatewayOptions } from './stripe-gateway.ts';

/** What the gateway needs of stripe-gateway.ts, the module that loads the Stripe SDK. */
type StripeGatewayModule = { createStripeGateway: typeof createStripeGateway };

/** The SDK by name first, then our client of it (platform/lazy.ts says why). */
async function loadStripeGateway(): Promise<StripeGatewayModule> {
  await import('stripe');
  return import('./stripe-gateway.ts');
}

export function createLazyStripeGateway(options: StripeGatewayOptions, load: () => Promise<StripeGatewayModule> = loadStripeGateway): PaymentGateway {
  // Checked now, as the real client would at start: a missing key is configuration, not an outage.
  if (!options.secretKey) throw new Error('Stripe gateway: no secret key was configured.');
  const loadModule = lazy(load);
  // Made once, from the first load that succeeds (synchronously: two callers cannot both make one).
  let client: PaymentGateway | undefined;

  async function using<R>(operation: string, call: (gateway: PaymentGateway) => Promise<R>): Promise<R | GatewayUnavailable> {
    let module: StripeGatewayModule;
    try {
      module = await loadModule();
    } catch (error) {
      return { ok: false, kind: 'unavailable', message: `Stripe ${operation} failed: the Stripe client could not be loaded (${describeLoadError(error)})` };
    }
    client ??= module.createStripeGateway(options);
    return call(client);
  }

  return {
    name: 'stripe',
    hostedFields: () => ({ kind: 'stripe', publishableKey: options.publishableKey }),
    tokenise: (card) => using('tokenise', (g) => g.tokenise(card)),
    attach: (input) => using('attach', (g) => g.attach(input)),
    charge: (input) => using('charge', (g) => g.charge(input)),
    pay: (input) => using('pay', (g) => g.pay(input)),
    findCharge: (input) => using('charge search', (g) => g.findCharge(input)),
    refund: (input) => using('refund', (g) => g.refund(input)),
    detach: (input) => using('detach', (g) => g.detach(input)),
  };
}
