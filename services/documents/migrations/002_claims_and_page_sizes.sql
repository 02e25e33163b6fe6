-- Who uses a document: a document with claims cannot be deleted (the foreign key makes a claim and
-- a delete that race end in one or the other, never a claim on a deleted document).
CREATE TABLE document_claims (
  document_id uuid NOT NULL REFERENCES documents (id),
  holder text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (document_id, holder)
);

-- Visible page sizes [[width, height], ...] in PDF points; NULL for documents stored before this
-- column existed, measured again from their bytes the first time they are claimed.
ALTER TABLE documents ADD COLUMN page_sizes jsonb;
