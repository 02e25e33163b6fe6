/**
 * A signer acting through their session: signing (their values checked and kept, the next routing
 * group notified, completion queued after the last signature) and declining (the request ends).
 * Each runs in one transaction under the request's row lock, with its audit entry and event.
 */

import { Code, ConnectError } from "@connectrpc/connect";
import {
  dateSignedText,
  dayOf,
  dayText,
  isTimeZone,
  SIGNER_LOCALES,
  type SignerLocale,
  sameAddress,
  signerLocaleOf,
} from "@countersign/domain";
import type { Actor, FieldValue } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type Queryable, validationError } from "@countersign/kit";
import { appendAudit } from "../core/audit-trail.js";
import { enqueueRequestEvent } from "../core/events.js";
import { fieldValueStore } from "../core/field-value-store.js";
import { drawingsOf, readSignerValues } from "../core/field-values.js";
import { LIMITS, personViolations } from "../core/request-rules.js";
import type { Locked, RequestTransactions } from "../core/request-transactions.js";
import { notifyRecipients, routeOn } from "../core/routing.js";
import { revokeLinks, type SigningLinks } from "../core/signing-links.js";
import { assertAllowed, assertRecipientAllowed } from "../core/state-machine.js";
import { recipientStore } from "../core/store/recipient-store.js";
import { requestStore } from "../core/store/request-store.js";
import type { RecipientRow } from "../core/store/rows.js";
import { uploadStore } from "../core/store/upload-store.js";
import { assertAuthenticated } from "./authentication-status.js";
import { drawnSignatureProblems } from "./drawn-signature.js";
import { type SessionRef, type SigningSessions, signerActor } from "./signing-sessions.js";

export interface SigningDeps {
  links: SigningLinks;
  sessions: SigningSessions;
  transactions: RequestTransactions;
}

export class Signing {
  constructor(private readonly deps: SigningDeps) {}

  async submit(
    sessionToken: string,
    consent: boolean,
    given: Record<string, FieldValue>,
    actor: Actor | undefined,
    dateForm: { locale: string; timeZone: string } = { locale: "", timeZone: "" },
  ) {
    const form = dateFormOf(dateForm);
    const session = await this.deps.sessions.resolve(sessionToken);
    // Drawings are decoded for a live session only, and before the request is locked: each takes milliseconds.
    const drawnProblems = await drawnSignatureProblems(drawingsOf(given));
    return this.inSession(session, async (tx, locked, signer) => {
      assertAuthenticated(signer, session);
      assertAllowed("sign", locked.request.status);
      if (signer.kind === "viewer")
        throw new ConnectError("you are asked to view this request, not to sign it", Code.FailedPrecondition);
      assertRecipientAllowed("sign", signer.status);
      const signedAt = new Date();
      const fields = locked.request.fields.filter((f) => f.recipientId === signer.id);
      const uploads = await uploadStore.uploadsOf(tx, locked.request.id, signer.id);
      const { values, violations } = readSignerValues(fields, given, {
        consent,
        signer,
        identityLocked: locked.request.lock_signer_identity,
        dateSigned: {
          date: dayOf(signedAt, form.timeZone),
          text: dateSignedText(signedAt, form.locale, form.timeZone),
        },
        writeDay: (day) => dayText(day, form.locale),
        drawnProblems,
        attachments: new Map(uploads.map((u) => [u.fieldId, u])),
      });
      if (violations.length > 0) throw validationError(violations, "the signature is not complete");

      const by = signerActor(signer, actor);
      // An approver has no fields: their consent is the approval.
      const act = signer.kind === "approver" ? "approved" : "signed";
      await fieldValueStore.save(tx, locked.request.id, signer.id, values);
      const attached = new Set(
        [...values.values()].flatMap((v) => (v.kind === "attachment" ? [v.documentId] : [])),
      );
      await requestStore.addSignerAttachments(
        tx,
        locked.request.id,
        uploads.filter((u) => attached.has(u.documentId)),
      );
      const signed = await recipientStore.markSigned(
        tx,
        signer.id,
        { ip: by.ip, userAgent: by.userAgent, consentedAt: signedAt, signedAt },
        act,
      );
      const recipients = locked.recipients.map((r) => (r.id === signer.id ? signed : r));
      const request = await requestStore.markInProgress(tx, locked.request);
      await appendAudit(tx, request.id, act, by, {
        consentedAt: signedAt,
        fieldIds: [...values.keys()],
        ...(signer.host_email
          ? { inPerson: { host: { name: signer.host_name, email: signer.host_email } } }
          : {}),
      });
      // An approval is its recipient's `signed` event, the recipient's kind and status saying which.
      await enqueueRequestEvent(tx, "signed", request, recipients, signed);
      await routeOn(tx, this.deps.links, { request, recipients }, signerActor(signed, undefined));
    });
  }

  async decline(sessionToken: string, reason: string, actor: Actor | undefined) {
    const trimmed = reason.trim();
    if (!trimmed || trimmed.length > LIMITS.reasonLength) {
      throw validationError([
        {
          path: "reason",
          message: trimmed ? `must be at most ${LIMITS.reasonLength} characters` : "is required",
        },
      ]);
    }
    const session = await this.deps.sessions.resolve(sessionToken);
    return this.inSession(session, async (tx, locked, signer) => {
      assertAuthenticated(signer, session);
      assertAllowed("decline", locked.request.status);
      if (signer.kind === "viewer" && signer.status === "viewed")
        throw new ConnectError(
          "you have viewed this request: there is nothing left for you to do",
          Code.FailedPrecondition,
        );
      assertRecipientAllowed("decline", signer.status);
      const declined = await recipientStore.markDeclined(tx, signer.id, trimmed);
      await revokeLinks(tx, locked.request.id);
      const request = await requestStore.setStatus(tx, locked.request.id, "declined");
      const recipients = locked.recipients.map((r) => (r.id === signer.id ? declined : r));
      await appendAudit(tx, request.id, "declined", signerActor(signer, actor), { reason: trimmed });
      await enqueueRequestEvent(tx, "declined", request, recipients, declined);
    });
  }

