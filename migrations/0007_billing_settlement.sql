-- Settling billing runs left CAPTURING, from the gateway's own record of the charge.

-- When the current attempt began. A run CAPTURING for longer than BILLING_SWEEP_AFTER_HOURS is one
-- whose capture job gave up; the sweeper finds it by this column.
ALTER TABLE billing_runs ADD COLUMN attempt_started_at timestamptz;
-- Nothing else writes a CAPTURING run, so its last update is when its attempt began.
UPDATE billing_runs SET attempt_started_at = updated_at WHERE status = 'CAPTURING';
CREATE INDEX billing_runs_capturing ON billing_runs (attempt_started_at) WHERE status = 'CAPTURING';

-- The sandbox gateway keeps the idempotency key a charge was made under on the charge itself, as PVS
-- asks Stripe to keep it in the PaymentIntent's metadata: a charge can be looked up by it after the
-- gateway has forgotten the key as an idempotency key (Stripe does after 24 hours).
ALTER TABLE sandbox_gateway_charges ADD COLUMN idempotency_key text;
CREATE INDEX sandbox_gateway_charges_key ON sandbox_gateway_charges (idempotency_key) WHERE idempotency_key IS NOT NULL;
