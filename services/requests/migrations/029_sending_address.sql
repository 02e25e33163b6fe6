-- A workspace's own sending address: used as e-mails' From only once its domain published the TXT
-- record that proves the workspace controls it (the token is the record's value; a new domain asks
-- for a new one). Bounces still go to the deployment's address.
ALTER TABLE workspace_branding
  ADD COLUMN email_sender_address text NOT NULL DEFAULT '',
  ADD COLUMN email_domain_token text NOT NULL DEFAULT '',
  ADD COLUMN email_domain_verified_at timestamptz;
