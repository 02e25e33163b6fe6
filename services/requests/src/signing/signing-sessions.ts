/**
 * Signing sessions: the embedded signing URL a sender asks for on behalf of a signer, and opening
 * a link (from an e-mail or embedded), which starts a session the signing page works with. A link
 * that was replaced, used, has expired or whose request ended answers GONE, saying which.
 */
import { randomBytes } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EndedReason, RequestStatus } from "@countersign/domain";
import { returnUrlViolations } from "@countersign/domain";
import type {
  Actor,
  CreateEmbeddedSigningUrlRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type Database, isUuid, type Queryable, uuidv7, validationError } from "@countersign/kit";
import { type AuditActor, actorOf, appendAudit } from "../core/audit-trail.js";
import { pageBrandingOf } from "../core/branding.js";
import { enqueueRequestEvent } from "../core/events.js";
import { fieldValueStore } from "../core/field-value-store.js";
import { toFieldValue, toSignatureRequest } from "../core/messages.js";
import { type Locked, lockRequest, type RequestTransactions } from "../core/request-transactions.js";
import { routeOn } from "../core/routing.js";
import { hashToken, type LinkRow, linkGone, type SigningLinks, signingEnded } from "../core/signing-links.js";
import { actsInRouting, assertAllowed, isRecipientsTurn, recipientAllows } from "../core/state-machine.js";
import { recipientStore } from "../core/store/recipient-store.js";
import { requestStore } from "../core/store/request-store.js";
import type { RecipientRow, RequestRow } from "../core/store/rows.js";
import { assertAuthenticated, authenticationStatus, pendingMethods } from "./authentication-status.js";
import { allowedFrameOrigin } from "./embedding-settings.js";

export interface SigningSessionsDeps {
  db: Database;
  links: SigningLinks;
  transactions: RequestTransactions;
  /** How long an embedded signing URL can be opened. */
  embeddedUrlTtlMs?: number;
  /** A session ends after this long without a call. */
  sessionIdleMs?: number;
  /** Days after completion that a link still opens the signed document (30). */
  signedLinkDays?: number;
}

/** A live session: whose it is, through which kind of link, and where an embedded signer returns to. */
export interface SessionRef {
  sessionId: string;
  requestId: string;
  workspaceId: string;
  recipientId: string;
  linkKind: string;
  returnUrl: string;
  /** The methods of signer authentication this session has passed. */
  verifiedMethods: string[];
}

/** A session token is 43 base64url characters, like a link token. */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** However active, a session lasts at most this long; the signer opens their link again. */
const SESSION_MAX_AGE = "12 hours";

/** Why a request that has ended can no longer be signed, in words. */
const ENDED: Partial<Record<RequestStatus, { reason: EndedReason; message: string }>> = {
  cancelled: {
    reason: "cancelled",
    message: "the sender cancelled this request; there is nothing left to sign",
  },
  declined: { reason: "declined", message: "a signer declined this request; there is nothing left to sign" },
  expired: {
    reason: "expired",
    message: "this request expired before everyone signed; ask the sender for a new one",
  },
};

/** The 410 of a request that has ended, if it has; naming the link's frame and return URL, given one. */
function endedBy(status: RequestStatus, link?: LinkRow): ConnectError | undefined {
  const ended = ENDED[status];
  return ended && signingEnded(ended.reason, ended.message, { link });
}

/** The recipient as the audit trail names a signer acting through their browser: by name and e-mail. */
export function signerActor(
  recipient: Pick<RecipientRow, "id" | "name" | "email">,
  actor: Actor | undefined,
): AuditActor {
  return {
    type: "recipient",
    id: recipient.id,
    ip: actor?.ip ?? "",
    userAgent: actor?.userAgent ?? "",
    name: recipient.name,
    email: recipient.email,
  };
}

export class SigningSessions {
  private readonly embeddedUrlTtlMs: number;
  private readonly sessionIdleSeconds: number;
  private readonly signedLinkDays: number;
  private readonly transactions: RequestTransactions;

