import { localeName } from "@countersign/domain/web";
import { type ReactNode, useState } from "react";
import { Link } from "wouter";
import { ok } from "../../shared/api-client";
import { api, inWorkspace } from "../api";
import { afterRequestChange, keys, useInvalidate } from "../queries";
import type { AuditEntry, EmailDelivery, Recipient, SignatureRequest } from "../types";
import { BusyButton, Confirm, ErrorNote, Show, useAction, useLoaded, When } from "../ui";
import { useWorkspace } from "../workspace";
import { ApprovalCard } from "./ApprovalCard";
import { AuditEntryDetails } from "./AuditEntryDetails";
import { handOversByRecipient, RecipientHistory } from "./RecipientHistory";
import { RetentionCard } from "./RetentionCard";
import { StatusBadge } from "./status";

const OPEN = new Set(["sent", "in_progress"]);
/** Ended before everyone signed: the sender corrects and sends it again. */
const ENDED_UNSIGNED = new Set(["declined", "expired"]);
/** Ended: a recipient still pending was never asked, and will not be. */
const ENDED = new Set(["declined", "expired", "cancelled"]);

/** Who acted, as a person reads it: a recipient by name and e-mail, an API key by its name. */
function actorName(actor: AuditEntry["actor"]): string {
  if (actor.type === "system") return "Countersign";
  if (actor.type === "api_key") return actor.name ? `API key “${actor.name}”` : "an API key";
  if (!actor.name) return actor.type === "recipient" ? "a recipient" : "a console user";
  return actor.email && actor.email !== actor.name ? `${actor.name} <${actor.email}>` : actor.name;
}

/** A reason the service gives, as a sentence: capitalised, with a full stop. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? "" : "."}`;
}
const FOLLOW_MS = 4000;

/** Recipients are being notified or signing, or the PDF is being sealed. */
function moving(request: SignatureRequest): boolean {
  return (
    OPEN.has(request.status) ||
    (request.status === "completed" &&
      (!request.signedDocumentId || request.recipients.some((r) => r.status === "pending")))
  );
}

