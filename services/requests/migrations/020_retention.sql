-- Retention: a workspace may have its ended requests' documents deleted some days after they end,
-- with or without their audit trail; a legal hold keeps a request from it.
ALTER TABLE request_settings
  ADD COLUMN retention_days int CHECK (retention_days BETWEEN 1 AND 3650),
  ADD COLUMN retention_deletes_evidence boolean NOT NULL DEFAULT false;

ALTER TABLE signature_requests
  ADD COLUMN legal_hold_reason text,
  ADD COLUMN legal_hold_by text,
  ADD COLUMN legal_hold_at timestamptz,
  -- A replica deleting the request's documents holds a lease on it: its token, and until when (renewed
  -- before each deletion). Others pass the request by, and a hold is refused, while it lasts.
  ADD COLUMN retention_lease uuid,
  ADD COLUMN retention_lease_until timestamptz,
  -- When retention deleted the documents; the request stays.
  ADD COLUMN documents_deleted_at timestamptz,
  -- The certificate of completion kept on its own when the documents went and the evidence stayed.
  ADD COLUMN certificate_document_id uuid,
  ADD CONSTRAINT signature_requests_legal_hold_whole CHECK (
    num_nulls(legal_hold_reason, legal_hold_by, legal_hold_at) IN (0, 3)
  );

-- The retention sweep looks only at ended requests whose documents are still there and not held.
CREATE INDEX signature_requests_retained ON signature_requests (workspace_id)
  WHERE status IN ('completed', 'declined', 'cancelled', 'expired')
    AND documents_deleted_at IS NULL AND legal_hold_at IS NULL;
