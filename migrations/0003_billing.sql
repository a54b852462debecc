-- Customer billing: contacts with a saved card, single-use card links, charges and billing runs;
-- and the sandbox payment gateway's own storage (a separate system that happens to share the database).

CREATE TABLE contacts (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  name text NOT NULL,
  email text,
  external_id text,
  -- The gateway's customer, made when the first card is saved and kept for later cards.
  gateway_customer_ref text,
  -- The saved card: the gateway's payment method and a summary. Never a card number.
  payment_method_ref text,
  card_brand text,
  card_last4 text,
  card_exp_month integer,
  card_exp_year integer,
  card_saved_at timestamptz,
  -- Set when a billing run is declined; cleared by a successful retry or a new card.
  payment_failed_at timestamptz,
  -- The partner stopped billing this contact.
  billing_blocked boolean NOT NULL DEFAULT false,
  archived_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX contacts_partner ON contacts (partner_id, id);
CREATE INDEX contacts_external_id ON contacts (partner_id, external_id) WHERE external_id IS NOT NULL;

-- A card link's token is never stored, only its HMAC. At most one live link per contact.
CREATE TABLE card_links (
  token_hash text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  contact_id text NOT NULL REFERENCES contacts (id),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  replaced_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX card_links_live ON card_links (contact_id) WHERE used_at IS NULL AND replaced_at IS NULL;

CREATE TABLE billing_runs (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  contact_id text NOT NULL REFERENCES contacts (id),
  -- OPEN gathers charges; CAPTURING is frozen while the gateway is asked; then CAPTURED, FAILED or VOID.
  status text NOT NULL CHECK (status IN ('OPEN', 'CAPTURING', 'CAPTURED', 'FAILED', 'VOID')),
  -- What the last attempt asked for (frozen when it started).
  amount integer NOT NULL DEFAULT 0 CHECK (amount >= 0),
  capture_at timestamptz NOT NULL,
  -- Attempts in all (the gateway idempotency key is run id + attempt) and since the card changed.
  attempts integer NOT NULL DEFAULT 0,
  card_attempts integer NOT NULL DEFAULT 0,
  -- The card the current attempt charges, frozen with the amount so a re-run asks the same thing.
  payment_method_ref text,
  next_retry_at timestamptz,
  failure_reason text,
  merchant_advice_code text,
  gateway_charge_ref text,
  captured_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX billing_runs_one_open ON billing_runs (contact_id) WHERE status = 'OPEN';
CREATE INDEX billing_runs_failed ON billing_runs (contact_id) WHERE status = 'FAILED';

CREATE TABLE charges (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  contact_id text REFERENCES contacts (id),
  billed_to text NOT NULL CHECK (billed_to IN ('PARTNER', 'CONTACT')),
  product text NOT NULL,
  reference_id text NOT NULL,
  amount integer NOT NULL CHECK (amount >= 0),
  status text NOT NULL CHECK (status IN ('PENDING', 'BILLED', 'CAPTURED', 'FAILED', 'VOID')),
  billing_run_id text REFERENCES billing_runs (id),
  void_reason text,
  voided_at timestamptz,
  -- A voided charge that had been captured is refunded by a job; this is the gateway's refund.
  refund_ref text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- One charge per billed thing: a job that runs twice cannot bill it twice.
  UNIQUE (partner_id, product, reference_id),
  CHECK ((billed_to = 'CONTACT') = (contact_id IS NOT NULL))
);
CREATE INDEX charges_partner ON charges (partner_id, id);
CREATE INDEX charges_contact ON charges (partner_id, contact_id, id) WHERE contact_id IS NOT NULL;
CREATE INDEX charges_run ON charges (billing_run_id) WHERE billing_run_id IS NOT NULL;

-- The sandbox gateway. It keeps what a gateway keeps, except the card number itself: a token holds
-- the behaviour the test card number chose, so a real number typed into the sandbox is never stored.
CREATE TABLE sandbox_gateway_tokens (
  id text PRIMARY KEY,
  brand text NOT NULL,
  last4 text NOT NULL,
  exp_month integer NOT NULL,
  exp_year integer NOT NULL,
  behaviour text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);

CREATE TABLE sandbox_gateway_payment_methods (
  id text PRIMARY KEY,
  customer_id text NOT NULL,
  brand text NOT NULL,
  last4 text NOT NULL,
  exp_month integer NOT NULL,
  exp_year integer NOT NULL,
  behaviour text NOT NULL,
  detached_at timestamptz,
  created_at timestamptz NOT NULL
);

CREATE TABLE sandbox_gateway_charges (
  id text PRIMARY KEY,
  payment_method_id text NOT NULL REFERENCES sandbox_gateway_payment_methods (id),
  amount integer NOT NULL,
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('succeeded', 'failed')),
  decline_code text,
  refunded_amount integer NOT NULL DEFAULT 0,
  description text,
  created_at timestamptz NOT NULL
);

-- Like a real gateway: a request repeated with its idempotency key gets the first answer.
CREATE TABLE sandbox_gateway_requests (
  idempotency_key text PRIMARY KEY,
  operation text NOT NULL,
  request_hash text NOT NULL,
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
