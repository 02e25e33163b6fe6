-- The outbox becomes a job queue like the services' others (kit job-queue.ts): a failed event waits
-- for next_attempt_at (its claim's end stood for it before), and a parked one stays in the outbox
-- with parked_at, where every queue parks its jobs, instead of moving to outbox_parked.
ALTER TABLE outbox ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT '-infinity';
ALTER TABLE outbox ADD COLUMN parked_at timestamptz;
UPDATE outbox SET next_attempt_at = claimed_until, claimed_until = '-infinity'
 WHERE attempts > 0 AND claimed_until > now();
INSERT INTO outbox (id, subject, payload, created_at, attempts, last_error, parked_at)
SELECT id, subject, payload, created_at, attempts, last_error, parked_at FROM outbox_parked
    ON CONFLICT (id) DO NOTHING;
DROP TABLE outbox_parked;
