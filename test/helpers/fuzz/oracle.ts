// What every answer to a fuzz case must be: never a 5xx; an error is application/problem+json with a
// code from the closed list and a matching status (or, for the few routes that answer in another
// format, that format); and a 400 VALIDATION_ERROR names the place the case changed.
import { errorCatalogue, errorCodes } from '../../../src/platform/errors.ts';
import type { Location } from './cases.ts';

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/** A route allowed to answer errors in a format other than problem+json, and why. */
export interface FormatException {
  /** Fastify route: `POST /oauth2/token`. */
  route: string;
  reason: string;
  /** undefined when the answer is in the route's own format; else what is wrong with it. */
  check(answer: Answer, json: unknown): string | undefined;
}

export const contentTypeOf = (answer: Answer) => String(answer.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** A problem's pointer that is about the place the case changed: that place, inside it, or around it. */
export function pointsAt(pointer: string, location: Location): boolean {
  const within = (p: string, at: string) => p === at || p.startsWith(`${at}/`) || at.startsWith(`${p}/`) || p === '';
  switch (location.in) {
    case 'body':
      return within(pointer, location.pointer);
    case 'body-object':
      // An unknown field's own pointer may be written escaped (a NUL in its name): anything in its object counts.
      return within(pointer, location.pointer);
    case 'whole-body':
      return pointer === '' || pointer.startsWith('/') || /^header:content-(type|length)$/i.test(pointer);
    case 'header':
      return pointer.toLowerCase() === `header:${location.name}`.toLowerCase();
    case 'path':
      // `path:` is the whole path, when the router could not decode it at all.
      return pointer === `path:${location.name}` || pointer === 'path:';
    case 'query':
      return pointer === `query:${location.name}` || pointer === 'query:';
  }
}

/**
 * Why the answer breaks the contract, or undefined when it keeps it. `tolerated` are the pointers the
 * operation's unchanged request is already refused with (a baseline the generator could not make valid):
 * a refusal naming only those says nothing about the changed place.
 */
export function judge(input: { route: string; location: Location; answer: Answer; exceptions: FormatException[]; tolerated: Set<string> }): string | undefined {
  const { answer, location } = input;
  const status = answer.statusCode;
  if (status >= 500) return `answered ${status}, a server error`;
  if (status < 400) return undefined;

  const type = contentTypeOf(answer);
  const json = parseJson(answer.body);
  if (type !== 'application/problem+json') {
    const exception = input.exceptions.find((e) => e.route === input.route);
    if (!exception) return `answered ${status} as ${type || 'no content type'}, not application/problem+json`;
    const wrong = exception.check(answer, json);
    return wrong === undefined ? undefined : `answered ${status} as ${type || 'no content type'}: ${wrong} (the exception allows: ${exception.reason})`;
  }

  if (!json || typeof json !== 'object') return `answered ${status} problem+json that is not a JSON object`;
  const problem = json as { code?: unknown; status?: unknown; errors?: unknown };
  if (typeof problem.code !== 'string' || !(errorCodes as string[]).includes(problem.code)) return `code ${JSON.stringify(problem.code)} is not in the closed list (src/platform/errors.ts)`;
  if (problem.status !== status) return `status member ${JSON.stringify(problem.status)} differs from the HTTP status ${status}`;
  const listed = errorCatalogue[problem.code as keyof typeof errorCatalogue].status;
  if (listed !== status) return `code ${problem.code} is listed with status ${listed}, answered with ${status}`;
  if (problem.code !== 'VALIDATION_ERROR') return undefined;

  const errors = problem.errors;
  if (!Array.isArray(errors) || errors.length === 0) return 'VALIDATION_ERROR without errors[]: no pointer says where the request was wrong';
  for (const e of errors as Array<{ pointer?: unknown; message?: unknown }>) {
    if (typeof e?.pointer !== 'string' || typeof e.message !== 'string') return `errors[] holds ${JSON.stringify(e)}, not {pointer, message}`;
    if (!/^(|\/.*|header:.+|query:.*|path:.*)$/s.test(e.pointer)) return `pointer ${JSON.stringify(e.pointer)} is neither a JSON Pointer nor header:/query:/path:`;
  }
  const pointers = (errors as Array<{ pointer: string }>).map((e) => e.pointer);
  if (pointers.some((p) => pointsAt(p, location))) return undefined;
  if (input.tolerated.size > 0 && pointers.every((p) => input.tolerated.has(p))) return undefined;
  return `VALIDATION_ERROR names ${JSON.stringify(pointers)}, not the place the case changed`;
}
