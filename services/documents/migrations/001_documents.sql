-- Document metadata; the bytes live in the blob store under blob_key.
CREATE TABLE documents (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  page_count integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('original', 'signed', 'certificate')),
  blob_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX documents_by_workspace ON documents (workspace_id, id DESC);