export function RequestDetailPage({ requestId }: { requestId: string }) {
  const workspace = useWorkspace();
  const path = (rest = "") => inWorkspace(workspace.id, `/signature-requests/${requestId}${rest}`);
  const params = { path: { workspaceId: workspace.id, requestId } };
  // While it moves, the page follows along, the request and its audit trail alike (not while the
  // tab is hidden).
  const [loaded, reload] = useLoaded(
    keys.request(workspace.id, requestId),
    () => ok(api.GET("/workspaces/{workspaceId}/signature-requests/{requestId}", { params })),
    { refetchInterval: (request) => (request && moving(request) ? FOLLOW_MS : false) },
  );
  const [audit, reloadAudit] = useLoaded(
    keys.auditTrail(workspace.id, requestId),
    () => ok(api.GET("/workspaces/{workspaceId}/signature-requests/{requestId}/audit-trail", { params })),
    { refetchInterval: loaded.state === "ready" && moving(loaded.value) ? FOLLOW_MS : false },
  );
  const [cancelling, setCancelling] = useState(false);
  // What was just done; a name in it is set apart (<bdi>), for it may run in the other direction.
  const [notice, setNotice] = useState<ReactNode>();
  const { busy, error, run } = useAction();
  const invalidate = useInvalidate();
  const changed = () => invalidate(...afterRequestChange(workspace.id, requestId));
  const act = async (what: string, work: () => Promise<unknown>, done: ReactNode) => {
    setNotice(undefined);
    if (!(await run(what, work))) return;
    setNotice(done);
    changed();
  };
  const download = (documentId: string) => inWorkspace(workspace.id, `/documents/${documentId}/download`);
  const handOvers = handOversByRecipient(audit.state === "ready" ? audit.value.items : []);

  return (
    <section aria-labelledby="request-title">
      <p className="crumb">
        <Link href="/requests">Signature requests</Link>
      </p>
      <Show loaded={loaded} what="the request" onRetry={reload}>
        {(request) => (
          <div className="stack">
            <div className="page-head">
              <div>
                <h1 id="request-title" dir="auto">
                  {request.title}
                </h1>
                <p className="muted">
                  <StatusBadge status={request.status} />{" "}
                  {request.test ? <span className="badge test">Test — not legally binding</span> : null}{" "}
                  Created <When at={request.createdAt} />
                  {request.sender.name ? (
                    <>
                      {" "}
                      by <bdi>{request.sender.name}</bdi>
                    </>
                  ) : null}
                  {request.completedAt ? (
                    <>
                      {" "}
                      · completed <When at={request.completedAt} />
                    </>
                  ) : null}
                  {request.cancelReason ? (
                    <>
                      {" "}
                      · cancelled: <bdi>{request.cancelReason}</bdi>
                    </>
                  ) : null}
                </p>
                {OPEN.has(request.status) || request.status === "draft" ? (
                  <p className="muted small" data-testid="schedule">
                    {request.reminderEveryDays > 0
                      ? `Reminded automatically every ${request.reminderEveryDays} day${request.reminderEveryDays === 1 ? "" : "s"}`
                      : "No automatic reminders"}
                    {request.expiryWarningSentAt ? (
                      <>
                        {" "}
                        · expiry warning sent <When at={request.expiryWarningSentAt} />
                      </>
                    ) : null}
                  </p>
                ) : null}
              </div>
              <div className="button-row">
                {request.status === "draft" ? (
                  <BusyButton
                    busy={busy === "send"}
                    disabled={busy !== undefined}
                    onClick={() =>
                      act(
                        "send",
                        () =>
                          api.POST("/workspaces/{workspaceId}/signature-requests/{requestId}/send", {
                            params,
                            body: {},
                          }),
                        "Sent. Recipients who sign by e-mail have been notified.",
                      )
                    }
                  >
                    Send
                  </BusyButton>
                ) : null}
                {OPEN.has(request.status) ? (
                  <BusyButton
                    className="button secondary"
                    busy={busy === "resend"}
                    disabled={busy !== undefined}
                    onClick={() =>
                      act(
                        "resend",
                        () =>
                          api.POST("/workspaces/{workspaceId}/signature-requests/{requestId}/resend", {
                            params,
                            body: {},
                          }),
                        request.completionFailure
                          ? "Sealing is being tried again."
                          : "Sent again to everyone who has not signed yet.",
                      )
                    }
                  >
                    {request.completionFailure ? "Try sealing again" : "Resend"}
                  </BusyButton>
                ) : null}
                {request.status === "draft" ||
                request.status === "awaiting_approval" ||
                OPEN.has(request.status) ? (
                  <button type="button" className="button danger" onClick={() => setCancelling(true)}>
                    Cancel request
                  </button>
                ) : null}
                {ENDED_UNSIGNED.has(request.status) ? (
                  <Link href={`/requests/send?from=${request.id}`} className="button primary">
                    Correct and send again
                  </Link>
                ) : (
                  <Link href={`/requests/send?from=${request.id}`} className="button secondary">
                    Copy
                  </Link>
                )}
              </div>
            </div>
            <EndedNote request={request} />
            <ApprovalCard request={request} onDecided={setNotice} />
            {request.completionFailure && OPEN.has(request.status) ? (
              <div className="note error" role="alert">
                <p>
                  <strong>Everyone has signed, but the document could not be sealed.</strong>{" "}
                  {sentence(request.completionFailure.reason)}
                </p>
                <p>
                  Tried {request.completionFailure.attempts}{" "}
                  {request.completionFailure.attempts === 1 ? "time" : "times"}, the last{" "}
                  <When at={request.completionFailure.failedAt} />. Try sealing again once the cause is
                  mended, or cancel the request.
                </p>
              </div>
            ) : null}
            <div aria-live="polite">{notice ? <p className="note success">{notice}</p> : null}</div>
            {error ? <ErrorNote error={error} /> : null}

            <div className="card">
              <h2>Recipients</h2>
              <ul className="rows" data-testid="recipients">
                {request.recipients.map((r) => (
                  <RecipientRow
                    key={r.id}
                    recipient={r}
                    history={
                      <RecipientHistory
                        recipient={r}
                        attachments={request.signerAttachments.filter((a) => a.recipientId === r.id)}
                        handOvers={handOvers.get(r.id) ?? []}
                        downloadHref={
                          request.documentsDeletedAt ? undefined : (id) => `/console/api${download(id)}`
                        }
                      />
                    }
                    ended={ENDED.has(request.status)}
                    canRemind={
                      OPEN.has(request.status) &&
                      r.kind === "signer" &&
                      !r.clientUserId &&
                      !r.host &&
                      (r.status === "sent" || r.status === "viewed")
                    }
                    canHost={
                      OPEN.has(request.status) &&
                      r.host !== null &&
                      (r.status === "sent" || r.status === "viewed")
                    }
                    hosting={busy === `host ${r.id}`}
                    onHost={() =>
                      run(`host ${r.id}`, async () => {
                        // The signing page comes back here once the signer is done.
                        const made = await ok(
                          api.POST(
                            "/workspaces/{workspaceId}/signature-requests/{requestId}/in-person-signing",
                            {
                              params,
                              body: { recipientId: r.id, returnUrl: window.location.href },
                            },
                          ),
                        );
                        // Only an MCP dry run answers without a URL.
                        if (made.url) window.location.assign(made.url);
                      })
                    }
                    busy={busy === `remind ${r.id}`}
                    onRemind={() =>
                      act(
                        `remind ${r.id}`,
                        () =>
                          api.POST("/workspaces/{workspaceId}/recipients/{recipientId}/reminders", {
                            params: { path: { workspaceId: workspace.id, recipientId: r.id } },
                            body: {},
                          }),
                        <>
                          <bdi>{r.name}</bdi> has been reminded.
                        </>,
                      )
                    }
                  />
                ))}
              </ul>
            </div>

            {request.documentsDeletedAt ? null : (
              <div className="card">
                <h2>Documents</h2>
                <ul className="rows">
                  {request.documentIds.map((id, i) => (
                    <li key={id} className="row">
                      <span>Original document{request.documentIds.length > 1 ? ` ${i + 1}` : ""}</span>
                      <a className="button secondary small" href={`/console/api${download(id)}`} download>
                        Download
                      </a>
                    </li>
                  ))}
                  {request.signerAttachments.map((attachment) => (
                    <li key={attachment.documentId} className="row" data-testid="signer-attachment">
                      <span>
                        <strong>
                          <bdi>{attachment.filename}</bdi>
                        </strong>{" "}
                        <span className="muted small">
                          attached by{" "}
                          <bdi>
                            {request.recipients.find((r) => r.id === attachment.recipientId)?.name ??
                              "a signer"}
                          </bdi>
                        </span>
                      </span>
                      <a
                        className="button secondary small"
                        href={`/console/api${download(attachment.documentId)}`}
                        download
                        aria-label={`Download ${attachment.filename}`}
                      >
                        Download
                      </a>
                    </li>
                  ))}
                  {request.signedDocumentId ? (
                    <li className="row">
                      <span>
                        <strong>Signed PDF</strong>{" "}
                        <span className="muted small">sealed, with its certificate of completion</span>
                      </span>
                      <a
                        className="button primary small"
                        href={`/console/api${download(request.signedDocumentId)}`}
                        download
                        data-testid="download-signed"
                      >
                        Download signed PDF
                      </a>
                    </li>
                  ) : request.status === "completed" ? (
                    <li className="row muted">The signed PDF is being sealed; refresh in a moment.</li>
                  ) : null}
                  <li className="row">
                    <span>
                      <strong>Evidence package</strong>{" "}
                      <span className="muted small">
                        one ZIP: documents, {request.signedDocumentId ? "signed PDF, " : ""}audit trail with
                        its hashes, and how to check them
                      </span>
                    </span>
                    <a
                      className="button secondary small"
                      href={`/console/api${path("/evidence-package")}`}
                      download
                      data-testid="download-evidence"
                    >
                      Download ZIP
                    </a>
                  </li>
                </ul>
              </div>
            )}
            {request.status === "draft" ? null : <RetentionCard request={request} download={download} />}

            <div className="card">
              <div className="card-head">
                <h2>Audit trail</h2>
                <div className="card-actions">
                  {audit.state === "ready" ? (
                    audit.value.verified ? (
                      <span className="badge success">Chain verified</span>
                    ) : (
                      <span className="badge danger">Chain broken</span>
                    )
                  ) : null}
                  <a
                    className="button secondary small"
                    href={`/console/api${path("/audit-trail/export?format=csv")}`}
                    download
                  >
                    CSV
                  </a>
                  <a
                    className="button secondary small"
                    href={`/console/api${path("/audit-trail/export?format=pdf")}`}
                    download
                  >
                    PDF report
                  </a>
                </div>
              </div>
              <Show loaded={audit} what="the audit trail" onRetry={reloadAudit}>
                {({ items }) => (
                  <ol className="timeline" data-testid="audit-trail">
                    {items.map((e) => (
                      <li key={e.sequence}>
                        <details>
                          <summary>
                            <strong>{e.action.replaceAll("_", " ")}</strong>{" "}
                            <span className="muted small">
                              by <bdi>{actorName(e.actor)}</bdi> · <When at={e.at} />
                              {e.ip ? ` · ${e.ip}` : ""}
                            </span>
                          </summary>
                          <AuditEntryDetails entry={e} />
                        </details>
                      </li>
                    ))}
                  </ol>
                )}
              </Show>
            </div>
            {cancelling ? (
              <Confirm
                title="Cancel this request?"
                description="Signing links stop working at once and recipients can no longer sign. This cannot be undone."
                confirmLabel="Cancel request"
                danger
                onConfirm={async () => {
                  await api.POST("/workspaces/{workspaceId}/signature-requests/{requestId}/cancel", {
                    params,
                    body: {},
                  });
                  changed();
                }}
                onClose={() => setCancelling(false)}
              />
            ) : null}
          </div>
        )}
      </Show>
    </section>
  );
}

