-- Who acted, as they were named then (a recipient's or console user's name and e-mail, an API key's
-- name), so that the trail names people rather than ids; and who a request comes from, as its
-- recipients see it.
ALTER TABLE audit_entries ADD COLUMN actor_name text NOT NULL DEFAULT '';
ALTER TABLE audit_entries ADD COLUMN actor_email text NOT NULL DEFAULT '';
ALTER TABLE signature_requests ADD COLUMN sender_name text NOT NULL DEFAULT '';
ALTER TABLE signature_requests ADD COLUMN sender_email text NOT NULL DEFAULT '';
