-- A viewer must open the documents before the routing moves on, and signs nothing.
ALTER TABLE recipients DROP CONSTRAINT recipients_kind_check;
ALTER TABLE recipients ADD CONSTRAINT recipients_kind_check CHECK (kind IN ('signer', 'cc', 'viewer'));
