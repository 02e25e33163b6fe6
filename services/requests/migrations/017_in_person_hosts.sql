-- A signer who signs in person: the person who hosts the signing on their own device. No link is
-- e-mailed to such a signer; the host starts the signing when it is the signer's turn.
ALTER TABLE recipients ADD COLUMN host_name text NOT NULL DEFAULT '';
ALTER TABLE recipients ADD COLUMN host_email text NOT NULL DEFAULT '';
