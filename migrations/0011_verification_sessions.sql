-- A verification link's first use exchanges it for a session: the hosted flow survives a reload, but the
-- link cannot be shared. Only the session token's HMAC is stored.
CREATE TABLE verification_sessions (
  token_hash text PRIMARY KEY,
  individual_id text NOT NULL REFERENCES verification_individuals (id),
  expires_at timestamptz NOT NULL,
  -- A new link for the individual ends the sessions opened with earlier ones.
  revoked_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX verification_sessions_individual ON verification_sessions (individual_id) WHERE revoked_at IS NULL;
