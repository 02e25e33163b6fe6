/** The pages a signer meets outside signing: waiting, an error, an end, signed, closed. */
import { useEffect, useRef, useState } from "react";
import { documentUrl, fetchFile, getSession, type RequestStatus, type Session, SIGNER_COPY_URL } from "./api";
import { BrandFoot } from "./Branding";
import { framed } from "./frame";
import { LanguageSwitcher, useT } from "./i18n/Language";
import type { MessageId } from "./i18n/messages/en";
import { type Phase, problemText } from "./phase";

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
  const t = useT();
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
      <StateScreen
        testId="done-state"
        title={t(phase.approved ? "approved.title" : "signed.title")}
        tone="success"
      >
        <p>{t("signed.othersBody")}</p>
        {/* An approver signed nothing: there is no copy of theirs to keep yet. */}
        {phase.approved ? null : <SignerCopy />}
      </StateScreen>
    );
  }
  if (phase.signedDocumentId) {
    return (
      <StateScreen testId="done-state" title={t("complete.title")} tone="success">
        <p>{t("complete.body")}</p>
        <DownloadSigned documentId={phase.signedDocumentId} />
      </StateScreen>
    );
  }
  if (phase.sealingDelayed) {
    return (
      <StateScreen testId="done-state" title={t("everyoneSigned.title")} tone="success">
        <p>{t("sealing.delayed")}</p>
        <SignerCopy />
      </StateScreen>
    );
  }
  return (
    <StateScreen testId="sealing-state" title={t("everyoneSigned.title")} tone="success" busy>
      <p>{t("sealing.body")}</p>
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
  const t = useT();
  const [title, body] = CLOSED[status] ?? ["ended.requestTitle", undefined];
  return (
    <StateScreen testId="closed-state" title={t(title)} tone="neutral">
      {body ? <p>{t(body)}</p> : null}
      {/* A copy recipient opens the link in their completed e-mail to fetch the sealed PDF. */}
      {status === "completed" && signedDocumentId ? <DownloadSigned documentId={signedDocumentId} /> : null}
    </StateScreen>
  );
}

const CLOSED: Partial<Record<RequestStatus, [MessageId, MessageId]>> = {
  cancelled: ["closed.cancelled.title", "closed.cancelled.body"],
  expired: ["closed.expired.title", "closed.expired.body"],
  declined: ["closed.declined.title", "closed.declined.body"],
  completed: ["closed.completed.title", "closed.completed.body"],
};

/** What the signer signed, theirs to keep at once; the sealed PDF follows when everyone has signed. */
function SignerCopy() {
  const t = useT();
  return (
    <>
      <p>
        <SaveLink className="button secondary" url={SIGNER_COPY_URL} testId="download-copy">
          {t("copy.download")}
        </SaveLink>
      </p>
      <p className="hint">{t("copy.note")}</p>
    </>
  );
}

function DownloadSigned({ documentId }: { documentId: string }) {
  const t = useT();
  return (
    <p>
      <SaveLink className="button primary" url={documentUrl(documentId)} testId="download-signed">
        {t("download.signed")}
      </SaveLink>
    </p>
  );
}

/**
 * A file of the session to save. In a frame the link would reach the gateway without the session
 * (no cookie there), so the page fetches the file with it and saves what it got.
 */
function SaveLink({
  url,
  className,
  testId,
  children,
}: {
  url: string;
  className: string;
  testId: string;
  children: React.ReactNode;
}) {
  const t = useT();
  const [failure, setFailure] = useState("");
  const save = async (event: React.MouseEvent) => {
    event.preventDefault();
    setFailure("");
    try {
      const { blob, filename } = await fetchFile(url);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = filename;
      link.click();
      // The browser has taken the bytes once the click is handled; a minute is ample.
      window.setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    } catch (error) {
      setFailure(problemText(error, t));
    }
  };
  return (
    <>
      <a className={className} href={url} download data-testid={testId} onClick={framed ? save : undefined}>
        {children}
      </a>
      {failure ? (
        <span className="field-error" role="alert">
          {failure}
        </span>
      ) : null}
    </>
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
        <div className="card-foot">
          <BrandFoot />
          <LanguageSwitcher />
        </div>
      </div>
    </main>
  );
}
