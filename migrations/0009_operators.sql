-- PVS's own operators: staff who review identity verifications and decide monitoring alerts. They sign
-- in with an email and a password at POST /ops/v1/token (docs/operators.md).

-- The email is stored normalised (lower case), so that unique means unique whatever the case typed.
-- A password is never stored, only its scrypt hash. An account starts with a one-time password that
-- must be replaced at the first sign-in. Consecutive failed sign-ins lock it for a while
-- (locked_until); a successful one resets the count.
CREATE TABLE operators (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  password_hash text NOT NULL,
  must_change_password boolean NOT NULL DEFAULT true,
  -- Tokens issued before this moment stop working (a password change signs the other sessions out).
  password_changed_at timestamptz NOT NULL,
  failed_logins integer NOT NULL DEFAULT 0 CHECK (failed_logins >= 0),
  locked_until timestamptz,
  last_login_at timestamptz,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
