-- Identity retention (src/modules/verifications/identity-retention.ts, decision 132): the identity provider
-- is told to forget a person once the retention rules say so, and PVS records on the individual that it
-- did. The subject reference is cleared then; when and why stay. A later link starts the person afresh
-- with a new subject, so these say when the latest subject was forgotten.
ALTER TABLE verification_individuals ADD COLUMN subject_forgotten_at timestamptz;
ALTER TABLE verification_individuals ADD COLUMN subject_forgotten_reason text CHECK (subject_forgotten_reason IN ('ABANDONED', 'RETENTION'));
ALTER TABLE verification_individuals ADD CONSTRAINT verification_individuals_forgotten_with_reason
  CHECK ((subject_forgotten_at IS NULL) = (subject_forgotten_reason IS NULL));

-- The hourly sweep reads two small sets rather than every individual: the finished ones still holding a
-- subject, in the order their retention ends, and the unfinished ones holding one (the people still
-- going, or who stopped). The status lists are spelled as the sweep's query spells them, so that the
-- planner can use these partial indexes.
CREATE INDEX verification_individuals_retained ON verification_individuals (completed_at)
  WHERE subject_ref IS NOT NULL AND status IN ('PASSED', 'MANUALLY_PASSED', 'FAILED', 'LOCKED_OUT');
CREATE INDEX verification_individuals_open_subject ON verification_individuals (id)
  WHERE subject_ref IS NOT NULL AND status IN ('PENDING', 'IN_PROGRESS');

-- When an unfinished individual's last link and session stopped working: every link and session of the
-- individual, spent, replaced, revoked and expired ones included.
CREATE INDEX verification_links_individual ON verification_links (individual_id);
CREATE INDEX verification_sessions_individual_all ON verification_sessions (individual_id);

-- A provider's notification names a subject: the individual it belongs to is found by it
-- (identity-notifications.routes.ts). One individual per subject.
CREATE UNIQUE INDEX verification_individuals_subject ON verification_individuals (subject_ref) WHERE subject_ref IS NOT NULL;
