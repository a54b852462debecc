// A verification as a partner and a person drive it through the HTTP API: a request, its links, and the
// hosted JSON API's steps with a session token (multipart forms built here, as a browser sends them).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sampleJpeg, samplePng } from '../fixtures/images.ts';
import { runDueJobs } from './billing.ts';
import type { TestContext, TestPartner } from './context.ts';
import { settledLookup } from './lookups.ts';

export interface FormFile {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

/** A multipart/form-data body, as a browser's FormData sends it. */
export function multipartForm(fields: Record<string, string>, files: Record<string, FormFile> = {}): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----pvs${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, file] of Object.entries(files)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`), file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const photo = (bytes: Buffer = sampleJpeg(), filename = 'photo.jpg'): FormFile => ({ bytes, filename, contentType: 'image/jpeg' });
export const pngPhoto = (): FormFile => ({ bytes: samplePng(), filename: 'photo.png', contentType: 'image/png' });

export interface PersonDetailsBody {
  firstName: string;
  middleName?: string;
  lastName: string;
  dateOfBirth: string;
  address: { line1: string; locality: string; state: string; postcode: string; country: string };
  email?: string;
  phone?: string;
}

export function personDetails(lastName: string, overrides: Partial<PersonDetailsBody> = {}): PersonDetailsBody {
  return {
    firstName: 'Harriet',
    middleName: 'Quill',
    lastName,
    dateOfBirth: '1979-02-17',
    address: { line1: '48 Banksia Parade', locality: 'Toowong', state: 'QLD', postcode: '4066', country: 'AU' },
    email: 'harriet.quill@example.net',
    phone: '+61 412 555 019',
    ...overrides,
  };
}

export const passport = { type: 'PASSPORT', number: 'PB7730412', issuingCountry: 'AU', expiryDate: '2031-05-30' };

export interface Created {
  id: string;
  status: string;
  individuals: Array<{ id: string; externalId: string | null; status: string }>;
}

export async function createVerification(t: TestContext, partner: TestPartner, body: Record<string, unknown>): Promise<Created> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/verifications', headers: partner.headers, payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<Created>();
}

/** Mints links and answers each individual's token, by individual id. */
export async function mintLinks(t: TestContext, partner: TestPartner, requestId: string, individualIds?: string[]): Promise<Map<string, string>> {
  const res = await t.app.inject({ method: 'POST', url: `/v1/verifications/${requestId}/links`, headers: partner.headers, payload: individualIds ? { individualIds } : {} });
  assert.equal(res.statusCode, 200, res.body);
  return new Map(res.json<{ individuals: Array<{ id: string; verificationUrl: string }> }>().individuals.map((i) => [i.id, i.verificationUrl.split('/v/')[1]!]));
}

/** The person's side of one link: each step through the hosted JSON API. */
export function person(t: TestContext, sessionToken: string) {
  const headers = { authorization: `Bearer ${sessionToken}` };
  return {
    sessionToken,
    view: () => t.app.inject({ method: 'GET', url: '/hosted/v1/verification-session', headers }),
    details: (body: unknown) => t.app.inject({ method: 'PUT', url: '/hosted/v1/verification-session/details', headers, payload: body as object }),
    document: (fields: Record<string, string> = passport, files: Record<string, FormFile> = { front: photo() }) => {
      const form = multipartForm(fields, files);
      return t.app.inject({ method: 'POST', url: '/hosted/v1/verification-session/document', headers: { ...headers, ...form.headers }, payload: form.payload });
    },
    selfie: (file: FormFile = photo()) => {
      const form = multipartForm({}, { image: file });
      return t.app.inject({ method: 'POST', url: '/hosted/v1/verification-session/selfie', headers: { ...headers, ...form.headers }, payload: form.payload });
    },
    submit: () => t.app.inject({ method: 'POST', url: '/hosted/v1/verification-session/submit', headers }),
  };
}

export type Person = ReturnType<typeof person>;

export async function openLink(t: TestContext, token: string): Promise<Person> {
  const res = await t.app.inject({ method: 'POST', url: '/hosted/v1/verification-sessions', payload: { token } });
  assert.equal(res.statusCode, 201, res.body);
  return person(t, res.json<{ sessionToken: string }>().sessionToken);
}

/** Every step saved, for a person of this last name; submit answers 200. */
export async function submitAttempt(p: Person, lastName: string): Promise<{ status: string; attemptsRemaining: number }> {
  for (const res of [await p.details(personDetails(lastName)), await p.document(), await p.selfie()]) assert.equal(res.statusCode, 200, res.body);
  const submitted = await p.submit();
  assert.equal(submitted.statusCode, 200, submitted.body);
  return submitted.json();
}

/** Submits, then runs the check job: answers the session's view after the checks. */
export async function attemptChecked(t: TestContext, p: Person, lastName: string) {
  await submitAttempt(p, lastName);
  await runDueJobs(t);
  const view = await p.view();
  assert.equal(view.statusCode, 200, view.body);
  return view.json<{ individual: { status: string }; attemptsRemaining: number; attempt: { number: number; status: string } | null; completedSteps: string[] }>();
}

export async function verificationEvents(t: TestContext, requestId: string) {
  return t.services.db.query<{ type: string; payload: Record<string, unknown> }>('SELECT type, payload FROM events WHERE subject_id = $1 ORDER BY id', [requestId]);
}

/**
 * Oliver James KINGSLEY of WATTLE CREEK LOGISTICS PTY LTD (the sandbox's 54 222 222 228), bound from a
 * settled lookup: the request, his individual, his link opened, and the date of birth the sandbox
 * register holds for him (decision 122 compares the one he enters with it).
 */
export async function lookupBoundKingsley(t: TestContext, partner: TestPartner): Promise<{ requestId: string; individualId: string; person: Person; registerBorn: string }> {
  const lookup = await settledLookup(t, partner, { abn: '54 222 222 228', scope: 'FULL' });
  const party = lookup.individuals.find((i) => i.name.includes('KINGSLEY'))!;
  const created = await createVerification(t, partner, { mode: 'AUSTRAC_CDD', lookupRequestId: lookup.lookupRequestId, individuals: [{ idvEntityId: party.idvEntityId }] });
  const individualId = created.individuals[0]!.id;
  const [entity] = await t.services.db.query<{ party_ref: string }>('SELECT party_ref FROM idv_entities WHERE id = $1', [party.idvEntityId]);
  const details = await t.services.registers.reports.personDetails([entity!.party_ref]);
  assert.ok(details.ok && details.value[0]?.dateOfBirth, 'the sandbox register holds a date of birth for Kingsley');
  const token = (await mintLinks(t, partner, created.id)).get(individualId)!;
  return { requestId: created.id, individualId, person: await openLink(t, token), registerBorn: details.value[0].dateOfBirth };
}

/** A date a year before `date` (YYYY-MM-DD): one that is not the register's. */
export const anotherDate = (date: string) => `${Number(date.slice(0, 4)) - 1}${date.slice(4)}`;
