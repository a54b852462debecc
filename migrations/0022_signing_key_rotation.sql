-- Signing-key rotation (docs/security.md, "Signing keys"). A new key is published (in the JWKS, and
-- loaded by every node) before it signs: it signs from signs_from. The key it replaces keeps verifying, and
-- stays in the JWKS, until retires_at (every token it signed has expired, plus the JWKS cache time); then it
-- leaves by itself, and its row is deleted. retires_at is NULL for the newest key.
ALTER TABLE signing_keys ADD COLUMN signs_from timestamptz;
ALTER TABLE signing_keys ADD COLUMN retires_at timestamptz;
UPDATE signing_keys SET signs_from = created_at;
ALTER TABLE signing_keys ALTER COLUMN signs_from SET NOT NULL;
