/**
 * Tells Organization Admins, by e-mail, that a certificate their workspace's documents are sealed
 * with expires soon or has expired (SealCertificateExpiring, from the requests service), and what
 * to do: upload a new one in the console, or ask the operator to renew the deployment's. One
 * e-mail per warning and person, naming each of their workspaces concerned; queued when the event
 * arrives and sent as the auth service's other e-mails are (auth-emails.ts).
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { isolate } from "@countersign/domain";
import type { SealCertificateExpiring } from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import { isUuid, type Queryable } from "@countersign/kit";
import escapeHtml from "escape-html";
import type { Composed, DueEmail } from "./auth-emails.js";

/** What the warning's e-mail keeps of the event, for one Organization Admin. */
interface SealExpiryDetails {
  workspaces: string[];
  ownSeal: boolean;
  subject: string;
  notAfter: string;
  thresholdDays: number;
}

/**
 * Queues one e-mail per Organization Admin of the workspaces the warning concerns: the workspace
 * whose own seal it is, or every workspace sealed with the deployment's. A redelivered event queues
 * nothing twice. Returns how many were queued.
 */
export async function queueSealExpiryNotices(db: Queryable, event: SealCertificateExpiring): Promise<number> {
  if (!isUuid(event.eventId) || !event.notAfter) return 0;
  const own = event.workspaceId !== "";
  if (own && !isUuid(event.workspaceId)) return 0;
  const except = event.exceptWorkspaceIds.filter(isUuid);
  const { rowCount } = await db.query(
    `INSERT INTO auth_emails (id, kind, user_id, event_id, details)
     SELECT gen_random_uuid(), 'seal_expiry', m.user_id, $1,
            jsonb_build_object('workspaces', to_jsonb(array_agg(w.name ORDER BY w.name)), 'ownSeal', $2::boolean,
                               'subject', $3::text, 'notAfter', $4::text, 'thresholdDays', $5::int)
       FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.role = 'org_admin'
        AND (CASE WHEN $2 THEN m.workspace_id = $6::uuid ELSE NOT (m.workspace_id = ANY ($7::uuid[])) END)
      GROUP BY m.user_id
     ON CONFLICT (event_id, user_id) WHERE event_id IS NOT NULL DO NOTHING`,
    [
      event.eventId,
      own,
      event.subject.slice(0, 1000),
      timestampDate(event.notAfter).toISOString(),
      event.thresholdDays,
      own ? event.workspaceId : null,
      except,
    ],
  );
  return rowCount ?? 0;
}

/** The warning as sent, to the Organization Admin's address; `link` is the console. */
export function composeSealExpiryNotice(link: string) {
  return async (_db: Queryable, email: DueEmail): Promise<Composed> => {
    if (!email.user_email) return { notSent: "the person is gone" };
    const details = email.details as unknown as SealExpiryDetails;
    return {
      to: email.user_email,
      content: sealExpiryEmail({
        workspaces: details.workspaces,
        ownSeal: details.ownSeal,
        subject: details.subject,
        notAfter: new Date(details.notAfter),
        thresholdDays: details.thresholdDays,
        link,
      }),
    };
  };
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
  const whose = `${notice.workspaces.length === 1 ? "the workspace" : "the workspaces"} ${list(notice.workspaces.map((n) => `“${isolate(n)}”`))}`;
  const paragraphs = [
    expired
      ? `The certificate that seals the completed documents of ${whose} on Countersign expired on ${day(notice.notAfter)}.`
      : `The certificate that seals the completed documents of ${whose} on Countersign expires on ${day(notice.notAfter)}.`,
    `Certificate: ${isolate(notice.subject)}.`,
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
