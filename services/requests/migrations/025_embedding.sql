-- The origins whose pages may show a workspace's signing page in a frame (none unless it names
-- them), and the one origin an embedded signing link was made for: that link opens in a frame of
-- that origin only, without a cookie.
CREATE TABLE embedding_settings (
  workspace_id uuid PRIMARY KEY,
  frame_origins text[] NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE signing_links ADD COLUMN frame_origin text NOT NULL DEFAULT '';
