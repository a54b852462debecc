// Checks and their reports. A check starts `in_progress` with each report `awaiting_data`, and completes
// after `completeAfterMs` (60 s for the Slow scenario) with the results its scenario gives; then the
// stand-in calls `onCompleted` (which sends the webhook). What a report looks at is fixed at creation:
// the documents named (or the latest upload, with its other side) and the latest live photo.
import { randomUUID } from 'node:crypto';
import { notFound, ok, validationError, type Handler } from './answers.ts';
import { applicantIn, applicantNamedBy, ownedBy, type HandlerDeps } from './applicants.ts';
import { checkResultOf, durationOf, outcomeOf, scenarioOf } from './scenarios.ts';
import { checkJson, reportJson, timestamp, type Check, type Report, type Store, type StoredDocument } from './store.ts';

export interface CheckDeps extends HandlerDeps {
  completeAfterMs: number;
  /** Pending completions, cleared when the stand-in closes. */
  timers: Set<NodeJS.Timeout>;
  onCompleted(check: Check): void;
}

const latestFirst = <T extends { createdAt: string }>(items: T[]) => items.map((item, i) => ({ item, i })).sort((a, b) => b.item.createdAt.localeCompare(a.item.createdAt) || b.i - a.i).map(({ item }) => item);

/** Without `document_ids`, Onfido uses the latest document; here with the latest of its other side too, front first. */
function documentsFor(store: Store, applicantId: string): StoredDocument[] {
  const [latest, ...older] = latestFirst([...store.documents.values()].filter((d) => d.applicantId === applicantId));
  if (!latest) return [];
  const otherSide = latest.side && older.find((d) => d.type === latest.type && d.side && d.side !== latest.side);
  if (!otherSide) return [latest];
  return latest.side === 'front' ? [latest, otherSide] : [otherSide, latest];
}

/** What a report needs that the applicant has not given: the messages of a 422. */
function missingFor(names: string[], documents: StoredDocument[], livePhotoIds: string[], details: Record<string, unknown>): string[] {
  const missing: string[] = [];
  if ((names.includes('document') || names.includes('facial_similarity_photo')) && documents.length === 0) missing.push('a document must be uploaded for the applicant first');
  if (names.includes('facial_similarity_photo') && livePhotoIds.length === 0) missing.push('a live photo must be uploaded for facial_similarity_photo');
  // An identity record check matches name, date of birth and address against records.
  if (names.includes('identity_enhanced') && (!details.dob || !details.address)) missing.push('identity_enhanced needs the applicant\'s dob and address');
  return missing;
}

export function checkHandlers(deps: CheckDeps): Record<string, Handler> {
  const { store, presenter } = deps;

  const complete = (check: Check) => {
    const applicant = store.applicants.get(check.applicantId)!;
    const completedAt = new Date();
    const reports = check.reportIds.map((id) => store.reports.get(id)!);
    for (const report of reports) {
      const document = store.documents.get(report.documentIds[0] ?? '');
      const facts = { applicant, completedAt, document: document && { id: document.id, type: document.type, issuingCountry: document.issuingCountry } };
      report.outcome = outcomeOf(report.name, check.scenario, facts);
      report.status = 'complete';
    }
    check.status = 'complete';
    check.result = checkResultOf(reports.map((r) => r.outcome!));
    deps.onCompleted(check);
  };

  return {
    create_check: ({ body }) => {
      const { found: applicant, answer } = applicantNamedBy(store, body.applicant_id);
      if (answer) return answer;
      const names = body.report_names as string[];
      if (names.length === 0) return validationError({ report_names: ['must name at least one report'] });
      let documents: StoredDocument[];
      if (Array.isArray(body.document_ids)) {
        documents = (body.document_ids as string[]).map((id) => store.documents.get(id)).filter((d): d is StoredDocument => d?.applicantId === applicant.id);
        if (documents.length !== body.document_ids.length) return validationError({ document_ids: ['must be ids of documents uploaded for this applicant'] });
      } else documents = documentsFor(store, applicant.id);
      const livePhotoIds = latestFirst([...store.livePhotos.values()].filter((p) => p.applicantId === applicant.id)).slice(0, 1).map((p) => p.id);
      const missing = missingFor(names, documents, livePhotoIds, applicant.details);
      if (missing.length > 0) return validationError({ report_names: missing });

      const check: Check = {
        id: randomUUID(),
        applicantId: applicant.id,
        createdAt: timestamp(),
        status: 'in_progress',
        tags: Array.isArray(body.tags) ? (body.tags as string[]) : [],
        reportIds: [],
        scenario: scenarioOf(applicant.details.last_name),
      };
      for (const name of names) {
        const usesDocuments = name === 'document' || name === 'facial_similarity_photo';
        const report: Report = {
          id: randomUUID(),
          checkId: check.id,
          name,
          createdAt: check.createdAt,
          status: 'awaiting_data',
          // The face is compared with the front of the document.
          documentIds: usesDocuments ? (name === 'document' ? documents : documents.slice(0, 1)).map((d) => d.id) : [],
          livePhotoIds: name === 'facial_similarity_photo' ? livePhotoIds : [],
        };
        store.reports.set(report.id, report);
        check.reportIds.push(report.id);
      }
      store.checks.set(check.id, check);
      const timer = setTimeout(() => {
        deps.timers.delete(timer);
        complete(check);
      }, durationOf(check.scenario, deps.completeAfterMs));
      // A forgotten stand-in must not hold a test process open for a Slow check's minute.
      timer.unref();
      deps.timers.add(timer);
      return ok(checkJson(presenter, check), 201);
    },

    find_check: ({ params }) => {
      const { found, answer } = ownedBy(store, store.checks.get(params.check_id!));
      return answer ?? ok(checkJson(presenter, found));
    },

    list_checks: ({ query }) => {
      const { found, answer } = applicantIn(store, query.get('applicant_id') ?? '');
      if (answer) return answer;
      const checks = latestFirst([...store.checks.values()].filter((c) => c.applicantId === found.id));
      return ok({ checks: checks.map((c) => checkJson(presenter, c)) });
    },

    list_reports: ({ query }) => {
      const check = store.checks.get(query.get('check_id') ?? '');
      const { found, answer } = ownedBy(store, check);
      if (answer) return answer;
      return ok({ reports: found.reportIds.map((id) => reportJson(presenter, store.reports.get(id)!)) });
    },

    find_report: ({ params }) => {
      const report = store.reports.get(params.report_id!);
      if (!report) return notFound();
      const { answer } = ownedBy(store, store.checks.get(report.checkId));
      return answer ?? ok(reportJson(presenter, report));
    },
  };
}

