-- Whose each e-mail is, so that the sender takes the workspaces in turn (the kit's job-queue.ts
-- `party`, as completions do by their workspace_id): a bulk send's thousand e-mails no longer hold
-- another workspace's signing link behind them all. The claim still finds the due e-mails by
-- notifications_due; the turn orders what it found, which no index could hold.
ALTER TABLE notifications ADD COLUMN workspace_id uuid;
UPDATE notifications n SET workspace_id = s.workspace_id FROM signature_requests s WHERE s.id = n.request_id;
ALTER TABLE notifications ALTER COLUMN workspace_id SET NOT NULL;
