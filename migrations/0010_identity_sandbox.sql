-- The sandbox identity provider's own storage, standing in for the identity provider's systems: nothing
-- else reads these tables (src/providers/identity/sandbox-identity.ts). What a person gave is sealed with
-- AES-256-GCM under a key derived from SECRET_KEY (label `sandbox-identity`), so a raw read shows no name,
-- date of birth, document number or picture.

CREATE TABLE sandbox_identity_subjects (
  ref text PRIMARY KEY,
  created_at timestamptz NOT NULL
);

-- Each saved step. Saving a step again makes the earlier one not current; it is deleted then, unless a
-- verified attempt used it (it is that attempt's evidence).
CREATE TABLE sandbox_identity_steps (
  id text PRIMARY KEY,
  subject_ref text NOT NULL REFERENCES sandbox_identity_subjects (ref) ON DELETE CASCADE,
  step text NOT NULL CHECK (step IN ('details', 'document', 'selfie')),
  -- The step's fields as sealed JSON (`v1.iv.tag.ciphertext`, platform/crypto.ts); a selfie has none.
  fields_sealed text,
  current boolean NOT NULL,
  saved_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX sandbox_identity_steps_current ON sandbox_identity_steps (subject_ref, step) WHERE current;
CREATE INDEX sandbox_identity_steps_subject ON sandbox_identity_steps (subject_ref);

CREATE TABLE sandbox_identity_images (
  step_id text NOT NULL REFERENCES sandbox_identity_steps (id) ON DELETE CASCADE,
  side text NOT NULL CHECK (side IN ('front', 'back', 'selfie')),
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  -- 0x01, IV (12 bytes), GCM tag (16 bytes), ciphertext; the step id and side are its associated data.
  sealed bytea NOT NULL,
  PRIMARY KEY (step_id, side)
);

-- A verified attempt: the steps it ran on and its outcome (check codes, scores: nothing personal).
CREATE TABLE sandbox_identity_attempts (
  subject_ref text NOT NULL REFERENCES sandbox_identity_subjects (ref) ON DELETE CASCADE,
  attempt integer NOT NULL CHECK (attempt >= 1),
  details_id text NOT NULL REFERENCES sandbox_identity_steps (id),
  document_id text NOT NULL REFERENCES sandbox_identity_steps (id),
  selfie_id text NOT NULL REFERENCES sandbox_identity_steps (id),
  outcome jsonb NOT NULL,
  verified_at timestamptz NOT NULL,
  PRIMARY KEY (subject_ref, attempt)
);
