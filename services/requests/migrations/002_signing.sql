-- Signing: the sessions a signing link starts, what each signer filled in, where and when they
-- agreed to sign, and the completion of a request whose signers have all signed.
ALTER TABLE recipients
  ADD COLUMN viewed_ip text NOT NULL DEFAULT '',
  ADD COLUMN viewed_user_agent text NOT NULL DEFAULT '',
  ADD COLUMN signed_ip text NOT NULL DEFAULT '',
  ADD COLUMN signed_user_agent text NOT NULL DEFAULT '',
  ADD COLUMN consented_at timestamptz;

-- A session is the browser's hold on one recipient after a link was opened: the cookie holds a
-- random token, this table only its hash. It ends after inactivity or when the recipient changes.
CREATE TABLE signing_sessions (
  id uuid PRIMARY KEY,
  token_hash bytea NOT NULL UNIQUE,
  link_id uuid NOT NULL REFERENCES signing_links (id) ON DELETE CASCADE,
  request_id uuid NOT NULL REFERENCES signature_requests (id) ON DELETE CASCADE,
  recipient_id uuid NOT NULL REFERENCES recipients (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz
);
CREATE INDEX signing_sessions_recipient ON signing_sessions (recipient_id) WHERE ended_at IS NULL;

-- What a signer put into each of their fields: { kind: typed|drawn|text|checkbox, ... }.
CREATE TABLE field_values (
  request_id uuid NOT NULL REFERENCES signature_requests (id) ON DELETE CASCADE,
  field_id text NOT NULL,
  recipient_id uuid NOT NULL REFERENCES recipients (id) ON DELETE CASCADE,
  value jsonb NOT NULL,
  PRIMARY KEY (request_id, field_id)
);

-- Completion as a durable job: written in the transaction of the last signature, worked off by a
-- retrying worker. document_id is chosen up front, so a retry after a crash stores no second copy.
CREATE TABLE completions (
  request_id uuid PRIMARY KEY REFERENCES signature_requests (id) ON DELETE CASCADE,
  workspace_id uuid NOT NULL,
  document_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz NOT NULL DEFAULT '-infinity',
  done_at timestamptz,
  last_error text NOT NULL DEFAULT ''
);
CREATE INDEX completions_due ON completions (next_attempt_at) WHERE done_at IS NULL;
