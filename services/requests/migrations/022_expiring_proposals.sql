-- A request awaiting approval expires as a sent one does: the sweep finds both by this index.
DROP INDEX signature_requests_due;
CREATE INDEX signature_requests_due ON signature_requests (expires_at)
  WHERE status IN ('awaiting_approval', 'sent', 'in_progress');
