-- The trace an event was written in (W3C traceparent), when its process traces: the relay publishes
-- the event with it, so that what consumers do joins the trace of the call that caused the event.
ALTER TABLE outbox ADD COLUMN traceparent text;
