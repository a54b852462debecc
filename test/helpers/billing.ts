// Contacts with saved cards, made the way a partner and their customer make them: the contact through
// /v1/contacts, the card through a card link, the sandbox gateway's tokens endpoint and the hosted save call.
import assert from 'node:assert/strict';
import type { TestContext, TestPartner } from './context.ts';

export const cards = {
  succeeds: '4242 4242 4242 4242',
  declinesOnSave: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  doNotHonor: '4000 0000 0000 0341',
} as const;

export interface ContactBody {
  id: string;
  name: string;
  email: string | null;
  externalId: string | null;
  billingStatus: string;
  billingBlocked: boolean;
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

let counter = 0;

export async function createContact(t: TestContext, partner: TestPartner, body: Record<string, unknown> = {}): Promise<ContactBody> {
  counter += 1;
  const res = await t.app.inject({ method: 'POST', url: '/v1/contacts', headers: partner.headers, payload: { name: `Contact ${counter}`, ...body } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<ContactBody>();
}

/** The token at the end of a new card link's URL. */
export async function mintCardLink(t: TestContext, partner: TestPartner, contactId: string): Promise<{ token: string; url: string; expiresAt: string }> {
  const res = await t.app.inject({ method: 'POST', url: `/v1/contacts/${contactId}/card-link`, headers: partner.headers });
  assert.equal(res.statusCode, 201, res.body);
  const body = res.json<{ url: string; expiresAt: string }>();
  return { ...body, token: body.url.split('/c/')[1]! };
}

/** What the card page's script does with the gateway: card details in, a token out. */
/** A test card's expiry: December, four years on, so that it never becomes an expired card. */
export const cardExpiry = { expMonth: 12, expYear: new Date().getUTCFullYear() + 4 };

export async function tokenise(t: TestContext, number: string, extra: Record<string, unknown> = {}) {
  return t.app.inject({ method: 'POST', url: '/sandbox-gateway/v1/tokens', payload: { number, ...cardExpiry, cvc: '123', ...extra } });
}

/** The card page's whole submit: tokenise with the gateway, then hand PVS the token. */
export async function submitCard(t: TestContext, linkToken: string, number: string) {
  const tokenised = await tokenise(t, number);
  assert.equal(tokenised.statusCode, 200, tokenised.body);
  return t.app.inject({ method: 'POST', url: `/hosted/v1/card-links/${linkToken}`, payload: { paymentToken: tokenised.json<{ token: string }>().token } });
}

/** A contact with a saved card of the given behaviour. */
export async function billableContact(t: TestContext, partner: TestPartner, number: string = cards.succeeds): Promise<ContactBody> {
  const contact = await createContact(t, partner);
  const link = await mintCardLink(t, partner, contact.id);
  const saved = await submitCard(t, link.token, number);
  assert.equal(saved.statusCode, 200, saved.body);
  return { ...contact, ...saved.json<Partial<ContactBody>>() };
}

/** Runs every job that is due now, until none is left. */
export async function runDueJobs(t: TestContext): Promise<number> {
  const worker = t.services.createWorker();
  let total = 0;
  for (let n = await worker.drain(); n > 0; n = await worker.drain()) total += n;
  return total;
}

export async function eventsOf(t: TestContext, partnerId: string, typePrefix = 'contact.') {
  return t.services.db.query<{ type: string; payload: Record<string, unknown> }>(
    'SELECT type, payload FROM events WHERE partner_id = $1 AND type LIKE $2 ORDER BY id',
    [partnerId, `${typePrefix}%`],
  );
}
