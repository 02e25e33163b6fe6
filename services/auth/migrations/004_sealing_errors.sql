-- Recent Errors also lists failed attempts to seal a fully signed request (source 'sealing'), with
-- what failed in words; a call's row keeps source 'api' and no detail.
ALTER TABLE api_errors
  ADD COLUMN source text NOT NULL DEFAULT 'api',
  ADD COLUMN detail text NOT NULL DEFAULT '';
