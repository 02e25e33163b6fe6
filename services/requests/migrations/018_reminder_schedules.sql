-- Reminders on a schedule and a warning before expiry. A request keeps the schedule it was made
-- with (the workspace's defaults then, unless it named its own); the sweep reminds a recipient whose
-- turn it is reminder_every_days after their last e-mail, and warns once, expiry_warning_days before
-- expires_at.
ALTER TABLE signature_requests ADD COLUMN reminder_every_days int NOT NULL DEFAULT 0
  CHECK (reminder_every_days BETWEEN 0 AND 30);
ALTER TABLE signature_requests ADD COLUMN expiry_warning_days int NOT NULL DEFAULT 0
  CHECK (expiry_warning_days BETWEEN 0 AND 30);
ALTER TABLE signature_requests ADD COLUMN expiry_warned_at timestamptz;

-- The sweep looks only at requests that may still be reminded or warned.
CREATE INDEX signature_requests_scheduled ON signature_requests (id)
  WHERE status IN ('sent', 'in_progress') AND (reminder_every_days > 0 OR (expiry_warning_days > 0 AND expiry_warned_at IS NULL AND expires_at IS NOT NULL));

-- A workspace's defaults for its new requests; a workspace without a row has the defaults below.
CREATE TABLE request_settings (
  workspace_id uuid PRIMARY KEY,
  reminder_every_days int NOT NULL CHECK (reminder_every_days BETWEEN 0 AND 30),
  expiry_warning_days int NOT NULL CHECK (expiry_warning_days BETWEEN 0 AND 30),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The sweep asks for each waiting recipient's last e-mail.
CREATE INDEX notifications_recipient_created ON notifications (recipient_id, created_at DESC);
