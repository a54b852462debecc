-- Evidence and reports (docs/verifications.md "Evidence and reports"). What a partner reads of a person's
-- evidence is never stored; that they read it is: who, when, which individual, and what came back.

-- One row per evidence read or report rendering. Never the content: no names, images, list entries or
-- PDF bytes. `status` is what the read answered (a report that could not be rendered is UPSTREAM_UNAVAILABLE).
CREATE TABLE evidence_reads (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  -- The partner's API client whose token made the read, or that asked for the report's URL.
  api_client_id text NOT NULL,
  verification_request_id text NOT NULL REFERENCES verification_requests (id),
  -- Null for the entity report, which covers the whole request.
  individual_id text REFERENCES verification_individuals (id),
  kind text NOT NULL CHECK (kind IN ('DOCUMENT_DETAILS', 'AML_MATCHES', 'ENTITY_REPORT', 'INDIVIDUAL_REPORT')),
  include_scans boolean,
  status text NOT NULL CHECK (status IN ('OK', 'NOT_AVAILABLE', 'UPSTREAM_UNAVAILABLE')),
  -- The HTTP request's id (X-Request-Id), to find its access-log line.
  http_request_id text NOT NULL,
  read_at timestamptz NOT NULL
);
CREATE INDEX evidence_reads_partner ON evidence_reads (partner_id, id);
CREATE INDEX evidence_reads_individual ON evidence_reads (individual_id, id);
CREATE INDEX evidence_reads_request ON evidence_reads (verification_request_id, id);

-- Settings an operator changes while the service runs (docs/operators.md "Runtime settings"): every node
-- reads them on use, so a change holds everywhere at once without a restart. A setting without a row
-- takes its value from the environment.
CREATE TABLE runtime_settings (
  name text PRIMARY KEY,
  value text NOT NULL,
  -- The operator (`opr_…`) or `cli` for `pvs setting set` run on the machine.
  changed_by text NOT NULL,
  changed_at timestamptz NOT NULL
);
