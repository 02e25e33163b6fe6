/**
 * Tells Organization Admins, by e-mail, that a certificate their workspace's documents are sealed
 * with expires soon or has expired (SealCertificateExpiring, from the requests service), and what
 * to do: upload a new one in the console, or ask the operator to renew the deployment's. One
 * e-mail per warning and person, naming each of their workspaces concerned; queued when the event
 * arrives and sent by whichever replica claims it (a kit job queue), retried while SMTP refuses.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { SealCertificateExpiring } from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import { type Database, isUuid, JobQueue, type JobState, type Logger, type Mailer } from "@countersign/kit";
import escapeHtml from "escape-html";
import { AUTH_MAIL_SCHEDULE } from "./lockout-notices.js";

interface DueNotice extends JobState {
  id: string;
  email: string;
  workspaces: string[];
  own_seal: boolean;
  subject: string;
  not_after: Date;
  threshold_days: number;
}

export interface SealExpiryNoticesOptions {
  /** The console's public base URL, which the e-mail links to. */
  publicUrl: string;
  pollIntervalMs?: number;
}

export class SealExpiryNotices extends JobQueue<DueNotice> {
  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    logger: Logger,
    private readonly options: SealExpiryNoticesOptions,
  ) {
    super({
      name: "seal expiry e-mail",
      db,
      logger,
      table: {
        name: "seal_expiry_notices",
        key: "id",
        columns: ["user_id", "workspaces", "own_seal", "subject", "not_after", "threshold_days"],
        // Rows are keyed by random ids (one statement queues them all): claimed oldest first.
        order: "created_at",
        widen: "SELECT claimed.*, u.email FROM claimed JOIN users u ON u.id = claimed.user_id",
      },
      ...AUTH_MAIL_SCHEDULE,
      pollIntervalMs: options.pollIntervalMs ?? 5000,
      run: async (notice) => {
        await this.mailer.send({
          to: { name: "", email: notice.email },
          messageId: notice.id,
          ...sealExpiryEmail({
            workspaces: notice.workspaces,
            ownSeal: notice.own_seal,
            subject: notice.subject,
            notAfter: notice.not_after,
            thresholdDays: notice.threshold_days,
            link: `${this.options.publicUrl}/console`,
          }),
        });
        return { kind: "done" };
      },
    });
  }

  /**
   * Queues one e-mail per Organization Admin of the workspaces the warning concerns: the workspace
   * whose own seal it is, or every workspace sealed with the deployment's. Returns how many.
   */
  async queue(event: SealCertificateExpiring): Promise<number> {
    if (!isUuid(event.eventId) || !event.notAfter) return 0;
    const own = event.workspaceId !== "";
    if (own && !isUuid(event.workspaceId)) return 0;
    const except = event.exceptWorkspaceIds.filter(isUuid);
    const { rowCount } = await this.db.query(
      `INSERT INTO seal_expiry_notices (id, event_id, user_id, workspaces, own_seal, subject, not_after, threshold_days)
       SELECT gen_random_uuid(), $1, m.user_id, array_agg(w.name ORDER BY w.name), $2, $3, $4, $5
         FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.role = 'org_admin'
          AND (CASE WHEN $2 THEN m.workspace_id = $6::uuid ELSE NOT (m.workspace_id = ANY ($7::uuid[])) END)
        GROUP BY m.user_id
       ON CONFLICT (event_id, user_id) DO NOTHING`,
      [
        event.eventId,
        own,
        event.subject.slice(0, 1000),
        timestampDate(event.notAfter),
        event.thresholdDays,
        own ? event.workspaceId : null,
        except,
      ],
    );
    if (rowCount > 0) this.kick();
    return rowCount;
  }
}

const day = (date: Date) =>
  date.toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

const list = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

/** The warning's words: plain text, and the same as HTML with everything from outside escaped. */
export function sealExpiryEmail(notice: {
  workspaces: string[];
  ownSeal: boolean;
  subject: string;
  notAfter: Date;
  thresholdDays: number;
  link: string;
}) {
  const expired = notice.thresholdDays === 0;
  const whose = `${notice.workspaces.length === 1 ? "the workspace" : "the workspaces"} ${list(notice.workspaces.map((n) => `“${n}”`))}`;
  const paragraphs = [
    expired
      ? `The certificate that seals the completed documents of ${whose} on Countersign expired on ${day(notice.notAfter)}.`
      : `The certificate that seals the completed documents of ${whose} on Countersign expires on ${day(notice.notAfter)}.`,
    `Certificate: ${notice.subject}.`,
    expired
      ? "Documents completed from now on carry a seal that PDF readers reject; documents sealed before keep their valid seal."
      : "A seal made after that day is not valid in PDF readers; documents sealed before keep their valid seal.",
    notice.ownSeal
      ? "It is your workspace's own seal: upload its replacement (a PKCS#12 file) in the console, under Settings → Developer → Configuration."
      : "It is the deployment's seal: ask the operator of this Countersign to renew it, or upload your workspace's own seal (a PKCS#12 file) in the console, under Settings → Developer → Configuration.",
  ];
  return {
    subject: expired
      ? "Your Countersign seal certificate has expired"
      : "Your Countersign seal certificate expires soon",
    text: `${[...paragraphs, `Open the console: ${notice.link}`].join("\n\n")}\n`,
    html: [
      ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
      `<p><a href="${escapeHtml(notice.link)}">Open the console</a></p>`,
    ].join("\n"),
  };
}
