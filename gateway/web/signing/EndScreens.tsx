/** The pages a signer meets outside signing: waiting, an error, an end, signed, closed. */
import { useEffect, useRef } from "react";
import { documentUrl, getSession, type RequestStatus, type Session } from "./api";
import type { Phase } from "./phase";

/** How often the page asks whether the document it waits for is sealed. */
const SEALING_POLL_MS = 1500;

/**
 * After this signer has signed: thanks while others still sign; once everyone has, the sealing as
 * it happens, then the sealed document to download.
 */
export function SignedScreen({
  phase,
  onSession,
}: {
  phase: Extract<Phase, { kind: "signed" }>;
  onSession: (session: Session) => void;
}) {
  const sealing = phase.everyoneSigned && !phase.signedDocumentId && !phase.sealingDelayed;
  const latest = useRef(onSession);
  latest.current = onSession;
  useEffect(() => {
    if (!sealing) return;
    const timer = window.setInterval(() => {
      getSession().then(
        (session) => latest.current(session),
        () => undefined,
      );
    }, SEALING_POLL_MS);
    return () => window.clearInterval(timer);
  }, [sealing]);

  if (!phase.everyoneSigned) {
    return (
      <StateScreen testId="done-state" title="You have signed" tone="success">
        <p>
          Thank you. Others still have to sign; we will e-mail you the completed document once everyone has.
          You can close this page.
        </p>
      </StateScreen>
    );
  }
  if (phase.signedDocumentId) {
    return (
      <StateScreen testId="done-state" title="The document is complete" tone="success">
        <p>Everyone has signed, and the document is sealed. Download your copy:</p>
        <DownloadSigned documentId={phase.signedDocumentId} />
      </StateScreen>
    );
  }
  if (phase.sealingDelayed) {
    return (
      <StateScreen testId="done-state" title="Everyone has signed" tone="success">
        <p>
          Sealing the document is taking longer than it should. The sender has been told; the completed
          document will be e-mailed to you once it is sealed. You can close this page.
        </p>
      </StateScreen>
    );
  }
  return (
    <StateScreen testId="sealing-state" title="Everyone has signed" tone="success" busy>
      <p>Sealing the document. This takes a few seconds; your copy will be ready to download here.</p>
    </StateScreen>
  );
}

export function ClosedScreen({
  status,
  signedDocumentId,
}: {
  status: RequestStatus;
  signedDocumentId?: string | null;
}) {
  const text: Record<string, [string, string]> = {
    cancelled: [
      "This request was cancelled",
      "The sender cancelled this request, so it can no longer be signed.",
    ],
    expired: ["This request has expired", "It can no longer be signed. Ask the sender to send it again."],
    declined: [
      "This request was declined",
      "Another recipient declined to sign, so it can no longer be signed.",
    ],
    completed: ["This request is complete", "Everyone has signed; there is nothing left for you to sign."],
  };
  const [title, body] = text[status] ?? ["This request can no longer be signed", ""];
  return (
    <StateScreen testId="closed-state" title={title} tone="neutral">
      <p>{body}</p>
      {/* A copy recipient opens the link in their completed e-mail to fetch the sealed PDF. */}
      {status === "completed" && signedDocumentId ? <DownloadSigned documentId={signedDocumentId} /> : null}
    </StateScreen>
  );
}

function DownloadSigned({ documentId }: { documentId: string }) {
  return (
    <p>
      <a className="button primary" href={documentUrl(documentId)} download data-testid="download-signed">
        Download the signed document
      </a>
    </p>
  );
}

export function StateScreen({
  title,
  children,
  testId,
  tone = "neutral",
  busy,
}: {
  title: string;
  children: React.ReactNode;
  testId: string;
  tone?: "neutral" | "success" | "error";
  busy?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <main className="state-screen" data-testid={testId} aria-busy={busy || undefined}>
      <div className={`state-card tone-${tone}`}>
        <div className="state-icon" aria-hidden="true">
          {busy ? (
            <span className="spinner large" />
          ) : tone === "success" ? (
            "✓"
          ) : tone === "error" ? (
            "!"
          ) : (
            "i"
          )}
        </div>
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {children}
        <p className="brand-foot">Countersign</p>
      </div>
    </main>
  );
}
