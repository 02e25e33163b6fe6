-- A document is of the mode it was made in: uploaded with a test key (sk_test_…), or the sealed PDF,
-- certificate or signer's file of a test request. Lists show the caller's mode's; a document is
-- read by its id in either mode, so that test requests may use live templates' documents.
ALTER TABLE documents ADD COLUMN test boolean NOT NULL DEFAULT false;
