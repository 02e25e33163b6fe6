-- The trace of the call that queued an e-mail or a completion (W3C traceparent), when the process
-- traces: the job's attempts then join that trace (kit job-queue.ts, `traced` tables).
ALTER TABLE notifications ADD COLUMN traceparent text;
ALTER TABLE completions ADD COLUMN traceparent text;
