-- A Recent Error opens to what the caller got: the key that made the call (by name, as it was then)
-- and the body the call answered.
ALTER TABLE api_errors ADD COLUMN key_name text NOT NULL DEFAULT '';
ALTER TABLE api_errors ADD COLUMN problem text NOT NULL DEFAULT '';
