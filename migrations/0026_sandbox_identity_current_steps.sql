-- The sandbox identity provider names a subject's current steps on the subject's row (details_id,
-- document_id, selfie_id) instead of flagging them on the steps. A step is then saved in one statement:
-- the new step and its images inserted, the subject's row pointed at it (which locks the row), the step
-- it replaces deleted unless an attempt ran on it; with a flag, the old row's flag and the new row's
-- would meet in a unique index within one statement, in an order PostgreSQL does not promise.
-- Not foreign keys: the steps already refer to the subject (ON DELETE CASCADE), and the pointer is set in
-- the same statement that inserts the step.
ALTER TABLE sandbox_identity_subjects ADD COLUMN details_id text, ADD COLUMN document_id text, ADD COLUMN selfie_id text;

UPDATE sandbox_identity_subjects s SET
  details_id = (SELECT id FROM sandbox_identity_steps WHERE subject_ref = s.ref AND step = 'details' AND current),
  document_id = (SELECT id FROM sandbox_identity_steps WHERE subject_ref = s.ref AND step = 'document' AND current),
  selfie_id = (SELECT id FROM sandbox_identity_steps WHERE subject_ref = s.ref AND step = 'selfie' AND current);

DROP INDEX sandbox_identity_steps_current;
ALTER TABLE sandbox_identity_steps DROP COLUMN current;
