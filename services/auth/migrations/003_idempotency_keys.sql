-- Idempotency-Key records of the public API's POSTs (the gateway keeps no state of its own). A
-- row is a claim while status is NULL, until claimed_until; then the stored answer, replayed
-- until expires_at.
CREATE TABLE idempotency_keys (
  workspace_id uuid NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  claimed_until timestamptz NOT NULL,
  status int,
  content_type text NOT NULL DEFAULT '',
  body bytea,
  PRIMARY KEY (workspace_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
