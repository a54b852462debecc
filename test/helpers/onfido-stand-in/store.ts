// What one stand-in holds, in memory, and how each object reads in the API (the spec's `applicant`,
// `document`, `live_photo`, `check` and report schemas). `href`s are paths below the host, as Onfido
// writes them (`/v3.6/checks/<id>`). Nothing here is logged.
import type { ReportOutcome, Scenario } from './scenarios.ts';
import type { FileKind } from './uploads.ts';

export interface Applicant {
  id: string;
  createdAt: string;
  /** The fields as given: first_name, last_name, email, dob, phone_number, id_numbers, address, location. */
  details: Record<string, unknown>;
  deleted: boolean;
}

export interface StoredFile {
  id: string;
  applicantId: string;
  createdAt: string;
  data: Buffer;
  kind: FileKind;
  fileName: string;
}

export interface StoredDocument extends StoredFile {
  type: string;
  side?: string;
  issuingCountry?: string;
}

export interface Check {
  id: string;
  applicantId: string;
  createdAt: string;
  status: 'in_progress' | 'complete';
  result?: 'clear' | 'consider';
  tags: string[];
  reportIds: string[];
  /** Fixed at creation from the applicant's last name then. */
  scenario: Scenario;
}

export interface Report {
  id: string;
  checkId: string;
  name: string;
  createdAt: string;
  status: 'awaiting_data' | 'complete';
  outcome?: ReportOutcome;
  documentIds: string[];
  livePhotoIds: string[];
}

export interface Store {
  applicants: Map<string, Applicant>;
  documents: Map<string, StoredDocument>;
  livePhotos: Map<string, StoredFile>;
  checks: Map<string, Check>;
  reports: Map<string, Report>;
}

export function createStore(): Store {
  return { applicants: new Map(), documents: new Map(), livePhotos: new Map(), checks: new Map(), reports: new Map() };
}

/** Onfido's timestamps: ISO 8601 in UTC, to the second. */
export function timestamp(at = new Date()): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface Presenter {
  basePath: string;
  /** An `api_sandbox` token's objects say so. */
  sandbox: boolean;
}

const applicantFields = ['first_name', 'last_name', 'email', 'dob', 'phone_number', 'id_numbers', 'address', 'location'];

export function applicantJson(p: Presenter, applicant: Applicant) {
  const given = Object.fromEntries(applicantFields.filter((f) => applicant.details[f] !== undefined).map((f) => [f, applicant.details[f]]));
  return { id: applicant.id, created_at: applicant.createdAt, href: `${p.basePath}/applicants/${applicant.id}`, sandbox: p.sandbox, ...given };
}

export function documentJson(p: Presenter, document: StoredDocument) {
  return {
    id: document.id,
    created_at: document.createdAt,
    href: `${p.basePath}/documents/${document.id}`,
    download_href: `${p.basePath}/documents/${document.id}/download`,
    file_name: document.fileName,
    file_size: document.data.length,
    file_type: document.kind.fileType,
    type: document.type,
    ...(document.side ? { side: document.side } : {}),
    ...(document.issuingCountry ? { issuing_country: document.issuingCountry } : {}),
    applicant_id: document.applicantId,
  };
}

export function livePhotoJson(p: Presenter, photo: StoredFile) {
  return {
    id: photo.id,
    created_at: photo.createdAt,
    href: `${p.basePath}/live_photos/${photo.id}`,
    download_href: `${p.basePath}/live_photos/${photo.id}/download`,
    file_name: photo.fileName,
    file_type: photo.kind.fileType,
    file_size: photo.data.length,
  };
}

export function checkJson(p: Presenter, check: Check) {
  return {
    id: check.id,
    created_at: check.createdAt,
    href: `${p.basePath}/checks/${check.id}`,
    applicant_id: check.applicantId,
    status: check.status,
    // Onfido gives no result until the check completes.
    ...(check.result ? { result: check.result } : {}),
    applicant_provides_data: false,
    tags: check.tags,
    report_ids: check.reportIds,
    webhook_ids: [],
    results_uri: `https://dashboard.onfido.com/checks/${check.id}`,
    sandbox: p.sandbox,
    paused: false,
    version: p.basePath.replace(/^\/v/, ''),
  };
}

export function reportJson(p: Presenter, report: Report) {
  const media = report.name.startsWith('facial_similarity') ? { live_photos: report.livePhotoIds.map((id) => ({ id })) } : {};
  const documents = report.documentIds.length > 0 ? { documents: report.documentIds.map((id) => ({ id })) } : {};
  return {
    id: report.id,
    created_at: report.createdAt,
    href: `${p.basePath}/reports/${report.id}`,
    name: report.name,
    status: report.status,
    check_id: report.checkId,
    ...documents,
    ...media,
    ...(report.outcome ?? {}),
  };
}
