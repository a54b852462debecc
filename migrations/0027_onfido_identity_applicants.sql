-- Every applicant PVS made at Onfido for a subject, recorded the moment Onfido answers the create, before
-- anything else is done with it (src/providers/identity/onfido/onfido-steps.ts). An applicant holds the
-- person's name, date of birth and address, and forget deletes those this table names: one made for
-- details saved again after an attempt, whose copy of the steps failed or which lost to another save,
-- is deleted at once, and its row goes only once Onfido confirms it gone; if that delete fails, the row
-- stays and forget (the retention job) deletes it later. Ids and times only, as in 0024.
CREATE TABLE onfido_identity_applicants (
  subject_ref text NOT NULL REFERENCES onfido_identity_subjects (ref) ON DELETE CASCADE,
  applicant_id text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (subject_ref, applicant_id)
);

-- The applicants made before this table: the subject's current one and those its attempts ran on. Their
-- creation time is not known; the earliest time PVS's rows show for them stands in.
INSERT INTO onfido_identity_applicants (subject_ref, applicant_id, created_at)
SELECT subject_ref, applicant_id, min(at) FROM (
  SELECT ref AS subject_ref, applicant_id, updated_at AS at FROM onfido_identity_subjects WHERE applicant_id IS NOT NULL
  UNION ALL
  SELECT subject_ref, applicant_id, created_at FROM onfido_identity_checks
) known
GROUP BY subject_ref, applicant_id;
