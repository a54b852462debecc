-- What a one-off screening search (`pvs screening search` with no server running) reads instead of
-- building the index of the whole list version: per import, the words of its entries' names with the
-- blocking keys the index finds them by, and each name as its words (docs/screening.md, "Searching
-- without a server"). Derived from screening_entries by the code named in `scheme`, so they can be
-- written again; an entry never changes.
--
-- Written in the import's own transaction. Imports made before this migration have none: the first
-- one-off search writes them (PL/pgSQL cannot transliterate or compute phonetic codes). Dropped when
-- their import leaves the current version: only the current version is searched without a server.

-- The indexes of words' keys and names' words take no pending list (fastupdate = off): a search would
-- read through it in full, and merging it takes ownership of the index, which the service may not have.
-- Imports are no slower for it.

-- An import's keys are complete exactly when this row exists with the scheme the code writes.
CREATE TABLE screening_search_key_sets (
  import_id text PRIMARY KEY REFERENCES screening_imports (id),
  -- The code that derived them (search-keys.ts): keys of another scheme are written again before use.
  scheme text NOT NULL,
  written_at timestamptz NOT NULL
);

-- Every word of an import's names (joined-word variants too), once per kind, with its blocking keys:
-- the word, its phonetic codes, the word with one letter left out.
CREATE TABLE screening_search_words (
  import_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('person', 'business')),
  token text NOT NULL,
  keys text[] NOT NULL,
  -- Not led by import_id or kind: a search finds words by their keys alone (screening.repository.ts).
  PRIMARY KEY (token, kind, import_id)
);
CREATE INDEX screening_search_words_keys ON screening_search_words USING gin (keys) WITH (fastupdate = off);

-- Every name of an entry (name, aliases, joined-word variants) as its words, sorted, repeats kept; names
-- with the same words are one row. Each word is tagged with the name's shape, `karlov/3` (0: the name
-- has an initial; 1–4: its number of words, 4 for more), so that a query's word is looked up only among
-- the names of the shapes it could make a candidate of.
CREATE TABLE screening_search_names (
  import_id text NOT NULL,
  entry_id text NOT NULL,
  name_no integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('person', 'business')),
  tokens text[] NOT NULL,
  -- The words it holds twice or more (Mohammed bin Mohammed), tagged alike.
  repeats text[] NOT NULL,
  -- Single-letter words: they pair without a shared key.
  initials integer NOT NULL,
  -- Not led by import_id: a search finds names by their words alone.
  PRIMARY KEY (entry_id, name_no, import_id)
);
CREATE INDEX screening_search_names_tokens ON screening_search_names USING gin (tokens) WITH (fastupdate = off);
CREATE INDEX screening_search_names_repeats ON screening_search_names USING gin (repeats) WITH (fastupdate = off);
