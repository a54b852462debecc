// Applicants: create, find, update (only before any check, as the spec says), delete. A deleted
// applicant is gone for every later call that names it, itself or anything uploaded or checked for it:
// 410 with a `gone` error body.
import { randomUUID } from 'node:crypto';
import { errorAnswer, gone, notFound, ok, validationError, type Answer, type Handler } from './answers.ts';
import { applicantJson, timestamp, type Applicant, type Presenter, type Store } from './store.ts';

export interface HandlerDeps {
  store: Store;
  presenter: Presenter;
}

/** What the applicant objects keep of a create or an update; consents are kept but never shown. */
const kept = ['first_name', 'last_name', 'email', 'dob', 'phone_number', 'id_numbers', 'address', 'location', 'consents'];

export type Found<T> = { found: T; answer?: undefined } | { found?: undefined; answer: Answer };

/** An applicant named in a path: 404 when there is none, 410 when it was deleted. */
export function applicantIn(store: Store, id: string): Found<Applicant> {
  const applicant = store.applicants.get(id);
  if (!applicant) return { answer: notFound() };
  return applicant.deleted ? { answer: gone() } : { found: applicant };
}

/** An applicant named in a body field: a wrong id is a validation error there, a deleted one still 410. */
export function applicantNamedBy(store: Store, id: unknown, field = 'applicant_id'): Found<Applicant> {
  const applicant = typeof id === 'string' ? store.applicants.get(id) : undefined;
  if (!applicant) return { answer: validationError({ [field]: ['no applicant has this id'] }) };
  return applicant.deleted ? { answer: gone() } : { found: applicant };
}

/** Something that belongs to an applicant: 404 when it does not exist, 410 when its applicant was deleted. */
export function ownedBy<T extends { applicantId: string }>(store: Store, item: T | undefined): Found<T> {
  if (!item) return { answer: notFound() };
  return store.applicants.get(item.applicantId)?.deleted ? { answer: gone() } : { found: item };
}

function keptOf(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(kept.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]));
}

export function applicantHandlers({ store, presenter }: HandlerDeps): Record<string, Handler> {
  return {
    create_applicant: ({ body }) => {
      const applicant: Applicant = { id: randomUUID(), createdAt: timestamp(), details: keptOf(body), deleted: false };
      store.applicants.set(applicant.id, applicant);
      return ok(applicantJson(presenter, applicant), 201);
    },

    find_applicant: ({ params }) => {
      const { found, answer } = applicantIn(store, params.applicant_id!);
      return answer ?? ok(applicantJson(presenter, found));
    },

    update_applicant: ({ params, body }) => {
      const { found, answer } = applicantIn(store, params.applicant_id!);
      if (answer) return answer;
      if ([...store.checks.values()].some((c) => c.applicantId === found.id)) {
        return errorAnswer(422, 'validation_error', 'An applicant can only be updated before any check is created for it');
      }
      // A partial update: fields given replace those held (addresses and ID numbers as a whole).
      found.details = { ...found.details, ...keptOf(body) };
      return ok(applicantJson(presenter, found));
    },

    delete_applicant: ({ params }) => {
      const { found, answer } = applicantIn(store, params.applicant_id!);
      if (answer) return answer;
      found.deleted = true;
      return { status: 204 };
    },
  };
}
