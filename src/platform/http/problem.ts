// Every error leaves the service as application/problem+json (RFC 9457) with a code from the closed
// list in platform/errors.ts. Anything that is not an AppError is a bug: 500 INTERNAL, logged with its
// stack, and the client told only the request id.
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError, isUnavailableError } from '../db/database.ts';
import { AppError, errorCatalogue, type ErrorCode, type FieldProblem } from '../errors.ts';
import { newId } from '../ids.ts';
import { fieldProblems } from './validation.ts';

export const problemTypeBase = 'https://docs.pvs.example/errors/';

/** Fastify's `maxParamLength`: the router refuses a longer path segment before any hook runs. */
export const maxPathParameterLength = 100;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  requestId: string;
  errors?: FieldProblem[];
  [extension: string]: unknown;
}

export function problemBody(error: AppError, requestId: string): ProblemBody {
  return {
    ...error.extensions,
    type: `${problemTypeBase}${error.code}`,
    title: errorCatalogue[error.code].title,
    status: error.status,
    code: error.code,
    detail: error.message,
    requestId,
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

/** A route's own options this module reads. */
interface ProblemRouteConfig {
  /** The token endpoint: its 400s also carry RFC 6749's `error` members, for OAuth client libraries. */
  oauth?: boolean;
}

export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  reply.request.problemCode = error.code;
  if (error.retryAfter !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfter))));
  const body = problemBody(error, String(reply.request.id));
  if (error.status === 400 && (reply.request.routeOptions.config as ProblemRouteConfig | undefined)?.oauth) {
    Object.assign(body, { error: 'invalid_request', error_description: error.message });
  }
  return reply.code(error.status).type('application/problem+json').send(body);
}

/** Fastify's own failures (body parsing, limits, content types, URLs) in our vocabulary. */
function fromFastifyError(error: FastifyError, request: FastifyRequest): AppError | undefined {
  if (error.validation) {
    if (error.validationContext === 'body' && request.body === undefined) {
      return new AppError('VALIDATION_ERROR', 'The body is empty; send a JSON object', { pointer: '' });
    }
    return new AppError('VALIDATION_ERROR', 'The request does not match the schema; see errors[]', {
      errors: fieldProblems(error.validation, error.validationContext, request),
    });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB; files go to storage, not the API');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${request.headers['content-type'] ?? '(none)'} is not accepted here; send application/json`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('VALIDATION_ERROR', 'The body is not as long as its Content-Length header says', { pointer: 'header:Content-Length' });
    case 'FST_ERR_BAD_URL':
      return new AppError('VALIDATION_ERROR', 'The URL path is not valid percent-encoded UTF-8', { pointer: 'path:' });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('VALIDATION_ERROR', `A path parameter is longer than ${maxPathParameterLength} characters`, { pointer: 'path:' });
  }
  // Anything else Fastify refuses as the client's fault (a body stream cut short, say).
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('VALIDATION_ERROR', 'The request could not be read', { pointer: '' });
  }
  return undefined;
}

/** Errors the router raises before any hook runs (a URL that is not valid percent-encoded UTF-8). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void sendProblem(reply, fromFastifyError(error, request) ?? new AppError('VALIDATION_ERROR', 'The request could not be read'));
}

/**
 * Requests Node's HTTP parser refuses (control characters in a header, headers over 16 KiB, a broken
 * request line) are answered as problems too, on the raw socket, and the connection closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const detail =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are larger than 16 KiB'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request was not received in time'
        : 'The request is not valid HTTP/1.1 (a header holds a character HTTP does not allow, or the request line is malformed)';
  const body = JSON.stringify(problemBody(new AppError('VALIDATION_ERROR', detail), newId('request')));
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function installProblemHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      // A provider that is down, or whose package could not be loaded, answers 503 with what went wrong
      // as the cause: the operator reads it here, the partner never does.
      const cause = error.cause;
      if (error.status >= 500 && cause instanceof Error) request.log.error({ code: error.code, err: { type: cause.name, message: cause.message } }, 'dependency unavailable');
      return sendProblem(reply, error);
    }
    const known = fromFastifyError(error, request);
    if (known) return sendProblem(reply, known);
    if (isUnavailableError(error)) {
      // Refused without trying while the database is known down: the guard logged the outage once.
      if (!(error instanceof DatabaseUnavailableError)) request.log.error({ err: { type: error.name, message: error.message } }, 'dependency unavailable');
      return sendProblem(reply, new AppError('SERVICE_UNAVAILABLE', 'A dependency of the service is unavailable; try again shortly', { retryAfter: 5 }));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, new AppError('INTERNAL', `Something went wrong on our side. Quote request id ${request.id} to support.`));
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
