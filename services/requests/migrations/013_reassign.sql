-- A sender may let signers hand the request to someone else from the signing page.
ALTER TABLE signature_requests ADD COLUMN allow_reassign boolean NOT NULL DEFAULT false;
