-- How an endpoint's deliveries are written and signed, chosen when it is made: our events with the
-- Standard Webhooks headers, or DocuSign Connect's JSON with its HMAC header.
ALTER TABLE endpoints ADD COLUMN format text NOT NULL DEFAULT 'standard_webhooks'
  CHECK (format IN ('standard_webhooks', 'docusign_connect'));
