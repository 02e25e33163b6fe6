-- Test keys (sk_test_…): what a test key makes is test data, kept apart from live data, never
-- mailed for real and sealed with a visible "not legally binding" mark. A key's mode is fixed at
-- creation, as its secret's prefix says; every key made before is live.
ALTER TABLE api_keys ADD COLUMN test boolean NOT NULL DEFAULT false;
