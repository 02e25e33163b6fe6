-- A file a signer gave while signing (an attachment field's value) is kept as a document of its own kind.
ALTER TABLE documents DROP CONSTRAINT documents_kind_check;
ALTER TABLE documents ADD CONSTRAINT documents_kind_check
  CHECK (kind IN ('original', 'signed', 'certificate', 'attachment'));
