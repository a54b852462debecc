-- The foundation: partners and their API clients, token signing keys, the durable job queue,
-- the event outbox, idempotency records and shared rate-limit counters.

CREATE TABLE partners (
  id text PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  monitoring_eligible boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL
);

-- A client secret is never stored, only its scrypt hash.
CREATE TABLE api_clients (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  label text,
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX api_clients_partner ON api_clients (partner_id);

-- ES256 keys for access tokens; the private half is sealed with a key derived from SECRET_KEY.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  private_jwk_sealed text NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  kind text NOT NULL,
  -- A caller-chosen or schedule-slot key: one job per key, ever (until purged).
  key text UNIQUE,
  payload jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED')),
  run_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL CHECK (max_attempts >= 1),
  lease_owner text,
  lease_expires_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX jobs_due ON jobs (kind, run_at) WHERE status = 'QUEUED';
CREATE INDEX jobs_leased ON jobs (kind, lease_expires_at) WHERE status = 'RUNNING';
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE finished_at IS NOT NULL;

-- The outbox: an event is written in the same transaction as the state change that causes it.
CREATE TABLE events (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  type text NOT NULL,
  category text NOT NULL,
  payload jsonb NOT NULL,
  occurred_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX events_partner_created ON events (partner_id, created_at);

CREATE TABLE idempotency_keys (
  partner_id text NOT NULL REFERENCES partners (id),
  key text NOT NULL,
  request_hash text NOT NULL,
  response_status integer,
  response_body jsonb,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

-- Consumption counters shared by API nodes (when Redis is not configured).
CREATE TABLE rate_limit_counters (
  key text PRIMARY KEY,
  consumed bigint NOT NULL,
  updated_at timestamptz NOT NULL
);
