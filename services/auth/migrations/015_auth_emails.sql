-- Every e-mail of the auth service is one kit job queue (job-queue.ts), told apart by kind, where
-- three tables and three queues were: lock-out notices, account e-mails (invitations, password
-- resets) and seal-expiry notices. What a kind's words need is kept with it (details); a link's
-- e-mail reads whether its link still works when it is sent. E-mails still to send move over.
CREATE TABLE auth_emails (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('lockout', 'invitation', 'password_reset', 'seal_expiry')),
  -- Whom it goes to, for the kinds sent to a person's log-in address.
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  -- The invitation or password reset whose link it carries.
  ref_id uuid,
  -- The event it answers: a redelivered event queues nothing twice.
  event_id uuid,
  details jsonb NOT NULL DEFAULT '{}',
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz NOT NULL DEFAULT '-infinity',
  done_at timestamptz,
  parked_at timestamptz,
  last_error text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX auth_emails_event ON auth_emails (event_id, user_id) WHERE event_id IS NOT NULL;
CREATE INDEX auth_emails_due ON auth_emails (next_attempt_at) WHERE done_at IS NULL AND parked_at IS NULL;

INSERT INTO auth_emails (id, kind, user_id, details, attempts, next_attempt_at, parked_at, last_error, created_at)
SELECT id, 'lockout', user_id,
       jsonb_build_object('lockedUntil', to_jsonb(locked_until), 'failures', failures, 'address', address),
       attempts, next_attempt_at, parked_at, last_error, created_at
  FROM lockout_notices WHERE done_at IS NULL;

INSERT INTO auth_emails (id, kind, ref_id, attempts, next_attempt_at, parked_at, last_error, created_at)
SELECT id, kind, ref_id, attempts, next_attempt_at, parked_at, last_error, created_at
  FROM account_emails WHERE done_at IS NULL;

INSERT INTO auth_emails (id, kind, user_id, event_id, details, attempts, next_attempt_at, parked_at, last_error,
                         created_at)
SELECT id, 'seal_expiry', user_id, event_id,
       jsonb_build_object('workspaces', to_jsonb(workspaces), 'ownSeal', own_seal, 'subject', subject,
                          'notAfter', to_jsonb(not_after), 'thresholdDays', threshold_days),
       attempts, next_attempt_at, parked_at, last_error, created_at
  FROM seal_expiry_notices WHERE done_at IS NULL;

DROP TABLE lockout_notices;
DROP TABLE account_emails;
DROP TABLE seal_expiry_notices;