  constructor(private readonly deps: SigningSessionsDeps) {
    this.embeddedUrlTtlMs = deps.embeddedUrlTtlMs ?? 5 * 60_000;
    this.sessionIdleSeconds = Math.ceil((deps.sessionIdleMs ?? 30 * 60_000) / 1000);
    this.signedLinkDays = deps.signedLinkDays ?? 30;
    this.transactions = deps.transactions;
  }

  async embeddedSigningUrl({
    workspaceId,
    requestId,
    recipientId,
    returnUrl,
    actor,
    inPerson,
    validateOnly,
    frameOrigin,
  }: CreateEmbeddedSigningUrlRequest): Promise<{ url: string; expiresAt: Date }> {
    const violations = returnUrlViolations(returnUrl);
    if (!isUuid(recipientId))
      violations.push({ path: "recipientId", message: "is not a recipient of this request" });
    if (violations.length > 0) throw validationError(violations);
    const expiresAt = new Date(Date.now() + this.embeddedUrlTtlMs);
    let linkId = "";
    await this.transactions.mutate(
      workspaceId,
      requestId,
      async (tx, { request, recipients }) => {
        assertAllowed("embedded_signing_url", request.status);
        const framedIn = frameOrigin ? await allowedFrameOrigin(tx, workspaceId, frameOrigin) : "";
        const recipient = recipients.find((r) => r.id === recipientId);
        if (!recipient)
          throw validationError([{ path: "recipientId", message: "is not a recipient of this request" }]);
        if (!actsInRouting(recipient.kind) || !isRecipientsTurn(recipient.status, recipient.kind)) {
          const why =
            recipient.kind === "cc"
              ? "is a copy recipient and does not sign"
              : recipient.status === "pending"
                ? "cannot sign yet: an earlier routing group has not finished"
                : `has ${recipient.status} already`;
          throw new ConnectError(`recipient ${recipient.id} ${why}`, Code.FailedPrecondition);
        }
        if (inPerson && !recipient.host_email)
          throw new ConnectError(
            `recipient ${recipient.id} signs from their own link, not in person`,
            Code.FailedPrecondition,
          );
        linkId = await this.deps.links.issue(tx, {
          requestId,
          recipientId,
          kind: "embedded",
          returnUrl,
          frameOrigin: framedIn,
          openBy: expiresAt,
        });
        // A hosted signer's signing is started by their host, on the host's device: the trail names both.
        await appendAudit(
          tx,
          requestId,
          recipient.host_email ? "in_person_signing_started" : "embedded_signing_url_created",
          actorOf(actor),
          {
            recipientId,
            expiresAt,
            ...(framedIn ? { frameOrigin: framedIn } : {}),
            ...(recipient.host_email
              ? { host: { name: recipient.host_name, email: recipient.host_email }, signer: recipient.name }
              : {}),
          },
        );
      },
      validateOnly,
    );
    // A dry run made no link: it answers no URL, which no one could open.
    return { url: validateOnly ? "" : this.deps.links.urlOf(linkId), expiresAt };
  }

  /**
   * Opens a link: records the recipient's first view and starts a session. A signer who has
   * signed, and a copy recipient, get a session too, to see where the request stands and fetch
   * the sealed PDF once it is complete.
   */
  async openLink(token: string, actor: Actor | undefined) {
    const now = new Date();
    return this.deps.db.transaction(async (tx) => {
      const link = await this.deps.links.find(tx, token);
      const workspaceId = await requestStore.workspaceOfRequest(tx, link.request_id);
      const locked = await lockRequest(tx, workspaceId ?? "", link.request_id);
      // The request's end is said before the link's: ending a request revokes its links too.
      const recipient = locked.recipients.find((r) => r.id === link.recipient_id) as RecipientRow;
      // Each 410 names the link's frame, if it has one: the page saying why is shown there.
      if (recipient.status === "declined") {
        throw signingEnded("declined_by_you", "you declined this request; there is nothing left to sign", {
          link,
        });
      }
      const ended = endedBy(locked.request.status, link) ?? this.signedCopyGone(locked.request, now, link);
      if (ended) throw ended;
      const gone = linkGone(link, now);
      if (gone) throw gone;

      if (link.kind === "embedded")
        await tx.query("UPDATE signing_links SET opened_at = now() WHERE id = $1", [link.id]);
      // Opening is not viewing: mail filters fetch every link in a message. The signing page
      // records the view (recordView below) once it shows the request to a person.
      await appendAudit(tx, link.request_id, "link_opened", signerActor(recipient, actor), {
        kind: link.kind,
      });
      const sessionToken = randomBytes(32).toString("base64url");
      await tx.query(
        `INSERT INTO signing_sessions (id, token_hash, link_id, request_id, recipient_id) VALUES ($1, $2, $3, $4, $5)`,
        [uuidv7(), hashToken(sessionToken), link.id, link.request_id, recipient.id],
      );
      return {
        signatureRequest: toSignatureRequest(locked.request, locked.recipients),
        recipientId: recipient.id,
        returnUrl: link.return_url,
        sessionToken,
        frameOrigin: link.frame_origin,
      };
    });
  }

