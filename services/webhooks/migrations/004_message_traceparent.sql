-- The trace of the event a message was made from (W3C traceparent), when the process traces: each
-- delivery attempt joins the trace of the call that caused the event.
ALTER TABLE messages ADD COLUMN traceparent text;
