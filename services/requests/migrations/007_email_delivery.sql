-- Each e-mail's outcome, for the recipient's delivery state in the API and the console: sent (the
-- SMTP server took it), failed (given up after its last try) or not_sent (no longer needed); NULL
-- while queued. The latest e-mail of a recipient is found by its index.
ALTER TABLE notifications ADD COLUMN outcome text;
UPDATE notifications SET outcome = CASE
    WHEN last_error = '' THEN 'sent'
    WHEN last_error LIKE 'given up%' THEN 'failed'
    ELSE 'not_sent' END
  WHERE done_at IS NOT NULL;
CREATE INDEX notifications_recipient ON notifications (recipient_id, id);
