-- Log-in through a workspace's OpenID Connect identity provider (sso.ts).

-- The client secret is sealed (AES-256-GCM under a key derived from the key pepper), never stored
-- in the clear.
CREATE TABLE single_sign_on (
  workspace_id uuid PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
  enabled boolean NOT NULL,
  issuer text NOT NULL,
  client_id text NOT NULL,
  client_secret_sealed bytea,
  allowed_domains text[] NOT NULL DEFAULT '{}',
  new_member_role text NOT NULL CHECK (new_member_role IN ('org_admin', 'member')),
  password_login_enabled boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- When the issuer, client or secret last changed, or single sign-on was switched on: sessions it
  -- opened before then no longer count (a replaced provider may have been a compromised one).
  provider_changed_at timestamptz NOT NULL DEFAULT now()
);

-- Who an identity provider's subject is: a person is found by "sub" after their first log-in, so
-- a changed e-mail at the provider still finds them, and nobody else's log-in can claim them.
CREATE TABLE single_sign_on_identities (
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, issuer, subject),
  UNIQUE (workspace_id, issuer, user_id)
);

-- A log-in under way: only the SHA-256 of its state is stored; nonce and PKCE verifier are
-- single-use and live ten minutes.
CREATE TABLE single_sign_on_logins (
  state_hash bytea PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  redirect_uri text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX single_sign_on_logins_by_expiry ON single_sign_on_logins (expires_at);

-- A person who joined through single sign-on has no password until they choose one (by a reset link).
ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;

-- The workspace whose identity provider opened a session: that session covers it only.
ALTER TABLE sessions ADD COLUMN single_sign_on_workspace_id uuid REFERENCES workspaces (id) ON DELETE CASCADE;
