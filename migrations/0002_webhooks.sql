-- Signed webhooks: destinations, one notification per (event, destination), and every attempt.

-- What an event is about (a payment, a lookup, a contact …), so notifications can be found by it
-- after the payload is gone; payloads of some categories (deed analyses) are held only sealed.
ALTER TABLE events ADD COLUMN subject_id text;
ALTER TABLE events ADD COLUMN test boolean NOT NULL DEFAULT false;
ALTER TABLE events ALTER COLUMN payload DROP NOT NULL;
ALTER TABLE events ADD COLUMN payload_sealed text;
ALTER TABLE events ADD COLUMN payload_purged_at timestamptz;
CREATE INDEX events_payload_retention ON events (created_at) WHERE payload_purged_at IS NULL;

CREATE TABLE webhook_destinations (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  url text NOT NULL,
  categories text[] NOT NULL,
  enabled boolean NOT NULL,
  -- Signing secrets are sealed (AES-GCM) with a key derived from SECRET_KEY; the service must read them.
  secret_sealed text NOT NULL,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX webhook_destinations_partner ON webhook_destinations (partner_id) WHERE deleted_at IS NULL;

CREATE TABLE webhook_notifications (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  event_id text NOT NULL REFERENCES events (id),
  destination_id text NOT NULL REFERENCES webhook_destinations (id),
  type text NOT NULL,
  category text NOT NULL,
  status text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_response_status integer,
  delivered_at timestamptz,
  -- A manual retry makes new rows; this names the row it retried.
  retry_of text REFERENCES webhook_notifications (id),
  lease_owner text,
  lease_expires_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_notifications_due ON webhook_notifications (next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX webhook_notifications_partner ON webhook_notifications (partner_id, id);
CREATE INDEX webhook_notifications_event ON webhook_notifications (event_id);

CREATE TABLE webhook_attempts (
  notification_id text NOT NULL REFERENCES webhook_notifications (id),
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  -- NONE (a 2xx), HTTP_STATUS, TIMEOUT, CONNECTION_REFUSED, CONNECTION_ERROR, REDIRECT, ADDRESS_REFUSED
  error_class text NOT NULL,
  -- At most 1 KB of the receiver's answer, for the partner's own debugging.
  response_excerpt text,
  PRIMARY KEY (notification_id, attempt)
);
