-- Bulk sends: one template sent to a list, one request a row. A row holds the whole
-- CreateSignatureRequestRequest it makes (protobuf), so a replica that takes it after a restart makes
-- exactly the request the sender asked for; the row's operation key makes a retried row answer the
-- request an earlier attempt made instead of a second one.
CREATE TABLE bulk_sends (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  template_id uuid NOT NULL,
  name text NOT NULL,
  title text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'completed', 'cancelled')),
  created_by text NOT NULL DEFAULT '',
  operation_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz
);
CREATE INDEX bulk_sends_workspace ON bulk_sends (workspace_id, id DESC);
CREATE UNIQUE INDEX bulk_sends_operation_key ON bulk_sends (workspace_id, operation_key) WHERE operation_key IS NOT NULL;

CREATE TABLE bulk_send_rows (
  bulk_send_id uuid NOT NULL REFERENCES bulk_sends (id) ON DELETE CASCADE,
  line int NOT NULL,
  input bytea NOT NULL,
  -- "Name <email>" of each of the row's people, for the list of rows.
  recipients jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'cancelled')),
  request_id uuid,
  error text NOT NULL DEFAULT '',
  attempts int NOT NULL DEFAULT 0,
  -- A replica working on the row holds it until then; one that crashed lets it go when it passes.
  leased_until timestamptz,
  -- A row that met a passing fault is not tried again before then.
  retry_at timestamptz,
  PRIMARY KEY (bulk_send_id, line)
);
-- The workers look only at rows still to send.
CREATE INDEX bulk_send_rows_pending ON bulk_send_rows (bulk_send_id, line) WHERE status = 'pending';

-- Lists of rows kept under a name to be sent later (DocuSign's bulk send lists): the rows as one
-- protobuf (a BulkSendList's rows), checked against a template only when the list is sent.
CREATE TABLE bulk_send_lists (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  name text NOT NULL,
  rows bytea NOT NULL,
  row_count int NOT NULL,
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bulk_send_lists_workspace ON bulk_send_lists (workspace_id, id DESC);
