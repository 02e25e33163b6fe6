-- E-mails to Organization Admins that a seal certificate expires soon (SealCertificateExpiring from
-- the requests service): a kit job queue (job-queue.ts), one row per warning and person, naming the
-- workspaces concerned. A redelivered event queues nothing twice (the unique key).
CREATE TABLE seal_expiry_notices (
  id uuid PRIMARY KEY,
  event_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The names of the person's workspaces sealed with the certificate, in order.
  workspaces text[] NOT NULL,
  -- The workspace's own seal, or the deployment's.
  own_seal boolean NOT NULL,
  subject text NOT NULL,
  not_after timestamptz NOT NULL,
  threshold_days integer NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz NOT NULL DEFAULT '-infinity',
  done_at timestamptz,
  parked_at timestamptz,
  last_error text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, user_id)
);
CREATE INDEX seal_expiry_notices_due ON seal_expiry_notices (next_attempt_at) WHERE done_at IS NULL AND parked_at IS NULL;
