-- An endpoint registered with a test key (sk_test_…) gets the events of test requests only, and one
-- registered with a live key those of live requests: each mode's endpoints, their messages and
-- their deliveries are seen and managed by that mode's keys alone.
ALTER TABLE endpoints ADD COLUMN test boolean NOT NULL DEFAULT false;
