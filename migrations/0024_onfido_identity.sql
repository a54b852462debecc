-- The Onfido identity provider's record of what PVS made at Onfido (src/providers/identity/onfido/): ids,
-- document types and sides, attempt numbers and times. Nothing a person typed or photographed is kept
-- here: their details, images and check results stay at Onfido and are read from there when needed.

CREATE TABLE onfido_identity_subjects (
  ref text PRIMARY KEY,
  -- Made at the details step (Onfido needs a first and last name to make an applicant); null before.
  -- Onfido takes no change to an applicant once it has a check: details saved again after an attempt
  -- make a new applicant (with the current document and live photo copied over), and this moves to it.
  applicant_id text UNIQUE,
  -- The live photo saved last: the one the next check compares (Onfido takes the applicant's latest).
  live_photo_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- The current document, a row per side uploaded; saving the document step again replaces them all.
CREATE TABLE onfido_identity_documents (
  subject_ref text NOT NULL REFERENCES onfido_identity_subjects (ref) ON DELETE CASCADE,
  side text NOT NULL CHECK (side IN ('front', 'back')),
  document_id text NOT NULL,
  document_type text NOT NULL CHECK (document_type IN ('PASSPORT', 'DRIVER_LICENCE')),
  saved_at timestamptz NOT NULL,
  PRIMARY KEY (subject_ref, side)
);

-- The Onfido check of each attempt and what it ran on, so that asking for an attempt again reads its check
-- (never pays for a second) and evidence shows that attempt's images, not ones saved later.
CREATE TABLE onfido_identity_checks (
  subject_ref text NOT NULL REFERENCES onfido_identity_subjects (ref) ON DELETE CASCADE,
  attempt integer NOT NULL CHECK (attempt >= 1),
  check_id text NOT NULL UNIQUE,
  -- The applicant the check ran on: its details are that attempt's details.
  applicant_id text NOT NULL,
  document_type text NOT NULL CHECK (document_type IN ('PASSPORT', 'DRIVER_LICENCE')),
  front_document_id text NOT NULL,
  back_document_id text,
  live_photo_id text NOT NULL,
  created_at timestamptz NOT NULL,
  -- When PVS first saw the check complete: the attempt's verifiedAt (Onfido's check has no completion time).
  completed_at timestamptz,
  PRIMARY KEY (subject_ref, attempt)
);
