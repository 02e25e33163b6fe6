-- A template is one aggregate: its roles and fields are read and written with it, never alone.
CREATE TABLE templates (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  document_id uuid NOT NULL,
  roles jsonb NOT NULL,
  fields jsonb NOT NULL,
  -- Bumped by every update; an update that read an older version starts over.
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX templates_by_workspace ON templates (workspace_id, id DESC);