function RecipientRow({
  recipient,
  history,
  ended,
  canRemind,
  canHost,
  busy,
  hosting,
  onRemind,
  onHost,
}: {
  recipient: Recipient;
  /** Their attachments, hand-overs and decline. */
  history: ReactNode;
  /** The request ended: a recipient still pending was never asked. */
  ended: boolean;
  canRemind: boolean;
  /** It is the turn of a signer who signs in person: the user can start their signing here. */
  canHost: boolean;
  busy: boolean;
  /** The in-person signing is being started. */
  hosting: boolean;
  onRemind: () => void;
  onHost: () => void;
}) {
  const status = ended && recipient.status === "pending" ? "not asked" : recipient.status;
  const when = recipient.signedAt ?? recipient.declinedAt ?? recipient.viewedAt;
  return (
    <li className="row">
      <div className="row-main">
        <p className="row-title">
          <bdi>{recipient.name}</bdi> <span className="muted small">{recipient.email}</span>
        </p>
        <p className="muted small">
          {recipient.kind === "cc"
            ? "Gets a copy"
            : recipient.kind === "viewer"
              ? "Must view"
              : recipient.kind === "approver"
                ? "Approves"
                : (recipient.role ?? "Signer")}
          {recipient.clientUserId ? " · signs in your app" : ""}
          {recipient.host ? (
            <>
              {" "}
              · in person, hosted by <bdi>{recipient.host.name}</bdi>
            </>
          ) : null}
          {recipient.locale ? ` · in ${localeName(recipient.locale)}` : ""}
          {recipient.authentication.length > 0 ? ` · ${authenticationWords(recipient.authentication)}` : ""} ·
          order {recipient.routingOrder} ·{" "}
          <span className={`recipient-status ${recipient.status}`}>{status}</span>
          {when ? (
            <>
              {" "}
              <When at={when} />
            </>
          ) : null}
        </p>
        {history}
        {recipient.emailDelivery ? <EmailDeliveryLine delivery={recipient.emailDelivery} /> : null}
      </div>
      {canHost ? (
        <BusyButton
          className="button small"
          busy={hosting}
          onClick={onHost}
          aria-label={`Sign in person: ${recipient.name}`}
        >
          Sign in person
        </BusyButton>
      ) : null}
      {canRemind ? (
        <BusyButton
          className="button secondary small"
          busy={busy}
          onClick={onRemind}
          aria-label={`Remind ${recipient.name}`}
        >
          Remind
        </BusyButton>
      ) : null}
    </li>
  );
}