  /**
   * The signer of the session has the request in front of them: their first view makes the
   * recipient `viewed`, a sent request `in_progress`, and emits `viewed`; a later one changes nothing.
   */
  async recordView(sessionToken: string, actor: Actor | undefined): Promise<{ first: boolean }> {
    const session = await this.resolve(sessionToken);
    return this.deps.db.transaction(async (tx) => {
      const locked = await lockRequest(tx, session.workspaceId, session.requestId);
      const recipient = locked.recipients.find((r) => r.id === session.recipientId) as RecipientRow;
      assertAuthenticated(recipient, session);
      if (!recipientAllows("view", recipient.status)) return { first: false };
      const viewer = signerActor(recipient, actor);
      const after = await recordView(tx, locked, recipient, viewer, session.linkKind);
      // A viewer's part is to open the documents: done, the routing moves on.
      if (recipient.kind === "viewer") await routeOn(tx, this.deps.links, after, viewer);
      return { first: true };
    });
  }

  /**
   * Why a completed request's link no longer opens its signed document, once the days it may have
   * run out; nothing before then, or for a request that is not completed.
   */
  private signedCopyGone(
    request: { status: RequestStatus; completed_at: Date | null },
    now: Date,
    link?: LinkRow,
  ): ConnectError | undefined {
    if (request.status !== "completed" || !request.completed_at) return undefined;
    const until = request.completed_at.getTime() + this.signedLinkDays * 86_400_000;
    if (now.getTime() < until) return undefined;
    const day = request.completed_at.toISOString().slice(0, 10);
    return signingEnded(
      "copy_expired",
      `this request was completed on ${day}, and its link opens the signed document for ${this.signedLinkDays} days only; ask the sender for a copy`,
      { completedAt: request.completed_at, copyDays: this.signedLinkDays, link },
    );
  }

  /**
   * What the session's recipient sees: the request with their fields only, what the signers
   * before them filled in, to be shown in place, and every text tag that is covered.
   */
  async view(sessionToken: string) {
    const session = await this.resolve(sessionToken);
    const row = await requestStore.getRequest(this.deps.db, session.workspaceId, session.requestId);
    const recipients = await recipientStore.recipientsOf(this.deps.db, [session.requestId]);
    const request = toSignatureRequest(row as RequestRow, recipients);
    const signer = recipients.find((r) => r.id === session.recipientId) as RecipientRow;
    const authentication = await authenticationStatus(this.deps.db, signer, session);
    // Shown from the first screen, the one asking for codes too.
    const branding = await pageBrandingOf(this.deps.db, session.workspaceId);
    if (pendingMethods(signer, session).length > 0) {
      // Nothing of the documents before the codes: their names, fields and pages wait too.
      request.fields = [];
      request.documentIds = [];
      request.signedDocumentId = "";
      return {
        signatureRequest: request,
        recipientId: session.recipientId,
        returnUrl: session.returnUrl,
        filled: [],
        authentication,
        branding,
      };
    }
    const values = await fieldValueStore.read(this.deps.db, session.requestId);
    const nameOf = new Map(request.recipients.map((r) => [r.id, r.name]));
    const filled = request.fields.flatMap((field) => {
      const value = values.get(field.id);
      if (field.recipientId === session.recipientId || !value) return [];
      return [
        {
          field,
          // Later signers see an earlier signer's file by its name, as the sealed PDF writes it.
          value: {
            value: toFieldValue(value.kind === "attachment" ? { kind: "text", text: value.filename } : value),
          },
          filledBy: nameOf.get(field.recipientId) ?? "",
        },
      ];
    });
    const covers = request.fields.flatMap(({ documentId, page, cover }) =>
      cover ? [{ documentId, page, box: cover }] : [],
    );
    request.fields = request.fields.filter((f) => f.recipientId === session.recipientId);
    return {
      signatureRequest: request,
      recipientId: session.recipientId,
      returnUrl: session.returnUrl,
      filled,
      authentication,
      covers,
      branding,
    };
  }

