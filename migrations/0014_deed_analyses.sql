-- Trust deed analyses (docs/deeds.md). The job record holds identifiers, status, counts, flags and times
-- only: never deed text, names, addresses or the uploaded file's name (SPEC "Deed analysis"). The PDF
-- waits in object storage under `storage_key` and is deleted when the analysis ends; what it yields is
-- sent once, sealed, by the deed-analysis.completed event and kept nowhere else.
CREATE TABLE deed_analyses (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  verification_request_id text REFERENCES verification_requests (id),
  contact_id text REFERENCES contacts (id),
  status text NOT NULL CHECK (status IN ('AWAITING_UPLOAD', 'PROCESSING', 'REVIEW_READY', 'FAILED', 'DISCARDED', 'EXPIRED')),
  storage_key text NOT NULL,
  -- The upload URL's end; an analysis not started 2 hours after creation expires.
  upload_expires_at timestamptz NOT NULL,
  byte_size integer,
  page_count integer,
  ocr_page_count integer,
  party_count integer,
  beneficiary_class_count integer,
  failure_reason text CHECK (failure_reason IN ('OCR_FAILED', 'TFN_CONTENT_DETECTED', 'EXTRACTION_INVALID_OUTPUT', 'ANALYSIS_UNAVAILABLE', 'TIMED_OUT')),
  started_at timestamptz,
  finished_at timestamptz,
  -- When the PDF was deleted from storage; null while it may still be there.
  document_purged_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX deed_analyses_partner ON deed_analyses (partner_id, id);
-- The sweeps: uploads never started, analyses stuck, documents still held after the end.
CREATE INDEX deed_analyses_open ON deed_analyses (status, created_at) WHERE document_purged_at IS NULL;
