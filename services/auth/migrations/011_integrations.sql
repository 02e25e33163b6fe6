-- Programs that log in with DocuSign's JWT grant (docs/restapi.md "OAuth"): the integration key is
-- the row's id, its RSA public key checks the assertions it signs, and a person's consent lets it
-- act as them. An access token is stored only as its keyed hash, like an API key's secret.
CREATE TABLE integrations (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  public_key_pem text NOT NULL,
  redirect_uris text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX integrations_by_workspace ON integrations (workspace_id, created_at DESC);

CREATE TABLE integration_consents (
  integration_id uuid NOT NULL REFERENCES integrations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  scopes text[] NOT NULL,
  granted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (integration_id, user_id)
);

-- A token outlives neither its consent nor the integration.
CREATE TABLE access_tokens (
  token_hash bytea PRIMARY KEY,
  integration_id uuid NOT NULL,
  user_id uuid NOT NULL,
  scopes text[] NOT NULL,
  issued_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  FOREIGN KEY (integration_id, user_id) REFERENCES integration_consents (integration_id, user_id) ON DELETE CASCADE
);
CREATE INDEX access_tokens_by_expiry ON access_tokens (expires_at);
CREATE INDEX access_tokens_by_consent ON access_tokens (integration_id, user_id);

-- API Usage by caller: each key's and integration's calls per day.
CREATE TABLE api_usage_callers (
  workspace_id uuid NOT NULL,
  day date NOT NULL,
  caller_id uuid NOT NULL,
  call_count bigint NOT NULL,
  error_count bigint NOT NULL,
  PRIMARY KEY (workspace_id, day, caller_id)
);
