-- A test event posted from Settings → Developer is kept in the endpoint's message log with its
-- attempt, so a failed test can be read again beside real deliveries. It is no delivery: a replay
-- does not send it again and the queue's metrics do not count it.
ALTER TABLE messages ADD COLUMN test boolean NOT NULL DEFAULT false;
