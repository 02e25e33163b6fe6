/**
 * What a request's schedule sends without anyone asking: a reminder to each recipient whose turn it
 * is, `reminder_every_days` after their last e-mail, until the request ends or expires; and once,
 * `expiry_warning_days` before it expires, a warning to those recipients and to the sender (when the
 * sender is a console user, who has an address). Each is audited as the service's own act.
 *
 * Every replica sweeps, one notice at a time (the kit's due-rows.ts); a request is locked (SKIP LOCKED) while
 * one of its notices is written, and the notice's e-mail row, written in that transaction, is what
 * makes the next sweep pass it by — so two replicas never send the same reminder.
 */
import { type Database, DrainLoop, type Logger, type Queryable, workThroughDue } from "@countersign/kit";
import { appendAudit, SYSTEM } from "../core/audit-trail.js";
import { queueEmails } from "../core/notice-queue.js";
import { lockRequest } from "../core/request-transactions.js";
import type { SigningLinks } from "../core/signing-links.js";
import { actsInRouting, isRecipientsTurn } from "../core/state-machine.js";
import { recipientStore } from "../core/store/recipient-store.js";
import { requestStore } from "../core/store/request-store.js";
import type { RecipientRow } from "../core/store/rows.js";
import { dueRows } from "../core/store/sweep-rows.js";

/** Whether a schedule may e-mail this recipient now: their turn, and an address of their own. */
function reachable(r: RecipientRow): boolean {
  return actsInRouting(r.kind) && isRecipientsTurn(r.status, r.kind) && !r.client_user_id && !r.host_email;
}

export interface ScheduledNoticesDeps {
  db: Database;
  links: SigningLinks;
  logger: Logger;
  /** Called after a commit that queued e-mails, so they go out at once. */
  afterCommit: () => void;
  /** How often to look for due notices (a minute; schedules are counted in days). */
  intervalMs?: number;
}

export class ScheduledNotices {
  private readonly loop: DrainLoop;

  constructor(private readonly deps: ScheduledNoticesDeps) {
    this.loop = new DrainLoop(
      async (stopping) => {
        await this.sweep(stopping);
      },
      deps.intervalMs ?? 60_000,
      { work: "scheduled reminders", logger: deps.logger },
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Sends every reminder and warning due now; how many of each. */
  async sweep(stopping?: AbortSignal): Promise<{ reminded: number; warned: number }> {
    const reminded = await workThroughDue(
      this.deps,
      {
        rows: dueRows.reminder,
        idOf: (due: { request_id: string; workspace_id: string; recipient_id: string }) => due.recipient_id,
        act: (tx, due) => this.remind(tx, due.workspace_id, due.request_id, due.recipient_id),
        logField: "recipientId",
        failure: "could not send a scheduled reminder; the others go on",
      },
      stopping,
    );
    const warned = await workThroughDue(
      this.deps,
      {
        rows: dueRows.expiryWarning,
        idOf: (due: { id: string; workspace_id: string }) => due.id,
        act: (tx, due) => this.warn(tx, due.workspace_id, due.id),
        logField: "signatureRequestId",
        failure: "could not warn of a request's expiry; the others go on",
      },
      stopping,
    );
    return { reminded, warned };
  }

  private async remind(tx: Queryable, workspaceId: string, requestId: string, recipientId: string) {
    const { request, recipients } = await lockRequest(tx, workspaceId, requestId);
    const recipient = recipients.find((r) => r.id === recipientId);
    // The sweep's query asks what `reachable` does, with the request locked: a disagreement is a bug.
    if (!recipient || !reachable(recipient))
      throw new Error(`recipient ${recipientId} was found due but is not`);
    await queueEmails(tx, {
      requestId,
      recipientIds: [recipientId],
      kind: "reminder",
      links: this.deps.links,
    });
    await recipientStore.setReminded(tx, recipientId, new Date());
    await appendAudit(tx, requestId, "reminded", SYSTEM, {
      recipientId,
      scheduled: true,
      everyDays: request.reminder_every_days,
    });
  }

  private async warn(tx: Queryable, workspaceId: string, requestId: string) {
    const { request, recipients } = await lockRequest(tx, workspaceId, requestId);
    const waiting = recipients.filter(reachable);
    await queueEmails(tx, {
      requestId,
      recipientIds: waiting.map((r) => r.id),
      kind: "expiry_warning",
      links: this.deps.links,
    });
    // The sender's e-mail hangs on a recipient still waited for, and lists them all.
    const stillToAct = recipients.filter((r) => actsInRouting(r.kind) && isRecipientsTurn(r.status, r.kind));
    const first = stillToAct[0];
    const toSender = request.sender_email !== "" && first !== undefined;
    if (toSender) {
      await queueEmails(tx, {
        requestId,
        recipientIds: [first.id],
        kind: "sender_expiry_warning",
        note: stillToAct.map((r) => `${r.name} <${r.email}>`).join(", "),
      });
    }
    await requestStore.setExpiryWarned(tx, requestId);
    await appendAudit(tx, requestId, "expiry_warning_sent", SYSTEM, {
      expiresAt: request.expires_at,
      recipientIds: waiting.map((r) => r.id),
      sender: toSender ? request.sender_email : null,
    });
  }
}
