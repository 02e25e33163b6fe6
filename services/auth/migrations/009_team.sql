-- Running a team from the console: invitations by e-mail, password resets by e-mail, and an audit
-- of every change to a workspace's administration, whether the console or the CLI made it.

-- An invitation's link carries a token derived from its id with the server's pepper; only the
-- token's SHA-256 is stored, to find the invitation a link names.
CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('org_admin', 'member')),
  token_hash bytea NOT NULL UNIQUE,
  invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
  expires_at timestamptz NOT NULL,
  -- Accepted, revoked or replaced by a newer invitation to the same address: the link is dead.
  closed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invitations_open ON invitations (workspace_id, created_at DESC) WHERE closed_at IS NULL;

CREATE TABLE password_resets (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash bytea NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_resets_by_user ON password_resets (user_id, created_at DESC);

-- The e-mails that carry those links: a kit job queue (job-queue.ts), like the lock-out notices.
-- `kind` says which link: 'invitation' (ref_id an invitation) or 'password_reset' (a password reset).
CREATE TABLE account_emails (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('invitation', 'password_reset')),
  ref_id uuid NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz NOT NULL DEFAULT '-infinity',
  done_at timestamptz,
  parked_at timestamptz,
  last_error text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_emails_due ON account_emails (next_attempt_at) WHERE done_at IS NULL AND parked_at IS NULL;

-- Who changed what in a workspace's administration. actor_id is null for the operator (the CLI);
-- actor_email is kept as it was, so the entry still says who after the person is gone.
CREATE TABLE audit_entries (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  actor_id uuid,
  actor_email text NOT NULL,
  action text NOT NULL,
  target text NOT NULL,
  detail text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_entries_by_workspace ON audit_entries (workspace_id, id DESC);
