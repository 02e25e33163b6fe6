-- The key of the client's operation that created a request (from its Idempotency-Key), so that a
-- retry whose first answer was lost finds the request instead of making a second one.
ALTER TABLE signature_requests ADD COLUMN operation_key text;
CREATE UNIQUE INDEX signature_requests_operation_key
  ON signature_requests (workspace_id, operation_key) WHERE operation_key IS NOT NULL;
