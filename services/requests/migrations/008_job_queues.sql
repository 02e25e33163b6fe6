-- E-mails and completions are kit job queues (job-queue.ts): a job given up after its last attempt
-- is parked (parked_at) — an e-mail keeps its outcome 'failed' for the API, a completion waits for
-- its sender — instead of being marked done (e-mails) or failed_at (completions).
ALTER TABLE notifications ADD COLUMN parked_at timestamptz;
UPDATE notifications SET parked_at = done_at, done_at = NULL WHERE outcome = 'failed';
DROP INDEX notifications_due;
CREATE INDEX notifications_due ON notifications (next_attempt_at) WHERE done_at IS NULL AND parked_at IS NULL;

ALTER TABLE completions RENAME COLUMN failed_at TO parked_at;
DROP INDEX completions_due;
CREATE INDEX completions_due ON completions (next_attempt_at) WHERE done_at IS NULL AND parked_at IS NULL;
