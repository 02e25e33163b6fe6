/** The requests' rows the sweeps work through (expiry, scheduled reminders, expiry warnings). */
import type { DueRows } from "@countersign/kit";
import { ALLOWED_FROM, statusIn } from "../state-machine.js";

/**
 * What the sweeps find due (the kit's due-rows.ts locks them one at a time, replicas skipping each
 * other's), each row locked with its request.
 */
export const dueRows = {
  /** Requests past their expiry that no completion is sealing. */
  expiry: {
    select: "id, workspace_id",
    from: "signature_requests",
    where: `${statusIn("status", ALLOWED_FROM.expire)} AND expires_at <= now()
            AND NOT EXISTS (SELECT 1 FROM completions c WHERE c.request_id = signature_requests.id)`,
    order: "expires_at",
    lock: "signature_requests",
    id: "id",
  },
  /**
   * Recipients due a scheduled reminder — their turn, reachable by e-mail, their last e-mail the
   * request's reminder_every_days ago or longer, the request not expired.
   */
  reminder: {
    select: "s.id AS request_id, s.workspace_id, r.id AS recipient_id",
    from: "signature_requests s JOIN recipients r ON r.request_id = s.id",
    where: `${statusIn("s.status", ALLOWED_FROM.remind)} AND s.reminder_every_days > 0
            AND (s.expires_at IS NULL OR s.expires_at > now())
            AND r.kind <> 'cc' AND r.client_user_id = '' AND r.host_email = ''
            AND (r.status = 'sent' OR (r.status = 'viewed' AND r.kind <> 'viewer'))
            AND (SELECT max(n.created_at) FROM notifications n
                  WHERE n.recipient_id = r.id AND n.kind NOT IN ('signing_code', 'sender_expiry_warning'))
                <= now() - make_interval(days => s.reminder_every_days)`,
    order: "s.id, r.position",
    lock: "s",
    id: "r.id",
  },
  /**
   * Requests due their warning before expiry: expiring within their expiry_warning_days, not warned
   * yet, and sent before that window opened (one sent already inside it is not warned).
   */
  expiryWarning: {
    select: "id, workspace_id",
    from: "signature_requests",
    where: `${statusIn("status", ALLOWED_FROM.remind)} AND expiry_warning_days > 0 AND expiry_warned_at IS NULL
            AND expires_at > now() AND expires_at - make_interval(days => expiry_warning_days) <= now()
            AND sent_at < expires_at - make_interval(days => expiry_warning_days)`,
    order: "expires_at",
    lock: "signature_requests",
    id: "id",
  },
} satisfies Record<string, DueRows>;
