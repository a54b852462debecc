-- ATO payments: a partner's customer pays an amount against an ATO payment reference number (PRN)
-- through a hosted payment link; and the partner's commission on each payment.

-- Basis points of each payment's amount (150 = 1.5 %), set when the partner is created.
ALTER TABLE partners ADD COLUMN commission_bps integer NOT NULL DEFAULT 0 CHECK (commission_bps BETWEEN 0 AND 10000);

CREATE TABLE payments (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  status text NOT NULL CHECK (status IN ('CREATED', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
  amount integer NOT NULL CHECK (amount > 0),
  -- Fixed at create from the partner's commission then, so a later change never rewrites a payment.
  commission_amount integer NOT NULL CHECK (commission_amount >= 0),
  prn text NOT NULL,
  description text,
  contact_id text REFERENCES contacts (id),
  metadata jsonb NOT NULL,
  -- The attempts the payer made on the page; the last one decides a terminal status.
  attempts integer NOT NULL DEFAULT 0,
  -- The gateway's decline code of the decline that failed the payment.
  failure_reason text,
  gateway_charge_ref text,
  completed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX payments_partner ON payments (partner_id, id);
CREATE INDEX payments_partner_status ON payments (partner_id, status, id);

-- A link's token is never stored, only its HMAC. Regenerating replaces the live link; the old row
-- stays so that its holder is told the link was replaced rather than that it never existed.
CREATE TABLE payment_links (
  token_hash text PRIMARY KEY,
  payment_id text NOT NULL REFERENCES payments (id),
  expires_at timestamptz NOT NULL,
  replaced_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX payment_links_live ON payment_links (payment_id) WHERE replaced_at IS NULL;

-- One row per card the payer tried. CHARGING while the gateway has been asked and its answer is not
-- recorded: at most one per payment, and asked again with the same key until it is.
CREATE TABLE payment_attempts (
  payment_id text NOT NULL REFERENCES payments (id),
  attempt integer NOT NULL,
  -- The gateway's single-use token for the card (not the card): what asking again needs.
  payment_token text NOT NULL,
  status text NOT NULL CHECK (status IN ('CHARGING', 'SUCCEEDED', 'DECLINED')),
  decline_code text,
  merchant_advice_code text,
  gateway_charge_ref text,
  started_at timestamptz NOT NULL,
  settled_at timestamptz,
  PRIMARY KEY (payment_id, attempt)
);
CREATE UNIQUE INDEX payment_attempts_charging ON payment_attempts (payment_id) WHERE status = 'CHARGING';

-- The sandbox gateway: a card paying once on a hosted page is charged from its token, not a saved method.
ALTER TABLE sandbox_gateway_charges ALTER COLUMN payment_method_id DROP NOT NULL;
ALTER TABLE sandbox_gateway_charges ADD COLUMN token_id text REFERENCES sandbox_gateway_tokens (id);
