-- The operator console (docs/operators.md): manual reviews with their evidence, across partners.

-- An operator reads a person's evidence in the console to decide a manual review. Those reads belong in
-- the same audit trail as a partner's: a read is made either by a partner's API client or by an
-- operator, never both and never neither.
ALTER TABLE evidence_reads ALTER COLUMN api_client_id DROP NOT NULL;
ALTER TABLE evidence_reads ADD COLUMN operator_id text REFERENCES operators (id);
ALTER TABLE evidence_reads ADD CONSTRAINT evidence_reads_one_reader CHECK ((api_client_id IS NULL) <> (operator_id IS NULL));

-- The review queue: individuals waiting in MANUAL_REVIEW, across every partner. Few at any time among
-- many individuals, so a partial index.
CREATE INDEX verification_individuals_in_review ON verification_individuals (id) WHERE status = 'MANUAL_REVIEW';
