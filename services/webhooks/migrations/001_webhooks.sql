-- Webhook endpoints, the messages made for them (one per event and endpoint) and every attempt at
-- delivering a message. Retries are rows due at a time, never timers held in memory.
CREATE TABLE endpoints (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  event_types text[] NOT NULL,
  -- Secrets sealed with the configured key (AES-256-GCM); the previous one signs until it expires.
  secret_sealed bytea NOT NULL,
  previous_secret_sealed bytea,
  previous_secret_expires_at timestamptz,
  disabled_at timestamptz,
  disabled_reason text NOT NULL DEFAULT '',
  -- The first failure since the last success; an endpoint failing long enough is disabled.
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX endpoints_workspace ON endpoints (workspace_id, id DESC);

CREATE TABLE messages (
  id uuid PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  -- The exact body every attempt posts and signs.
  payload text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  -- Attempts of the current round; a manual retry or a replay starts a new round.
  round_attempts int NOT NULL DEFAULT 0,
  attempt_count int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- What the next attempt is for: 'delivery', 'retry' or 'replay'.
  next_trigger text NOT NULL DEFAULT 'delivery',
  claimed_until timestamptz NOT NULL DEFAULT '-infinity',
  -- Which claim an attempt's result belongs to: a result that comes back after its claim ran out
  -- (and the message was claimed again, retried or replayed) is logged but changes nothing.
  claim_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Redelivery of an event by the bus finds the message already made.
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX messages_endpoint ON messages (endpoint_id, id DESC);
CREATE INDEX messages_due ON messages (next_attempt_at) WHERE status = 'pending';

CREATE TABLE attempts (
  id uuid PRIMARY KEY,
  message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL,
  status_code int NOT NULL DEFAULT 0,
  duration_ms double precision NOT NULL,
  response_headers jsonb NOT NULL DEFAULT '{}',
  response_body text NOT NULL DEFAULT '',
  error text NOT NULL DEFAULT '',
  succeeded boolean NOT NULL,
  trigger text NOT NULL
);
CREATE INDEX attempts_message ON attempts (message_id, id DESC);
