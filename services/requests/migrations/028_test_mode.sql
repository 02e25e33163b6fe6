-- Test mode: a request made with a test key (sk_test_…) is test data — listed and found only by
-- test keys, mailed to the outbox, sealed with a visible "not legally binding" mark — and so is a
-- bulk send started with one, with each of its rows.
ALTER TABLE signature_requests ADD COLUMN test boolean NOT NULL DEFAULT false;
ALTER TABLE bulk_sends ADD COLUMN test boolean NOT NULL DEFAULT false;
ALTER TABLE bulk_send_rows ADD COLUMN test boolean NOT NULL DEFAULT false;
