// Request and response schemas of deed analyses: the source of validation, types and OpenAPI. A deed
// analysis as the API shows it holds ids, status, counts and times: never names, text or the filename.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ListQuery } from '../../platform/http/pagination.ts';
import { exampleId } from '../../platform/ids.ts';
import { deedStatuses, failureReasons } from './deeds.repository.ts';

const DateTime = Type.String({ format: 'date-time' });
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const literals = <V extends string>(values: readonly V[], description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

const Status = literals(
  deedStatuses,
  'AWAITING_UPLOAD → (start) PROCESSING → REVIEW_READY | FAILED; any → DISCARDED (DELETE); AWAITING_UPLOAD never started → EXPIRED (2 hours after creation).',
);

export const CreateDeedBody = Type.Object(
  {
    verificationRequestId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A verification request of yours the deed belongs to; echoed in the events.' })),
    contactId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Bill the completed analysis to this contact’s saved card instead of to you.' })),
  },
  // Both fields name something of yours made before (a verification request, a contact with a card): an analysis needs neither.
  { additionalProperties: false, examples: [{}] },
);
export type CreateDeedBody = Static<typeof CreateDeedBody>;

export const DeedParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const DeedAnalysis = Type.Object({
  id: Type.String({ description: 'The analysis (`dda_…`).' }),
  status: Status,
  verificationRequestId: nullable(Type.String()),
  contactId: nullable(Type.String()),
  pageCount: nullable(Type.Integer({ description: 'Pages in the uploaded PDF, once started.' })),
  ocrPageCount: nullable(Type.Integer({ description: 'Pages that had no text layer and were read by OCR, once finished.' })),
  partyCount: nullable(Type.Integer({ description: 'Parties sent in deed-analysis.completed; null until then.' })),
  beneficiaryClassCount: nullable(Type.Integer({ description: 'Beneficiary classes sent in deed-analysis.completed; null until then.' })),
  failureReason: nullable(literals(failureReasons, 'Why the analysis FAILED; null otherwise.')),
  uploadExpiresAt: DateTime,
  documentPurgedAt: nullable(Type.String({ format: 'date-time', description: 'When PVS deleted the uploaded PDF; null while it may still hold it.' })),
  createdAt: DateTime,
  startedAt: nullable(DateTime),
  finishedAt: nullable(DateTime),
}, {
  examples: [
    {
      id: exampleId('deedAnalysis'),
      status: 'REVIEW_READY',
      verificationRequestId: null,
      contactId: null,
      pageCount: 14,
      ocrPageCount: 0,
      partyCount: 5,
      beneficiaryClassCount: 2,
      failureReason: null,
      uploadExpiresAt: '2026-11-21T12:40:00.000Z',
      documentPurgedAt: null,
      createdAt: '2026-11-21T10:40:00.000Z',
      startedAt: '2026-11-21T10:42:00.000Z',
      finishedAt: '2026-11-21T10:42:40.000Z',
    },
  ],
});
export type DeedAnalysis = Static<typeof DeedAnalysis>;

export const DeedCreated = Type.Object({
  deedAnalysis: Type.Object({ id: Type.String(), status: Type.Literal('AWAITING_UPLOAD') }),
  upload: Type.Object({
    url: Type.String({ description: 'PUT the PDF here as the raw body: no form, no JSON, no Authorization header.' }),
    headers: Type.Record(Type.String(), Type.String(), { description: 'Send exactly these headers with the PUT (Content-Type application/pdf and the signed ones); any difference is 403.' }),
    expiresAt: Type.String({ format: 'date-time', description: '15 minutes after creation.' }),
  }),
}, {
  examples: [
    {
      deedAnalysis: { id: exampleId('deedAnalysis'), status: 'AWAITING_UPLOAD' },
      upload: {
        url: `https://pvs.example/storage/deeds/${exampleId('deedAnalysis')}.pdf?upload=${exampleId('deedAnalysis')}&expires=1795258500&signature=CqcReZKFUpXSFLxkSDp3fgaQrzkhGv-H0sLa31Z8jec`,
        headers: { 'Content-Type': 'application/pdf', 'x-pvs-upload-id': exampleId('deedAnalysis') },
        expiresAt: '2026-11-21T10:55:00.000Z',
      },
    },
  ],
});

export const DeedStarted = Type.Object(
  { deedAnalysis: Type.Object({ id: Type.String(), status: Type.Literal('PROCESSING') }) },
  { examples: [{ deedAnalysis: { id: exampleId('deedAnalysis'), status: 'PROCESSING' } }] },
);

export const DeedListQuery = ListQuery({ status: Type.Optional(Status) });
