-- The partner portal and the operator console (docs/portal.md, docs/console.md): the people who sign in
-- to the portal, the sessions of both, the audit log of what people did there, and disabled partners.

-- A partner's staff who sign in to /portal. As for operators: the email is stored normalised and is one
-- person's sign-in name across PVS, only the password's scrypt hash is kept, the account starts with a
-- one-time password that must be replaced, and consecutive failures lock it for a while.
CREATE TABLE portal_users (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  email text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  password_hash text NOT NULL,
  must_change_password boolean NOT NULL DEFAULT true,
  password_changed_at timestamptz NOT NULL,
  failed_logins integer NOT NULL DEFAULT 0 CHECK (failed_logins >= 0),
  locked_until timestamptz,
  last_login_at timestamptz,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX portal_users_partner ON portal_users (partner_id);

-- A signed-in browser. The cookie holds a random token; only its SHA-256 is stored, so a copy of this
-- table signs nobody in. A session ends at expires_at (absolute), after idle_expires_at (moved on by
-- use), or when revoked (sign-out, password change, the account or its partner disabled).
CREATE TABLE web_sessions (
  token_hash text PRIMARY KEY,
  area text NOT NULL CHECK (area IN ('portal', 'console')),
  -- A portal user's id (area portal) or an operator's id (area console).
  account_id text NOT NULL,
  -- Set while the account still has its one-time password: the session may only replace it.
  password_change_required boolean NOT NULL,
  created_at timestamptz NOT NULL,
  idle_expires_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX web_sessions_account ON web_sessions (account_id) WHERE revoked_at IS NULL;

-- What people did in the portal and the console: every decision and every change, with who and when.
-- `detail` holds identifiers and the fields that changed, never a secret or a person's details.
CREATE TABLE audit_log (
  id text PRIMARY KEY,
  actor_kind text NOT NULL CHECK (actor_kind IN ('OPERATOR', 'PORTAL_USER')),
  actor_id text NOT NULL,
  actor_email text NOT NULL,
  -- The partner the change concerns, when it concerns one.
  partner_id text,
  action text NOT NULL,
  target_id text,
  detail jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_log_recent ON audit_log (created_at DESC, id DESC);
CREATE INDEX audit_log_partner ON audit_log (partner_id, created_at DESC) WHERE partner_id IS NOT NULL;

-- An operator can disable a partner: its tokens stop working, no new ones are issued, and its portal
-- users are signed out. Nothing is deleted.
ALTER TABLE partners ADD COLUMN disabled_at timestamptz;
