-- What the hosted flow's submit starts: an attempt, checked by a job (the identity provider's checks and
-- AML screening), and what an operator decides on an individual sent to MANUAL_REVIEW. Still nothing
-- personal: the checks' codes and the provider's reference only.

-- One row per submit. `number` counts every submit (it is the attempt the provider is asked about);
-- an attempt that could not be checked at all (UNAVAILABLE) does not count against the individual's
-- attempt limit.
CREATE TABLE verification_attempts (
  individual_id text NOT NULL REFERENCES verification_individuals (id),
  number integer NOT NULL CHECK (number >= 1),
  status text NOT NULL CHECK (status IN ('CHECKING', 'PASSED', 'MANUAL_REVIEW', 'RETRY', 'FAILED', 'LOCKED_OUT', 'UNAVAILABLE')),
  submitted_at timestamptz NOT NULL,
  checked_at timestamptz,
  PRIMARY KEY (individual_id, number)
);
-- At most one attempt being checked per individual.
CREATE UNIQUE INDEX verification_attempts_checking ON verification_attempts (individual_id) WHERE status = 'CHECKING';

-- The individual's own risk, from its latest outcome; the request's riskLevel is the highest of them.
ALTER TABLE verification_individuals ADD COLUMN risk_level text CHECK (risk_level IN ('LOW', 'MEDIUM', 'HIGH'));

-- An operator's decision on an individual in MANUAL_REVIEW: who, when, what and why. One per individual,
-- since a decided individual is terminal.
CREATE TABLE verification_decisions (
  individual_id text PRIMARY KEY REFERENCES verification_individuals (id),
  operator_id text NOT NULL REFERENCES operators (id),
  decision text NOT NULL CHECK (decision IN ('PASS', 'FAIL')),
  note text NOT NULL,
  decided_at timestamptz NOT NULL
);

-- The sandbox identity provider's simulated outage for a person whose last name is Unavailable: it
-- begins at their first check and ends at this moment.
ALTER TABLE sandbox_identity_subjects ADD COLUMN outage_until timestamptz;
