-- Lock-out notices are a kit job queue (job-queue.ts): one given up after its last attempt is parked
-- (parked_at) instead of marked done, and the age of the oldest waiting one is a metric.
ALTER TABLE lockout_notices ADD COLUMN parked_at timestamptz;
ALTER TABLE lockout_notices ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
DROP INDEX lockout_notices_due;
CREATE INDEX lockout_notices_due ON lockout_notices (next_attempt_at) WHERE done_at IS NULL AND parked_at IS NULL;
