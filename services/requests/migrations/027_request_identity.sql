-- What an integrator's app keeps with a request: its own id for it, answered and searched as given
-- (several requests may share one: a contract renewed, say), and whether each signer's name and
-- e-mail are theirs as the sender knows them, not to be changed on the signing page.
ALTER TABLE signature_requests ADD COLUMN external_id text NOT NULL DEFAULT '';
ALTER TABLE signature_requests ADD COLUMN lock_signer_identity boolean NOT NULL DEFAULT false;
CREATE INDEX signature_requests_external_id ON signature_requests (workspace_id, external_id)
  WHERE external_id <> '';
