-- A document uploaded in another format (a Word document, an image) is kept as the PDF made of it,
-- with the file it was made from beside it: all of the source's columns, or none.
ALTER TABLE documents
  ADD COLUMN source_filename text,
  ADD COLUMN source_content_type text,
  ADD COLUMN source_size_bytes bigint,
  ADD COLUMN source_sha256 text,
  ADD COLUMN source_blob_key text,
  ADD CONSTRAINT documents_source_whole CHECK (
    num_nulls(source_filename, source_content_type, source_size_bytes, source_sha256, source_blob_key) IN (0, 5)
  );
