-- Identity verification: requests, the individuals on them and their single-use links. No name, email,
-- phone, date of birth or document number is ever stored here: those stay with the identity provider,
-- which PVS addresses by an opaque subject reference.

CREATE TABLE verification_requests (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  mode text NOT NULL CHECK (mode IN ('AUSTRAC_CDD', 'TPB_POI')),
  status text NOT NULL CHECK (status IN ('DRAFT', 'UBO_REVIEW', 'READY_TO_SEND', 'VERIFICATIONS_SENT', 'COMPLETED')),
  lookup_id text REFERENCES business_lookups (id),
  -- Given by the partner (display only). A bound lookup's name is read from the lookup instead, since a
  -- sole trader's is a person's name.
  entity_name text,
  contact_id text REFERENCES contacts (id),
  structure_confirmed boolean NOT NULL DEFAULT false,
  risk_level text NOT NULL DEFAULT 'UNKNOWN' CHECK (risk_level IN ('LOW', 'MEDIUM', 'HIGH', 'UNKNOWN')),
  issue_list jsonb NOT NULL DEFAULT '[]',
  completed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX verification_requests_partner ON verification_requests (partner_id, id);
CREATE INDEX verification_requests_partner_status ON verification_requests (partner_id, status, id);
CREATE INDEX verification_requests_lookup ON verification_requests (partner_id, lookup_id) WHERE lookup_id IS NOT NULL;

CREATE TABLE verification_individuals (
  id text PRIMARY KEY,
  request_id text NOT NULL REFERENCES verification_requests (id),
  partner_id text NOT NULL REFERENCES partners (id),
  external_id text,
  idv_entity_id text REFERENCES idv_entities (id),
  role text NOT NULL,
  role_description text,
  status text NOT NULL CHECK (status IN ('PENDING', 'IN_PROGRESS', 'PASSED', 'MANUALLY_PASSED', 'FAILED', 'MANUAL_REVIEW', 'LOCKED_OUT')),
  attempt_count integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,
  manual_override boolean NOT NULL DEFAULT false,
  -- The identity provider's subject: where this person's details, document and selfie are kept.
  subject_ref text,
  check_results jsonb NOT NULL DEFAULT '[]',
  completed_at timestamptz,
  position integer NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX verification_individuals_request ON verification_individuals (request_id, position);

-- A link's token is never stored, only its HMAC. At most one live link per individual; its first use
-- spends it in exchange for a session.
CREATE TABLE verification_links (
  token_hash text PRIMARY KEY,
  individual_id text NOT NULL REFERENCES verification_individuals (id),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  replaced_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX verification_links_live ON verification_links (individual_id) WHERE used_at IS NULL AND replaced_at IS NULL;
