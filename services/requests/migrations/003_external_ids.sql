-- The sender's own ids for a request's recipients and documents (a DocuSign client's recipientId
-- and documentId), kept so that later calls can name them; empty when none was given.
ALTER TABLE recipients ADD COLUMN external_id text NOT NULL DEFAULT '';
ALTER TABLE signature_requests ADD COLUMN document_external_ids text[] NOT NULL DEFAULT '{}';

-- Lists of what changed since a time (DocuSign's status changes) read this index.
CREATE INDEX signature_requests_changes ON signature_requests (workspace_id, updated_at);