  /**
   * The live session a token names, its inactivity clock reset. A session whose request ended is
   * GONE, saying why; with none at all the answer is UNAUTHENTICATED, so the signing page asks the
   * signer to open their link again.
   */
  async resolve(sessionToken: string): Promise<SessionRef> {
    const { rows } = SESSION_TOKEN.test(sessionToken)
      ? await this.deps.db.query<{
          request_id: string;
          workspace_id: string;
          recipient_id: string;
          link_kind: string;
          return_url: string;
          session_id: string;
          verified_methods: string[];
        }>(
          `UPDATE signing_sessions s SET last_seen_at = now()
             FROM signing_links l, signature_requests r
            WHERE s.token_hash = $1 AND s.ended_at IS NULL
              AND s.last_seen_at > now() - make_interval(secs => $2)
              AND s.created_at > now() - interval '${SESSION_MAX_AGE}'
              AND l.id = s.link_id AND r.id = s.request_id AND r.status <> ALL($3::text[])
              AND NOT (r.status = 'completed' AND COALESCE(r.completed_at <= now() - make_interval(days => $4), false))
          RETURNING s.id AS session_id, s.request_id, r.workspace_id, s.recipient_id, l.kind AS link_kind,
                    l.return_url, s.verified_methods`,
          [hashToken(sessionToken), this.sessionIdleSeconds, Object.keys(ENDED), this.signedLinkDays],
        )
      : { rows: [] };
    const row = rows[0];
    if (!row) {
      const ended = SESSION_TOKEN.test(sessionToken) ? await this.endedRequestOf(sessionToken) : undefined;
      if (ended) throw ended;
      throw new ConnectError(
        "this signing session has ended; open the link from your e-mail again",
        Code.Unauthenticated,
      );
    }
    return {
      sessionId: row.session_id,
      requestId: row.request_id,
      workspaceId: row.workspace_id,
      recipientId: row.recipient_id,
      linkKind: row.link_kind,
      returnUrl: row.return_url,
      verifiedMethods: row.verified_methods,
    };
  }

  /** Why the request of a session that is no longer live has ended, if it has. */
  private async endedRequestOf(sessionToken: string): Promise<ConnectError | undefined> {
    const { rows } = await this.deps.db.query<{ status: RequestStatus; completed_at: Date | null }>(
      `SELECT r.status, r.completed_at FROM signing_sessions s JOIN signature_requests r ON r.id = s.request_id
        WHERE s.token_hash = $1`,
      [hashToken(sessionToken)],
    );
    const [row] = rows;
    return row ? (endedBy(row.status) ?? this.signedCopyGone(row, new Date())) : undefined;
  }
}

/** The recipient's first view: recipient `viewed`, a sent request `in_progress`, event `viewed`. */
async function recordView(
  tx: Queryable,
  { request, recipients }: Locked,
  recipient: RecipientRow,
  viewer: AuditActor,
  linkKind: string,
): Promise<Locked> {
  const viewed = await recipientStore.markViewed(tx, recipient.id, viewer.ip, viewer.userAgent);
  const after = {
    request: await requestStore.markInProgress(tx, request),
    recipients: recipients.map((r) => (r.id === recipient.id ? viewed : r)),
  };
  await appendAudit(tx, request.id, "viewed", viewer, { kind: linkKind });
  await enqueueRequestEvent(tx, "viewed", after.request, after.recipients, viewed);
  return after;
}
