// What the tour's reader does in a browser, done over HTTP with the calls the hosted pages make: save a
// card on the card page, pay on the payment page, and, as each director and owner, go through the
// verification page with their own details. The test helpers that drive these pages take a TestContext
// whose `app.inject` answers in-process; here the same shape answers from the running server.
import assert from 'node:assert/strict';
import { submitCard } from '../helpers/billing.ts';
import type { TestContext } from '../helpers/context.ts';
import { linkToken, payWith } from '../helpers/payments.ts';
import { openLink, personDetails } from '../helpers/verifications.ts';
import { photo } from '../helpers/verifications.ts';
import { passport } from '../helpers/verifications.ts';

interface InjectOptions {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: Buffer | string | object;
}

/** Enough of a TestContext for the hosted-page helpers: `app.inject` over real HTTP. */
export function remote(baseUrl: string): TestContext {
  const inject = async ({ method, url, headers = {}, payload }: InjectOptions) => {
    const isJson = payload !== undefined && !Buffer.isBuffer(payload) && typeof payload === 'object';
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: isJson ? { 'content-type': 'application/json', ...headers } : headers,
      body: payload === undefined ? undefined : isJson ? JSON.stringify(payload) : (payload as Buffer | string),
    });
    const body = await response.text();
    return { statusCode: response.status, body, json: <T>() => JSON.parse(body) as T };
  };
  return { app: { inject } } as unknown as TestContext;
}

/** The card page: the sandbox test card that saves. */
export async function saveCard(t: TestContext, cardUrl: string): Promise<void> {
  const saved = await submitCard(t, cardUrl.split('/c/')[1]!, '4242424242424242');
  assert.equal(saved.statusCode, 200, saved.body);
}

/** The payment page: the sandbox test card that pays. */
export async function pay(t: TestContext, paymentUrl: string): Promise<void> {
  const paid = await payWith(t, linkToken(paymentUrl), '4242424242424242');
  assert.equal(paid.statusCode, 200, paid.body);
}

export interface Invited {
  verificationUrl: string;
  /** The person's own details, as they would type them. */
  givenNames: string;
  familyName: string;
  dateOfBirth: string | null;
}

/** One person's whole visit: consent, their details, a passport photo, a selfie, submit. */
export async function verifyAsPerson(t: TestContext, person: Invited): Promise<void> {
  const session = await openLink(t, person.verificationUrl.split('/v/')[1]!);
  const [firstName, ...middle] = person.givenNames.split(' ');
  const details = personDetails(person.familyName, {
    firstName: firstName!,
    middleName: middle.join(' ') || undefined,
    ...(person.dateOfBirth ? { dateOfBirth: person.dateOfBirth } : {}),
  });
  for (const res of [await session.details(details), await session.document(passport, { front: photo() }), await session.selfie()]) {
    assert.equal(res.statusCode, 200, res.body);
  }
  const submitted = await session.submit();
  assert.equal(submitted.statusCode, 200, submitted.body);
}
