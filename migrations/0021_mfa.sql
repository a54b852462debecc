-- Multi-factor sign-in for the console and the portal (docs/security.md, "Multi-factor sign-in"): an
-- authenticator app's TOTP secret per account, its recovery codes, when a session last checked a second
-- factor, and partners that require one of all their portal users.

-- The TOTP secret is sealed (AES-GCM), never stored in the clear. A pending secret is the one shown on the
-- enrolment page and not yet confirmed with a code; it becomes the secret at confirmation. The last
-- accepted time step refuses a code used twice (each code is accepted once).
ALTER TABLE operators ADD COLUMN totp_secret_sealed text;
ALTER TABLE operators ADD COLUMN totp_pending_sealed text;
ALTER TABLE operators ADD COLUMN totp_enrolled_at timestamptz;
ALTER TABLE operators ADD COLUMN totp_last_step bigint;
ALTER TABLE portal_users ADD COLUMN totp_secret_sealed text;
ALTER TABLE portal_users ADD COLUMN totp_pending_sealed text;
ALTER TABLE portal_users ADD COLUMN totp_enrolled_at timestamptz;
ALTER TABLE portal_users ADD COLUMN totp_last_step bigint;

-- Ten per enrolment, shown once. Only an HMAC of each is kept (the codes are random and long, so a slow
-- hash adds nothing); a used code keeps its row with used_at so that it is refused, not unknown.
-- account_id is an operator's or a portal user's id (their prefixes differ).
CREATE TABLE recovery_codes (
  account_id text NOT NULL,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (account_id, code_hash)
);

-- When the session last checked a second factor (sign-in or step-up); NULL until it has.
ALTER TABLE web_sessions ADD COLUMN second_factor_at timestamptz;

-- A partner that requires a second factor of every portal user: set by an operator in the console.
CREATE TABLE portal_mfa_requirements (
  partner_id text PRIMARY KEY REFERENCES partners (id),
  required_by text NOT NULL,
  required_at timestamptz NOT NULL
);

-- A reset of a second factor is made with the `pvs` command on the machine, not by a person signed in.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_kind_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_kind_check CHECK (actor_kind IN ('OPERATOR', 'PORTAL_USER', 'ADMIN'));
