-- What each API key may do: its scopes, none for full access — which every key made before scopes
-- keeps. Checked against the list the gateway enforces (services/domain/src/api-scopes.ts).
ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT '{}';
