// @pvs/client: a typed client for the PVS partner API.
export { Pvs, type PvsOptions } from './client.ts';
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  GoneError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PvsError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
  type FieldError,
} from './errors.ts';
export { PageList } from './list.ts';
export type { BusinessLookupCreate } from './resources/business-lookups.ts';
export type { DeedUpload } from './resources/deed-analyses.ts';
export type { Fetch } from './transport.ts';
export type { AnswerOf, BodyOf, ItemOf, OperationId, Problem, ProblemCode, QueryOf, RequestOptions, WebhookEvent, WebhookEventType } from './types.ts';
export { constructEvent, signTestPayload, WebhookVerificationError, type ConstructEventOptions, type RawBody, type WebhookHeaders } from './webhooks.ts';
export { version } from './version.ts';
export type { components, operations, paths } from './generated/openapi.ts';