/** What a signer gives before the document, as the sender reads it. */
function authenticationWords(methods: string[]): string {
  const words = methods.map((m) => (m === "access_code" ? "access code" : "e-mailed code"));
  return `asked for ${words.join(" and ")}`;
}

const EMAIL_NAMES: Record<EmailDelivery["email"], string> = {
  invitation: "Invitation",
  resend: "Invitation (sent again)",
  reminder: "Reminder",
  recipient_changed: "Invitation (new address)",
  completed: "Signed copy",
  signing_code: "One-time code",
};

/** Where the recipient's last e-mail stands: a failed one says why, in the mail server's words. */
function EmailDeliveryLine({ delivery }: { delivery: EmailDelivery }) {
  const name = EMAIL_NAMES[delivery.email];
  return (
    <p className={`small email-delivery ${delivery.status}`} data-testid="email-delivery">
      {delivery.status === "sent" ? (
        <>
          {name} e-mail sent <When at={delivery.doneAt} />
        </>
      ) : delivery.status === "queued" ? (
        <>{name} e-mail queued</>
      ) : delivery.status === "retrying" ? (
        <>
          {name} e-mail not sent yet ({delivery.attempts} {delivery.attempts === 1 ? "try" : "tries"}); next
          try <When at={delivery.nextAttemptAt} />
        </>
      ) : delivery.status === "failed" ? (
        <>
          {name} e-mail could not be sent (given up after {delivery.attempts} tries)
        </>
      ) : (
        <>{name} e-mail not sent: no longer needed</>
      )}
      {delivery.error && delivery.status !== "not_sent" ? (
        <>
          : <span className="error-detail">{delivery.error}</span>
        </>
      ) : null}
    </p>
  );
}

