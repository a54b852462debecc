// What a failed call to Onfido means. Onfido down (no answer in time, a refused or reset connection, a 5xx,
// a 429) is `unavailable`, for the caller to try later; a 422 is Onfido refusing what the person gave, in
// their words at the step's field; a 404/410 is a resource Onfido no longer has; anything else is a bug
// or misconfiguration on our side (a 401 token refused, a 400 we caused) and is thrown.
//
// Invariant: nothing Onfido sent back reaches a message, a log line or an error except its status, its
// error `type` and the names of the fields it refused. Its messages are not passed on: a validation
// message may quote the value it refused (a name, a date of birth).
import type { IdentityRejected, IdentityUnavailable } from '../identity-provider.ts';

interface CallError {
  isAxiosError?: boolean;
  code?: string;
  name?: string;
  response?: { status: number; data?: unknown; headers?: Record<string, unknown> };
}

export type OnfidoFailure =
  | IdentityUnavailable
  | { ok: false; kind: 'validation'; fields: string[] }
  | { ok: false; kind: 'gone' };

const describe = (operation: string, status: number, type: string | undefined) => `Onfido ${operation}: ${status}${type ? ` ${type}` : ''}`;

/** The error `type` and the field names of an Onfido error body (`{ error: { type, message, fields } }`). */
function errorOf(data: unknown): { type?: string; fields: string[] } {
  const error = (data as { error?: { type?: unknown; fields?: unknown } } | null | undefined)?.error;
  const type = typeof error?.type === 'string' && /^[a-z_]{1,60}$/.test(error.type) ? error.type : undefined;
  return { type, fields: fieldNames(error?.fields) };
}

/** `{ dob: [...], address: { postcode: [...] } }` as `['dob', 'address.postcode']`. */
function fieldNames(fields: unknown, prefix = ''): string[] {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return [];
  return Object.entries(fields as Record<string, unknown>).flatMap(([key, value]) =>
    value && typeof value === 'object' && !Array.isArray(value) ? fieldNames(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

/** A failed call as a value, or thrown when it is ours to fix. Errors that are not the HTTP client's are rethrown. */
export function failureOf(operation: string, error: unknown): OnfidoFailure {
  const e = error as CallError | null | undefined;
  const timedOut = e?.name === 'AbortError' || e?.name === 'TimeoutError' || e?.code === 'ECONNABORTED' || e?.code === 'ETIMEDOUT' || e?.code === 'ERR_CANCELED';
  if (!e?.isAxiosError && !timedOut) throw error;
  const status = e.response?.status;
  if (status === undefined) {
    const why = timedOut ? 'no answer in time' : `no answer (${e.code ?? 'network error'})`;
    return { ok: false, kind: 'unavailable', message: `Onfido ${operation}: ${why}` };
  }
  const { type, fields } = errorOf(e.response?.data);
  if (status === 429 || status >= 500) return { ok: false, kind: 'unavailable', message: describe(operation, status, type) };
  if (status === 422) return { ok: false, kind: 'validation', fields };
  if (status === 404 || status === 410) return { ok: false, kind: 'gone' };
  const hint = status === 401 ? ' (check ONFIDO_API_TOKEN and ONFIDO_REGION)' : status === 403 ? ' (the token may not do this)' : '';
  throw new Error(`${describe(operation, status, type)}${hint}`);
}

// ---- A 422 in the person's words ----

const imageProblems: Record<string, string> = {
  face_detection: 'shows no face we could find, or more than one: take a new selfie of your face alone, looking at the camera, in good light',
  multiple_faces: 'shows more than one face: take a new selfie with only your face in it',
  document_detection: 'shows no identity document we could find: photograph the whole document, flat, in focus and in good light',
  glare_detected: 'has glare on it: take the photo again without light reflecting off the document',
  blur_detected: 'is blurred: take the photo again, holding the camera still',
  cutoff_detected: 'cuts off part of the document: take the photo again with all four corners in view',
};

/** Onfido's `file` refusals: the type, or the size (a document at most 3 MB, a live photo 10 MB). */
const fileProblems = {
  selfie: 'could not be used as a selfie: upload a JPEG or PNG photo of at most 10 MB',
  document: 'could not be used: upload a JPEG or PNG photo of at most 3 MB',
};

/** A refused selfie or document image, at its field: `/image`, `/front`, `/back`. */
export function imageRejected(pointer: string, fields: readonly string[]): IdentityRejected {
  const names = fields.map((f) => f.split('.')[0]!);
  const known = names.find((f) => f in imageProblems);
  const selfie = pointer === '/image';
  const fallback = names.includes('file')
    ? fileProblems[selfie ? 'selfie' : 'document']
    : selfie
      ? 'could not be used as a selfie: take a new photo of your face in good light'
      : 'could not be used: take a clear photo of the whole document';
  return { ok: false, kind: 'rejected', pointer, message: known ? imageProblems[known]! : fallback };
}

const detailsFields: Record<string, [pointer: string, message: string]> = {
  first_name: ['/firstName', 'was not accepted: use letters, spaces, hyphens and apostrophes only'],
  last_name: ['/lastName', 'was not accepted: use letters, spaces, hyphens and apostrophes only'],
  dob: ['/dateOfBirth', 'was not accepted: check the date of birth'],
  'address.street': ['/address/line1', 'was not accepted: check the street address'],
  'address.sub_street': ['/address/line2', 'was not accepted: check the second address line'],
  'address.town': ['/address/locality', 'was not accepted: check the suburb or town'],
  'address.state': ['/address/state', 'was not accepted: check the state'],
  'address.postcode': ['/address/postcode', 'was not accepted: check the postcode'],
  'address.country': ['/address/country', 'was not accepted: check the country'],
};

/**
 * Refused details at the first field that maps to one the person entered. None mapping is a field PVS
 * made up (ours to fix): thrown, with the field names only.
 */
export function detailsRejected(operation: string, fields: readonly string[]): IdentityRejected {
  // Onfido may name a nested field `address.postcode` or `address[postcode]`.
  const field = fields.map((f) => f.replace(/\[(\w+)\]/g, '.$1')).find((f) => f in detailsFields);
  if (!field) throw new Error(`Onfido ${operation}: refused fields ${fields.join(', ') || '(none named)'}, none of which the person entered`);
  const [pointer, message] = detailsFields[field]!;
  return { ok: false, kind: 'rejected', pointer, message };
}
