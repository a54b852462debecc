-- Continuous monitoring (docs/monitoring.md): a contact's subscription, the alerts its re-screens open,
-- and the progress of each list version's re-screen so that a crashed one resumes where it stopped.

-- One row per contact ever subscribed. What is screened is the contact's name, as a business or a person
-- (screen_as), with the date of birth (sealed: personal data) and countries the partner gave.
CREATE TABLE monitoring_subscriptions (
  contact_id text PRIMARY KEY REFERENCES contacts (id),
  partner_id text NOT NULL REFERENCES partners (id),
  enabled boolean NOT NULL,
  -- PENDING: enabled, not yet screened; ACTIVE: screened against screened_version; ERROR: the last
  -- screening could not run (error_code); DISABLED: not monitored.
  status text NOT NULL CHECK (status IN ('PENDING', 'ACTIVE', 'ERROR', 'DISABLED')),
  error_code text CHECK (error_code IN ('NO_LIST_LOADED', 'SCREENING_FAILED')),
  coverage text[] NOT NULL,
  -- What the list version last screened against could cover of coverage; null until screened.
  observed_coverage text[],
  screen_as text NOT NULL CHECK (screen_as IN ('BUSINESS', 'PERSON')),
  date_of_birth_sealed text,
  countries text[] NOT NULL,
  -- The list version the contact was last screened against, and a hash of what was screened (name,
  -- kind, date of birth, countries): a contact whose subject changed is screened against the whole list.
  screened_version integer,
  screened_subject text,
  last_screened_at timestamptz,
  -- Bumped by every write: a batch screened from a read applies only if the row is still that revision.
  revision integer NOT NULL DEFAULT 0,
  enabled_at timestamptz,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX monitoring_subscriptions_enabled ON monitoring_subscriptions (contact_id) WHERE enabled;

-- A possible match on a monitored contact. Never two for one contact and list entry, across versions,
-- re-screens, retries and crashes: the unique key is what makes that so.
CREATE TABLE monitoring_alerts (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  contact_id text NOT NULL REFERENCES contacts (id),
  list text NOT NULL,
  entry_id text NOT NULL,
  -- The version matched against; with list it names the import holding the entry as it was matched.
  list_version integer NOT NULL REFERENCES screening_list_versions (version),
  categories text[] NOT NULL,
  score double precision NOT NULL,
  matched_name text NOT NULL,
  features jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('OPEN', 'CONFIRMED', 'DISMISSED')),
  decision text CHECK (decision IN ('TRUE_MATCH', 'FALSE_POSITIVE')),
  note text,
  decided_by_kind text CHECK (decided_by_kind IN ('PARTNER', 'OPERATOR')),
  decided_by text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (contact_id, list, entry_id)
);
CREATE INDEX monitoring_alerts_partner ON monitoring_alerts (partner_id, id);
CREATE INDEX monitoring_alerts_open ON monitoring_alerts (status, id) WHERE status = 'OPEN';

-- One row per list version's re-screen: contacts are taken in id order and after_contact_id is the
-- last one done, committed with that batch's alerts.
CREATE TABLE monitoring_rescreens (
  version integer PRIMARY KEY REFERENCES screening_list_versions (version),
  after_contact_id text,
  screened integer NOT NULL,
  alerts integer NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz
);
