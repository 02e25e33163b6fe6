-- An event that fails to publish while the bus answers is the event's fault, not the bus's: it is
-- retried with backoff (attempts, last_error) and, after too many attempts, parked here so that
-- the events after it flow. Parked events are kept for an operator to inspect and re-queue.
ALTER TABLE outbox ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN last_error text;

CREATE TABLE outbox_parked (
  id uuid PRIMARY KEY,
  subject text NOT NULL,
  payload bytea NOT NULL,
  created_at timestamptz NOT NULL,
  attempts integer NOT NULL,
  last_error text,
  parked_at timestamptz NOT NULL DEFAULT now()
);