/** Why a request ended unsigned, where the sender looks first: who declined and why, or when it expired. */
function EndedNote({ request }: { request: SignatureRequest }) {
  if (request.status === "declined") {
    const decliner = request.recipients.find((r) => r.status === "declined");
    return (
      <div className="note error" role="status" data-testid="ended-note">
        <p>
          <strong>
            {decliner ? (
              <>
                <bdi>{decliner.name}</bdi> declined to sign
              </>
            ) : (
              "A signer declined to sign"
            )}
          </strong>
          {decliner?.declinedAt ? (
            <>
              {" "}
              <When at={decliner.declinedAt} />
            </>
          ) : null}
          {decliner?.declineReason ? (
            <>
              : “<bdi>{decliner.declineReason}</bdi>”
            </>
          ) : (
            "."
          )}
        </p>
        <p>Nobody after them was asked. Correct what they point out and send the request again.</p>
      </div>
    );
  }
  if (request.status === "expired") {
    return (
      <div className="note error" role="status" data-testid="ended-note">
        <p>
          <strong>This request expired</strong>
          {request.expiresAt ? (
            <>
              {" "}
              <When at={request.expiresAt} />
            </>
          ) : null}{" "}
          before everyone signed. Send it again with a later expiry.
        </p>
      </div>
    );
  }
  return null;
}
