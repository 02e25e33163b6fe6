-- Events written in the same transaction as the state change they announce. A relay claims rows
-- for a while (claimed_until), publishes them with the row id as the de-duplication id, and
-- deletes them; rows of a relay that died are claimed again when the claim runs out.
CREATE TABLE outbox (
  id uuid PRIMARY KEY,
  subject text NOT NULL,
  payload bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz NOT NULL DEFAULT '-infinity'
);
