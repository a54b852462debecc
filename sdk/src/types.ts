// Names for the generated types, so each method's signature reads as what it is: the body an operation
// takes, the answer it gives, the query a list accepts. Everything here is erased at build time.
import type { components, operations, webhooks } from './generated/openapi.ts';

export type OperationId = keyof operations;

/** The JSON body of an operation (`never` when it takes none). */
export type BodyOf<Id extends OperationId> = operations[Id] extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;

type Responses<Id extends OperationId> = operations[Id]['responses'];
type SuccessStatus<Id extends OperationId> = Extract<keyof Responses<Id>, 200 | 201 | 202>;

/** The JSON an operation answers on success. */
export type AnswerOf<Id extends OperationId> = Responses<Id>[SuccessStatus<Id>] extends { content: { 'application/json': infer Answer } } ? Answer : never;

/**
 * The query an operation accepts. The document marks `limit` and `from` required because they have
 * defaults; a caller may leave out any of them.
 */
export type QueryOf<Id extends OperationId> = operations[Id]['parameters'] extends { query?: infer Query } ? Partial<NonNullable<Query>> : never;

/** One page of a list, as PVS answers it: `{ data, limit, from, nextFrom }`. */
export type PageOf<Id extends OperationId> = AnswerOf<Id>;
export type ItemOf<Id extends OperationId> = AnswerOf<Id> extends { data: Array<infer Item> } ? Item : never;

export type Problem = components['schemas']['Problem'];

/**
 * The problem codes PVS documents (docs/errors.md). When the document gives `Problem.code` as an enum the
 * union is exact; a code added later still arrives as a plain string rather than being rejected.
 */
export type ProblemCode = Problem['code'] | (string & {});

/** Per-call options every method accepts as its last argument. */
export interface RequestOptions {
  /** For creating POSTs: the key PVS deduplicates on. Defaults to a new UUID per call, reused on its retries. */
  idempotencyKey?: string;
  /** Overrides the client's `timeoutMs` for this call (each attempt). */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  signal?: AbortSignal;
}

/**
 * A webhook event: the union of the bodies the document's `webhooks` section gives, one per event type,
 * discriminated by `type`. Regenerating the types brings in new event types and fields.
 */
export type WebhookEvent = { [Type in keyof webhooks]: webhooks[Type] extends { post: { requestBody?: { content: { 'application/json': infer Event } } } } ? Event : never }[keyof webhooks];
export type WebhookEventType = WebhookEvent['type'];
