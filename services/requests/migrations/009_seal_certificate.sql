-- The certificate completed PDFs are sealed with, as the process that seals reported it at its
-- start: the processes that serve the API, which never hold the key, answer what it is from here.
CREATE TABLE seal_certificate (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  subject text NOT NULL,
  issuer text NOT NULL,
  not_before timestamptz NOT NULL,
  not_after timestamptz NOT NULL,
  pades_level text NOT NULL,
  sha256_fingerprint text NOT NULL,
  self_signed boolean NOT NULL,
  reported_at timestamptz NOT NULL DEFAULT now()
);
