-- Signature requests and everything that belongs to one: recipients, signing links, the audit
-- chain and queued notifications. Agreement sets group requests of one workspace.
CREATE TABLE agreement_sets (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agreement_sets_workspace ON agreement_sets (workspace_id, id DESC);

CREATE TABLE signature_requests (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  title text NOT NULL,
  message text NOT NULL DEFAULT '',
  template_id uuid,
  document_ids uuid[] NOT NULL,
  -- Fields bound to recipients: [{ id, type, recipientId, documentId, page, x, y, width, height, required, label }].
  fields jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('draft', 'sent', 'in_progress', 'completed', 'declined', 'cancelled', 'expired')),
  expires_at timestamptz,
  agreement_set_id uuid REFERENCES agreement_sets (id),
  agreement_set_position int,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  completed_at timestamptz,
  cancelled_at timestamptz,
  cancel_reason text NOT NULL DEFAULT '',
  signed_document_id uuid
);
CREATE INDEX signature_requests_workspace ON signature_requests (workspace_id, id DESC);
CREATE INDEX signature_requests_workspace_status ON signature_requests (workspace_id, status, id DESC);
-- The expiry sweep looks only at requests that can still expire.
CREATE INDEX signature_requests_due ON signature_requests (expires_at) WHERE status IN ('sent', 'in_progress');
CREATE INDEX signature_requests_set ON signature_requests (agreement_set_id, agreement_set_position);

CREATE TABLE recipients (
  id uuid PRIMARY KEY,
  request_id uuid NOT NULL REFERENCES signature_requests (id) ON DELETE CASCADE,
  workspace_id uuid NOT NULL,
  position int NOT NULL,
  name text NOT NULL,
  email text NOT NULL,
  role text NOT NULL DEFAULT '',
  kind text NOT NULL CHECK (kind IN ('signer', 'cc')),
  routing_order int NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'viewed', 'signed', 'declined')),
  client_user_id text NOT NULL DEFAULT '',
  viewed_at timestamptz,
  signed_at timestamptz,
  declined_at timestamptz,
  decline_reason text NOT NULL DEFAULT '',
  reminded_at timestamptz,
  UNIQUE (request_id, position)
);
CREATE INDEX recipients_request ON recipients (request_id, position);

-- A link's token is HMAC(link secret, id): only its hash is here, and a queued notification can
-- rebuild the token from the id when it is sent, so no token is ever stored.
CREATE TABLE signing_links (
  id uuid PRIMARY KEY,
  token_hash bytea NOT NULL UNIQUE,
  request_id uuid NOT NULL REFERENCES signature_requests (id) ON DELETE CASCADE,
  recipient_id uuid NOT NULL REFERENCES recipients (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('email', 'embedded')),
  return_url text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Embedded links must be opened before this; e-mail links live as long as the request.
  open_by timestamptz,
  opened_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX signing_links_recipient ON signing_links (recipient_id) WHERE revoked_at IS NULL;

CREATE TABLE audit_entries (
  request_id uuid NOT NULL REFERENCES signature_requests (id) ON DELETE CASCADE,
  sequence int NOT NULL,
  at timestamptz NOT NULL,
  action text NOT NULL,
  actor_type text NOT NULL,
  actor_id text NOT NULL DEFAULT '',
  ip text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  details jsonb NOT NULL,
  previous_hash text NOT NULL,
  hash text NOT NULL,
  PRIMARY KEY (request_id, sequence)
);

-- E-mails to send, written in the transaction that makes them due; a sender works them off and
-- retries failures, so a crash between commit and SMTP loses none.
CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  request_id uuid NOT NULL REFERENCES signature_requests (id) ON DELETE CASCADE,
  recipient_id uuid NOT NULL REFERENCES recipients (id) ON DELETE CASCADE,
  kind text NOT NULL,
  link_id uuid REFERENCES signing_links (id) ON DELETE CASCADE,
  note text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz NOT NULL DEFAULT '-infinity',
  -- Set when the e-mail went out, or was given up or dropped (last_error says which).
  done_at timestamptz,
  last_error text NOT NULL DEFAULT ''
);
CREATE INDEX notifications_due ON notifications (next_attempt_at) WHERE done_at IS NULL;
