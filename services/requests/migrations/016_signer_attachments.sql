-- A file a signer gave for an attachment field, the latest for each field: the value they may submit.
-- Its document is claimed by the request; a later file for the same field replaces the row.
CREATE TABLE signer_uploads (
  request_id uuid NOT NULL REFERENCES signature_requests (id) ON DELETE CASCADE,
  field_id text NOT NULL,
  recipient_id uuid NOT NULL REFERENCES recipients (id) ON DELETE CASCADE,
  document_id uuid NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (request_id, field_id)
);

-- The files signers submitted with their signatures, listed with the request and on its certificate:
-- [{ fieldId, recipientId, documentId, filename, contentType, sizeBytes, sha256, attachedAt }].
ALTER TABLE signature_requests ADD COLUMN signer_attachments jsonb NOT NULL DEFAULT '[]';
