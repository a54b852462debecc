// The closed list of error codes and their HTTP statuses. Every error a client sees is one of these,
// rendered as problem+json by platform/http/problem.ts.

export const errorCatalogue = {
  VALIDATION_ERROR: { status: 400, title: 'Request validation failed' },
  UNAUTHENTICATED: { status: 401, title: 'Authentication required' },
  PAYMENT_METHOD_REQUIRED: { status: 402, title: 'The contact has no saved card' },
  CONTACT_BILLING_BLOCKED: { status: 402, title: "The contact's billing is blocked" },
  CARD_DECLINED: { status: 402, title: 'The card was declined' },
  PARTNER_MISMATCH: { status: 403, title: 'X-Partner-Id does not match the credentials' },
  LOOKUP_NOT_OWNED: { status: 403, title: 'The lookup does not belong to this partner' },
  FORBIDDEN: { status: 403, title: 'Not allowed' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  LOOKUP_NOT_COMPLETED: { status: 409, title: 'The lookup has not completed' },
  STRUCTURE_NOT_CONFIRMED: { status: 409, title: 'The ownership structure is not confirmed' },
  INVALID_STATE: { status: 409, title: 'Not allowed in the current state' },
  PAYLOAD_EXPIRED: { status: 410, title: 'The notification payload is no longer held' },
  LINK_INVALID: { status: 410, title: 'The link is spent, replaced or expired' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported content type' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, title: 'Idempotency-Key reused with a different request' },
  CONTACT_INVALID: { status: 422, title: 'The contact cannot be billed' },
  UPLOAD_NOT_FOUND: { status: 422, title: 'No uploaded file was found' },
  FILE_TOO_LARGE: { status: 422, title: 'The file is larger than 25 MB' },
  NOT_A_PDF: { status: 422, title: 'The file is not a readable PDF' },
  TOO_MANY_PAGES: { status: 422, title: 'The file has more than 150 pages' },
  READ_BUDGET_EXHAUSTED: { status: 429, title: 'Daily read budget for this lookup used up' },
  RATE_LIMITED: { status: 429, title: 'Too many requests' },
  INTERNAL: { status: 500, title: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service temporarily unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** Where in the request a problem is: a JSON Pointer into the body, or `header:Name` / `query:name`. */
export interface FieldProblem {
  pointer: string;
  message: string;
}

export interface AppErrorOptions {
  pointer?: string;
  errors?: FieldProblem[];
  /** Extra members for the problem body, such as `declineCode`. Never internals. */
  extensions?: Record<string, unknown>;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  cause?: unknown;
}

/** An expected failure with a code from the closed list. Anything else thrown is a bug (500 INTERNAL). */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldProblem[];
  readonly extensions?: Record<string, unknown>;
  readonly retryAfter?: number;

  constructor(code: ErrorCode, detail: string, options: AppErrorOptions = {}) {
    super(detail, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.errors = options.errors ?? (options.pointer !== undefined ? [{ pointer: options.pointer, message: detail }] : undefined);
    this.extensions = options.extensions;
    this.retryAfter = options.retryAfter;
  }
}

export function validationError(pointer: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, { pointer });
}

/** Every problem found at once: each at its pointer in `errors[]`, and all of them in the detail. */
export function fieldProblems(problems: FieldProblem[]): AppError {
  return new AppError('VALIDATION_ERROR', problems.map((p) => `${p.pointer} ${p.message}`).join('; '), { errors: problems });
}

export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} was not found`);
}
