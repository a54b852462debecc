// The client a partner creates once and shares: `new Pvs({ clientId, clientSecret, partnerId, baseUrl })`.
import { createApi } from './api.ts';
import { createBusinessLookups } from './resources/business-lookups.ts';
import { createApiClients, createChannelPartners } from './resources/channel-partners.ts';
import { createCharges } from './resources/charges.ts';
import { createContacts } from './resources/contacts.ts';
import { createDeedAnalyses } from './resources/deed-analyses.ts';
import { createMonitoring } from './resources/monitoring.ts';
import { createPayments } from './resources/payments.ts';
import { createVerifications } from './resources/verifications.ts';
import { createWebhookDestinations } from './resources/webhook-destinations.ts';
import { createWebhookNotifications } from './resources/webhook-notifications.ts';
import { createTokenSource } from './token.ts';
import { createTransport, type Fetch } from './transport.ts';
import { webhooks } from './webhooks.ts';

export interface PvsOptions {
  clientId: string;
  clientSecret: string;
  /** Your partner id (`ptn_…`), sent as X-Partner-Id. */
  partnerId: string;
  /** Where PVS answers, e.g. `https://api.pvs.example`. */
  baseUrl: string;
  /** Each attempt's limit (default 30 000 ms). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Defaults to the global fetch (Node 18 and later). */
  fetch?: Fetch;
}

export class Pvs {
  readonly businessLookups;
  readonly verifications;
  readonly deedAnalyses;
  readonly contacts;
  readonly charges;
  readonly payments;
  readonly webhookDestinations;
  readonly webhookNotifications;
  readonly monitoring;
  readonly channelPartners;
  readonly apiClients;
  /** Verifying deliveries needs no credentials: `Pvs.webhooks` works without a client too. */
  readonly webhooks = webhooks;
  static readonly webhooks = webhooks;

  constructor(options: PvsOptions) {
    for (const name of ['clientId', 'clientSecret', 'partnerId', 'baseUrl'] as const) {
      if (typeof options?.[name] !== 'string' || options[name] === '') throw new TypeError(`new Pvs(): ${name} is required`);
    }
    // Bound, so that a fetch taken from an object (a test's wrapper, undici's) keeps its `this`.
    const fetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const transport = createTransport({ baseUrl: options.baseUrl, fetch, timeoutMs: options.timeoutMs ?? 30_000, maxRetries: options.maxRetries ?? 2 });
    const tokens = createTokenSource({ transport, clientId: options.clientId, clientSecret: options.clientSecret });
    const api = createApi({ transport, tokens, partnerId: options.partnerId });
    this.businessLookups = createBusinessLookups(api);
    this.verifications = createVerifications(api);
    this.deedAnalyses = createDeedAnalyses(api, fetch);
    this.contacts = createContacts(api);
    this.charges = createCharges(api);
    this.payments = createPayments(api);
    this.webhookDestinations = createWebhookDestinations(api);
    this.webhookNotifications = createWebhookNotifications(api);
    this.monitoring = createMonitoring(api);
    this.channelPartners = createChannelPartners(api);
    this.apiClients = createApiClients(api);
  }
}
