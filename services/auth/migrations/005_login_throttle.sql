-- Failed console log-ins, counted per account (its normalised e-mail) and per client address, in
-- the database every auth replica shares: a key with too many failures in its window is locked for
-- a while, whichever gateway or auth replica the next attempt reaches.
CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  failures int NOT NULL,
  window_started_at timestamptz NOT NULL,
  locked_until timestamptz,
  -- When the current lock began: the failure that set it tells the account's owner, once.
  locked_at timestamptz
);

-- The e-mail that tells a person their account was locked, queued when the lock begins and sent by
-- whichever replica claims it first; retried with a backoff while the SMTP server refuses it.
CREATE TABLE lockout_notices (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  locked_until timestamptz NOT NULL,
  failures int NOT NULL,
  address text NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz NOT NULL DEFAULT '-infinity',
  done_at timestamptz,
  last_error text NOT NULL DEFAULT ''
);
CREATE INDEX lockout_notices_due ON lockout_notices (next_attempt_at) WHERE done_at IS NULL;
