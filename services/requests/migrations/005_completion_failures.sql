-- A completion gives up after its last attempt instead of retrying for ever: failed_at parks the job
-- (no worker claims it), and the request says why, for its sender to cancel or resend it.
ALTER TABLE completions ADD COLUMN failed_at timestamptz;
ALTER TABLE signature_requests ADD COLUMN completion_failure jsonb;
DROP INDEX completions_due;
CREATE INDEX completions_due ON completions (next_attempt_at) WHERE done_at IS NULL AND failed_at IS NULL;
