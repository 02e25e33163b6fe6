-- API keys that can be told apart: the secret's last four characters (a hint, not a secret: the
-- other 43 stay unknown), when a call last presented the key, and an optional expiry after which
-- the key is refused.
ALTER TABLE api_keys ADD COLUMN hint text NOT NULL DEFAULT '';
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
