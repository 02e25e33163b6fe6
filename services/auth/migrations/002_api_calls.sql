-- Records of public API calls that the gateway reports: failed calls one by one (Recent Errors)
-- and every call aggregated per day and route (API Usage), latencies as histogram buckets.
CREATE TABLE api_errors (
  workspace_id uuid NOT NULL,
  request_id text NOT NULL,
  occurred_at timestamptz NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  code text NOT NULL,
  PRIMARY KEY (workspace_id, request_id)
);
CREATE INDEX api_errors_recent ON api_errors (workspace_id, occurred_at DESC);

CREATE TABLE api_usage (
  workspace_id uuid NOT NULL,
  day date NOT NULL,
  method text NOT NULL,
  route text NOT NULL,
  call_count bigint NOT NULL,
  error_count bigint NOT NULL,
  PRIMARY KEY (workspace_id, day, method, route)
);

-- One row per non-empty latency bucket (see latency-histogram.ts for the bounds).
CREATE TABLE api_usage_latency (
  workspace_id uuid NOT NULL,
  day date NOT NULL,
  method text NOT NULL,
  route text NOT NULL,
  bucket smallint NOT NULL,
  call_count bigint NOT NULL,
  PRIMARY KEY (workspace_id, day, method, route, bucket)
);
