-- What was taken out of an original upload to make it safe to sign, in words; empty when it was
-- stored byte for byte as sent (and for every document stored before this was kept).
ALTER TABLE documents ADD COLUMN removed text[] NOT NULL DEFAULT '{}';
