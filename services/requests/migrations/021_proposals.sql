-- A request an agent's API key proposed (requests:propose) waits, awaiting approval, until a person
-- approves it — then it is sent — or rejects it — then it is cancelled. Who proposed it (the key's
-- name), who decided (an e-mail), when, and a rejection's reason stay on the request.
ALTER TABLE signature_requests DROP CONSTRAINT signature_requests_status_check;
ALTER TABLE signature_requests ADD CONSTRAINT signature_requests_status_check
  CHECK (status IN ('draft', 'awaiting_approval', 'sent', 'in_progress', 'completed', 'declined', 'cancelled', 'expired'));
ALTER TABLE signature_requests ADD COLUMN proposed_by text;
ALTER TABLE signature_requests ADD COLUMN proposed_at timestamptz;
ALTER TABLE signature_requests ADD COLUMN approval_decision text CHECK (approval_decision IN ('approved', 'rejected'));
ALTER TABLE signature_requests ADD COLUMN approval_decided_by text;
ALTER TABLE signature_requests ADD COLUMN approval_decided_at timestamptz;
ALTER TABLE signature_requests ADD COLUMN approval_note text;
CREATE INDEX signature_requests_awaiting_approval ON signature_requests (workspace_id, proposed_at)
  WHERE status = 'awaiting_approval';

-- Who approves what agents propose, besides the Organization Admins: a member's user id (auth's).
ALTER TABLE request_settings ADD COLUMN approver_user_id uuid;