  /**
   * Hands the signer's place to someone else, where the sender allows it: the same recipient with
   * the new person's name and address, every link and session of the place ended, a new invitation
   * to the new person. The access code was the first person's to know, so it goes; an e-mailed code
   * goes to the new address. Never to someone already on the request or to its sender: one person
   * would hold two places.
   */
  async reassign(
    sessionToken: string,
    to: { name: string; email: string; reason: string },
    actor: Actor | undefined,
  ) {
    const name = to.name.trim();
    const email = to.email.trim();
    const reason = to.reason.trim();
    const violations = personViolations({ name, email }, (p) => p);
    if (!reason) violations.push({ path: "reason", message: "is required" });
    else if (reason.length > LIMITS.reasonLength)
      violations.push({ path: "reason", message: `must be at most ${LIMITS.reasonLength} characters` });
    if (violations.length > 0) throw validationError(violations, "the hand-over is not complete");
    const session = await this.deps.sessions.resolve(sessionToken);
    return this.inSession(session, async (tx, locked, signer) => {
      assertAuthenticated(signer, session);
      if (!locked.request.allow_reassign) {
        throw new ConnectError(
          "the sender did not allow handing this request to someone else",
          Code.FailedPrecondition,
        );
      }
      if (signer.client_user_id || signer.host_email) {
        throw new ConnectError(
          signer.host_email
            ? "you sign in person with your host: ask them to send it to someone else"
            : "you sign in the sender's app: ask the sender to send it to someone else",
          Code.FailedPrecondition,
        );
      }
      if (signer.kind !== "signer")
        throw new ConnectError("only a signer can hand their place to someone else", Code.FailedPrecondition);
      assertAllowed("sign", locked.request.status);
      assertRecipientAllowed("sign", signer.status);
      const taken = takenAddress(email, signer, locked);
      if (taken) throw validationError([{ path: "email", message: taken }]);
      await recipientStore.renameRecipient(tx, signer, name, email);
      await tx.query(
        "UPDATE recipients SET access_code_hash = NULL, auth_failures = 0, auth_locked_until = NULL WHERE id = $1",
        [signer.id],
      );
      await revokeLinks(tx, locked.request.id, [signer.id]);
      await appendAudit(tx, locked.request.id, "reassigned", signerActor(signer, actor), {
        recipientId: signer.id,
        from: { name: signer.name, email: signer.email },
        to: { name, email },
        reason,
      });
      await notifyRecipients(
        tx,
        this.deps.links,
        locked.request,
        [{ ...signer, name, email, access_code_required: false }],
        "invitation",
      );
      await requestStore.touch(tx, locked.request.id);
    });
  }

  /** Runs `change` for the session's signer under the request's lock; the answer the page gets. */
  private async inSession(
    session: SessionRef,
    change: (tx: Queryable, locked: Locked, signer: RecipientRow) => Promise<void>,
  ) {
    const signatureRequest = await this.deps.transactions.mutate(
      session.workspaceId,
      session.requestId,
      (tx, locked) =>
        change(tx, locked, locked.recipients.find((r) => r.id === session.recipientId) as RecipientRow),
    );
    return { signatureRequest, recipientId: session.recipientId, returnUrl: session.returnUrl };
  }
}

/**
 * Why a signer cannot hand their place to this address: it is theirs, the sender's, or that of
 * someone already on the request (a recipient, or the host of one), so one person would hold two
 * places — or the sender one of their own signers' — and sign for both.
 */
function takenAddress(
  email: string,
  signer: RecipientRow,
  { request, recipients }: Locked,
): string | undefined {
  if (sameAddress(email, signer.email)) return "is your own address: give the new signer's";
  if (sameAddress(email, request.sender_email))
    return "is the sender's address: give the address of the person who signs instead of you";
  const onRequest = recipients.some(
    (r) => sameAddress(email, r.email) || (r.host_email !== "" && sameAddress(email, r.host_email)),
  );
  if (onRequest) return "belongs to someone already on this request: give the address of someone who is not";
  return undefined;
}

/**
 * The language and time zone the signing page showed the date signed in, which the sealed PDF
 * writes it in too; refused when the page sent one Countersign does not know.
 */
function dateFormOf(given: { locale: string; timeZone: string }): {
  locale?: SignerLocale;
  timeZone?: string;
} {
  const locale = given.locale ? signerLocaleOf(given.locale) : undefined;
  const violations = [
    ...(given.locale && !locale
      ? [{ path: "locale", message: `must be one of ${SIGNER_LOCALES.join(", ")}` }]
      : []),
    ...(given.timeZone && !isTimeZone(given.timeZone)
      ? [{ path: "timeZone", message: "must be an IANA time zone, such as Europe/Berlin" }]
      : []),
  ];
  if (violations.length > 0) throw validationError(violations, "the signature is not complete");
  return { locale, timeZone: given.timeZone || undefined };
}
