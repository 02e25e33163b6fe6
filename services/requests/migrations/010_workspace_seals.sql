-- A workspace's own seal, uploaded by an Organization Admin: its documents are sealed with it
-- instead of the deployment's. The PKCS#12 file and its password are kept together, sealed with
-- AES-256-GCM under a key derived from COUNTERSIGN_LINK_SECRET and bound to the workspace's id;
-- what the console shows of the certificate is kept beside it in the clear.
CREATE TABLE workspace_seals (
  workspace_id uuid PRIMARY KEY,
  sealed_pkcs12 bytea NOT NULL,
  subject text NOT NULL,
  issuer text NOT NULL,
  not_before timestamptz NOT NULL,
  not_after timestamptz NOT NULL,
  sha256_fingerprint text NOT NULL,
  self_signed boolean NOT NULL,
  uploaded_by text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now()
);

-- The expiry warnings already published (SealCertificateExpiring): one per certificate, threshold
-- and owner ('' for the deployment's seal), so that a warning is mailed once however often the
-- sweep runs and on however many replicas.
CREATE TABLE seal_expiry_warnings (
  sha256_fingerprint text NOT NULL,
  owner text NOT NULL,
  threshold_days integer NOT NULL,
  warned_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (sha256_fingerprint, owner, threshold_days)
);
