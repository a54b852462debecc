// What a handler answers, and Onfido's error bodies: `{ error: { type, message, fields } }` (the spec's
// `Error` schema), with `fields` naming each field that was wrong and what was wrong with it. The types
// and messages follow Onfido's API reference; the spec itself names none of them.
import type { UploadedFile } from './uploads.ts';

export interface Answer {
  status: number;
  json?: unknown;
  /** A download: the bytes as uploaded. */
  bytes?: { data: Buffer; contentType: string; fileName: string };
  headers?: Record<string, string>;
}

export interface HandlerContext {
  params: Record<string, string>;
  query: URLSearchParams;
  /** JSON as sent, or a multipart form's fields typed as the spec declares them. */
  body: Record<string, unknown>;
  files: Map<string, UploadedFile>;
}

export type Handler = (context: HandlerContext) => Answer | Promise<Answer>;

export type Fields = Record<string, string[]>;

export function errorAnswer(status: number, type: string, message: string, fields: Fields = {}, headers?: Record<string, string>): Answer {
  return { status, json: { error: { type, message, fields } }, headers };
}

export const ok = (json: unknown, status = 200): Answer => ({ status, json });

export const validationError = (fields: Fields): Answer => errorAnswer(422, 'validation_error', 'There was a validation error on this request', fields);

export const notFound = (): Answer => errorAnswer(404, 'resource_not_found', 'The resource you requested could not be found');

/** An applicant deleted (scheduled for deletion), or anything of one: Onfido keeps nothing of it to show. */
export const gone = (): Answer => errorAnswer(410, 'gone', 'The applicant has been deleted, with everything uploaded for it');

export const unauthorised = (): Answer => errorAnswer(401, 'authorization_error', 'Authorization error: please re-check your credentials');

export const outageAnswers: Record<number, () => Answer> = {
  429: () => errorAnswer(429, 'rate_limit', 'Rate limit exceeded. Please try again later.', {}, { 'Retry-After': '1' }),
  500: () => errorAnswer(500, 'internal_server_error', 'There was an internal server error'),
  502: () => errorAnswer(502, 'bad_gateway', 'Bad gateway'),
  503: () => errorAnswer(503, 'service_unavailable', 'The service is temporarily unavailable'),
};

/** Problems as Onfido's `fields`: every message for a field, under its name. */
export function fieldsOf(problems: Array<{ field: string; message: string }>): Fields {
  const fields: Fields = {};
  for (const { field, message } of problems) {
    const messages = (fields[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
  return fields;
}
