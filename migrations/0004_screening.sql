-- The screening engine's lists. Lists are global (every partner is screened against the same ones).
-- An import replaces one named list ("dfat", "opensanctions", …) and makes a new list version: the set
-- of imports in force. A version never changes once written, so a match can always be traced to it.

CREATE TABLE screening_imports (
  id text PRIMARY KEY,
  list text NOT NULL,
  format text NOT NULL,
  file_name text NOT NULL,
  file_sha256 text NOT NULL,
  entry_count integer NOT NULL,
  imported_at timestamptz NOT NULL
);

CREATE TABLE screening_entries (
  import_id text NOT NULL REFERENCES screening_imports (id),
  -- The source's own id: DFAT reference, OpenSanctions id, simple CSV id.
  entry_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('person', 'business')),
  name text NOT NULL,
  aliases text[] NOT NULL,
  dates_of_birth text[] NOT NULL,
  countries text[] NOT NULL,
  identifiers text[] NOT NULL,
  categories text[] NOT NULL,
  source text NOT NULL,
  -- A hash of everything the matcher reads: an entry is new in a version when no earlier version had it.
  content_hash text NOT NULL,
  PRIMARY KEY (import_id, entry_id)
);

CREATE TABLE screening_list_versions (
  version integer PRIMARY KEY,
  -- The import that made this version.
  import_id text NOT NULL REFERENCES screening_imports (id),
  created_at timestamptz NOT NULL
);

-- The imports in force in a version: one per list.
CREATE TABLE screening_version_lists (
  version integer NOT NULL REFERENCES screening_list_versions (version),
  list text NOT NULL,
  import_id text NOT NULL REFERENCES screening_imports (id),
  PRIMARY KEY (version, list)
);
