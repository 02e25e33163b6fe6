-- A bulk send's rows become jobs of the kit's queue (job-queue.ts), as completions and e-mails are:
-- the same claim, lease, backoff (now capped), parking and metrics instead of the worker's own. A
-- row is finished (done_at) once it is sent, failed or cancelled; its status stays what the sender
-- reads. Rows carry their workspace so that two workspaces' bulk sends take turns.
ALTER TABLE bulk_send_rows
  ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid(),
  ADD COLUMN workspace_id uuid,
  ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN claimed_until timestamptz NOT NULL DEFAULT '-infinity',
  ADD COLUMN done_at timestamptz,
  ADD COLUMN parked_at timestamptz,
  ADD COLUMN last_error text NOT NULL DEFAULT '',
  ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();

UPDATE bulk_send_rows r
   SET workspace_id = b.workspace_id,
       created_at = b.created_at,
       next_attempt_at = COALESCE(r.retry_at, now()),
       claimed_until = COALESCE(r.leased_until, '-infinity'),
       done_at = CASE WHEN r.status = 'pending' THEN NULL ELSE COALESCE(b.ended_at, now()) END
  FROM bulk_sends b
 WHERE b.id = r.bulk_send_id;

ALTER TABLE bulk_send_rows
  ALTER COLUMN workspace_id SET NOT NULL,
  DROP COLUMN leased_until,
  DROP COLUMN retry_at;

-- A batch whose last row was recorded by a worker that died before it completed the batch: rows are
-- now recorded and their batch completed in one transaction, so no drain looks for such batches.
UPDATE bulk_sends b SET status = 'completed', ended_at = now()
 WHERE b.status = 'running'
   AND NOT EXISTS (SELECT 1 FROM bulk_send_rows r WHERE r.bulk_send_id = b.id AND r.status = 'pending');

CREATE UNIQUE INDEX bulk_send_rows_id ON bulk_send_rows (id);
-- The queue looks only at rows still to send.
DROP INDEX bulk_send_rows_pending;
CREATE INDEX bulk_send_rows_due ON bulk_send_rows (next_attempt_at) WHERE done_at IS NULL AND parked_at IS NULL;
