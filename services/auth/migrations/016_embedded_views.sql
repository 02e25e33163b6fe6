-- Console flows shown inside an integrator's app (docs/api.md "Sending and template editing inside
-- your app"). A view's ticket opens its URL once, before ticket_expires_at; opening issues the page
-- a credential that acts for the API key — or the integration and person — that made the view,
-- with the view's scopes, until credential_expires_at. Both secrets are kept only as keyed hashes,
-- and a view ends with its maker: the key deleted, the consent withdrawn.
CREATE TABLE embedded_views (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  api_key_id uuid REFERENCES api_keys (id) ON DELETE CASCADE,
  integration_id uuid,
  user_id uuid,
  kind text NOT NULL CHECK (kind IN ('sender', 'template_edit')),
  resource_id uuid,
  scopes text[] NOT NULL,
  frame_origin text NOT NULL DEFAULT '',
  return_url text NOT NULL DEFAULT '',
  -- What the flow's pages offer: the field types of its editors (none listed: all), the template a
  -- sender view sends from (none: any).
  field_types text[] NOT NULL DEFAULT '{}',
  template_id uuid,
  ticket_hash bytea NOT NULL UNIQUE,
  ticket_expires_at timestamptz NOT NULL,
  credential_hash bytea UNIQUE,
  credential_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Made by a key, or by an integration for a person: never a half of either.
  CHECK (
    (api_key_id IS NOT NULL AND integration_id IS NULL AND user_id IS NULL)
    OR (api_key_id IS NULL AND integration_id IS NOT NULL AND user_id IS NOT NULL)
  ),
  FOREIGN KEY (integration_id, user_id) REFERENCES integration_consents (integration_id, user_id)
    MATCH FULL ON DELETE CASCADE
);
-- Ended views go as new ones come, by when they end.
CREATE INDEX embedded_views_by_end ON embedded_views (coalesce(credential_expires_at, ticket_expires_at));
