-- How a workspace's signing pages and e-mails look: its colour, whether our name shows, the name
-- its e-mails come from, and its logo. The logo
-- is kept here rather than in the document store: it is small (100 KiB at most), replaced whole, and
-- read with the branding it belongs to.
CREATE TABLE workspace_branding (
  workspace_id uuid PRIMARY KEY,
  accent_color text NOT NULL DEFAULT '',
  hide_product_name boolean NOT NULL DEFAULT false,
  email_sender_name text NOT NULL DEFAULT '',
  logo bytea,
  logo_content_type text NOT NULL DEFAULT '',
  logo_sha256 text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);
