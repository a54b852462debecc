-- Passkeys (WebAuthn) as a second factor beside the authenticator app (docs/security.md, "Multi-factor
-- sign-in"): an account's passkeys, and the challenge a web session was last given to sign.

-- The public key only: the private key never leaves the person's device or security key. The counter is
-- the authenticator's signature count; a response whose count is not above it (when either is non-zero)
-- is refused as a possible clone. account_id is an operator's or a portal user's id (their prefixes differ).
CREATE TABLE passkeys (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  credential_id text NOT NULL UNIQUE,
  public_key bytea NOT NULL,
  counter bigint NOT NULL,
  transports text[] NOT NULL DEFAULT '{}',
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX passkeys_account ON passkeys (account_id);

-- One challenge per session at a time, for one purpose, taken (deleted) by the answer that uses it: a
-- signed challenge is accepted once, and only before it expires. Ends with its session.
CREATE TABLE webauthn_challenges (
  token_hash text PRIMARY KEY REFERENCES web_sessions (token_hash) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('REGISTER', 'AUTHENTICATE')),
  challenge text NOT NULL,
  expires_at timestamptz NOT NULL
);
