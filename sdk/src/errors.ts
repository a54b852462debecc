// Typed errors: one class per kind of answer a caller branches on (by `instanceof`), and `code` for the
// exact reason (docs/errors.md). PVS answers application/problem+json; the token endpoint answers
// OAuth's `{error, error_description}`, which is mapped onto the same fields.
import type { ProblemCode } from './types.ts';

export interface FieldError {
  /** A JSON Pointer into the body (`/individuals/0/firstName`), or `header:Name`, `query:name`, `path:name`. */
  pointer: string;
  message: string;
}

export interface PvsErrorFields {
  status?: number;
  code?: ProblemCode;
  title?: string;
  detail?: string;
  errors?: FieldError[];
  requestId?: string;
  retryAfter?: number;
  /** The parsed answer, as received. */
  body?: unknown;
  cause?: unknown;
}

export class PvsError extends Error {
  /** The HTTP status; undefined when no answer came. */
  readonly status: number | undefined;
  readonly code: ProblemCode | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly errors: FieldError[];
  /** Quote it to support (`X-Request-Id`). */
  readonly requestId: string | undefined;
  /** Seconds PVS asked to wait (`Retry-After`), when it did. */
  readonly retryAfter: number | undefined;
  readonly body: unknown;

  constructor(message: string, fields: PvsErrorFields = {}) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = new.target.name;
    this.status = fields.status;
    this.code = fields.code;
    this.title = fields.title;
    this.detail = fields.detail;
    this.errors = fields.errors ?? [];
    this.requestId = fields.requestId;
    this.retryAfter = fields.retryAfter;
    this.body = fields.body;
  }
}

export class BadRequestError extends PvsError {}
export class AuthenticationError extends PvsError {}
export class PermissionDeniedError extends PvsError {}
export class NotFoundError extends PvsError {}
export class ConflictError extends PvsError {}
export class GoneError extends PvsError {}
export class UnprocessableEntityError extends PvsError {}
export class RateLimitError extends PvsError {}
export class InternalServerError extends PvsError {}
/** No answer: the connection failed (refused, reset, DNS). */
export class ConnectionError extends PvsError {}
/** No answer within `timeoutMs`. */
export class TimeoutError extends ConnectionError {}

const byStatus: Record<number, typeof PvsError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

function classFor(status: number): typeof PvsError {
  return byStatus[status] ?? (status >= 500 ? InternalServerError : PvsError);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function fieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
    .map((e) => ({ pointer: String(e.pointer ?? ''), message: String(e.message ?? '') }));
}

/** The error for a non-2xx answer; `body` is the parsed JSON (or text) and may be anything. */
export function errorFromAnswer(status: number, body: unknown, headers: { requestId?: string; retryAfter?: number }): PvsError {
  const problem = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  // The token endpoint speaks OAuth (RFC 6749 §5.2): `error` is its code.
  const code = text(problem.code) ?? text(problem.error);
  const detail = text(problem.detail) ?? text(problem.error_description);
  const title = text(problem.title);
  const errors = fieldErrors(problem.errors);
  const requestId = text(problem.requestId) ?? headers.requestId;
  const pointers = errors.length > 0 ? `: ${errors.map((e) => `${e.pointer || '(body)'} ${e.message}`).join('; ')}` : '';
  const message = `${status}${code ? ` ${code}` : ''}: ${detail ?? title ?? (typeof body === 'string' && body ? body.slice(0, 200) : 'no detail')}${pointers}${requestId ? ` (request ${requestId})` : ''}`;
  const ErrorClass = classFor(status);
  return new ErrorClass(message, { status, code, title, detail, errors, requestId, retryAfter: headers.retryAfter, body });
}
