-- A viewer must open the documents before the routing moves on, and signs nothing; an approver
-- approves (or declines), and signs nothing either.
ALTER TABLE recipients DROP CONSTRAINT recipients_kind_check;
ALTER TABLE recipients ADD CONSTRAINT recipients_kind_check CHECK (kind IN ('signer', 'cc', 'viewer', 'approver'));
ALTER TABLE recipients DROP CONSTRAINT recipients_status_check;
ALTER TABLE recipients ADD CONSTRAINT recipients_status_check
  CHECK (status IN ('pending', 'sent', 'viewed', 'signed', 'approved', 'declined'));
