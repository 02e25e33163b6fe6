-- What a signer gives before the document is shown (docs/api.md "Signer authentication"): the
-- sender's access code, kept only as a keyed hash bound to the recipient, and a one-time code
-- e-mailed to them. Wrong codes count per recipient, whatever session gave them, and lock it out.
ALTER TABLE recipients ADD COLUMN access_code_hash bytea;
ALTER TABLE recipients ADD COLUMN email_code_required boolean NOT NULL DEFAULT false;
ALTER TABLE recipients ADD COLUMN auth_failures int NOT NULL DEFAULT 0;
ALTER TABLE recipients ADD COLUMN auth_locked_until timestamptz;

-- A session passes each method once; the e-mailed code is rebuilt from its notification's id with
-- the link secret, so no code is stored.
ALTER TABLE signing_sessions ADD COLUMN verified_methods text[] NOT NULL DEFAULT '{}';
ALTER TABLE signing_sessions ADD COLUMN code_notification_id uuid;
ALTER TABLE signing_sessions ADD COLUMN code_sent_at timestamptz;
ALTER TABLE signing_sessions ADD COLUMN codes_sent int NOT NULL DEFAULT 0;
