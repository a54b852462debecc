-- Business lookups: the lookup, the register facts it read, the ownership structure it determined, the
-- idv entities (register parties) it found; and the offline copy of ASIC's company dataset.

CREATE TABLE business_lookups (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  abn text,
  acn text,
  scope text NOT NULL CHECK (scope IN ('FULL', 'ASIC_ONLY', 'UBO_ONLY')),
  -- Who pays: the contact, or null for the partner.
  contact_id text,
  status text NOT NULL CHECK (status IN ('PENDING', 'COMPLETED', 'FAILED')),
  failure_reason text,
  entity_name text,
  entity_type text,
  -- The registry facts as read (business data; a sole trader's name is the only personal part).
  registry jsonb,
  registry_retrieved_at timestamptz,
  -- The ownership structure: nodes, edges and party names only, never personal details.
  ownership jsonb,
  structure_as_of timestamptz,
  party_counts jsonb,
  ubo_count integer,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX business_lookups_partner ON business_lookups (partner_id, id);

-- A register party found by a lookup: the handle a verification individual is joined back by.
CREATE TABLE idv_entities (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  lookup_id text NOT NULL REFERENCES business_lookups (id),
  -- The register provider's reference for the party, to read its personal details live.
  party_ref text NOT NULL,
  given_names text,
  family_name text,
  created_at timestamptz NOT NULL,
  UNIQUE (lookup_id, party_ref)
);

-- One row per (party, role) on a lookup: a director who is also an owner has two.
CREATE TABLE lookup_individuals (
  lookup_id text NOT NULL REFERENCES business_lookups (id),
  idv_entity_id text NOT NULL REFERENCES idv_entities (id),
  role text NOT NULL,
  ownership_percent numeric,
  position integer NOT NULL,
  PRIMARY KEY (lookup_id, idv_entity_id, role)
);

-- Registry and ownership reads per lookup and day (UTC), against the daily read budget.
CREATE TABLE lookup_reads (
  lookup_id text NOT NULL REFERENCES business_lookups (id),
  day date NOT NULL,
  reads integer NOT NULL,
  PRIMARY KEY (lookup_id, day)
);

-- ASIC's public company dataset, loaded by `pvs registers import-asic`: company facts served offline.
CREATE TABLE asic_companies (
  acn text PRIMARY KEY,
  name text NOT NULL,
  type text NOT NULL,
  class text,
  sub_class text,
  status text NOT NULL,
  registered_on date,
  deregistered_on date,
  abn text,
  former_names text[] NOT NULL DEFAULT '{}',
  imported_at timestamptz NOT NULL
);
CREATE INDEX asic_companies_abn ON asic_companies (abn) WHERE abn IS NOT NULL;
