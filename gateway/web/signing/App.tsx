import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  ApiError,
  decline,
  documentUrl,
  type Field,
  type FieldValue,
  getSession,
  type RequestStatus,
  recordViewed,
  type Session,
  type SignatureValue,
  type SubmitResult,
  submit,
} from "./api";
import { DeclineDialog } from "./DeclineDialog";
import { FieldBox } from "./FieldBox";
import { FilledBox } from "./FilledBox";
import {
  fieldLabel,
  initialsOf,
  initialValues,
  isFillable,
  isFilled,
  sortFields,
  submittedValues,
  todayText,
} from "./fields";
import { DocumentView } from "./PdfView";
import { SignatureDialog } from "./SignatureDialog";
import { ZoomControl } from "./ZoomControl";

type Phase =
  | { kind: "loading" }
  | { kind: "error"; message: string }
  /** The session is over: it timed out (no reason), or its request ended meanwhile (why). */
  | { kind: "ended"; why?: string }
  | { kind: "ready"; session: Session }
  | {
      kind: "signed";
      requestStatus: RequestStatus;
      /** Every signer has signed: the document is being sealed, or is sealed. */
      everyoneSigned: boolean;
      sealingDelayed?: boolean;
      signedDocumentId?: string | null;
    }
  | { kind: "declined" }
  | { kind: "closed"; requestStatus: RequestStatus; title?: string; signedDocumentId?: string | null }
  | { kind: "redirecting" };

/** The service's reasons read as sentences on the page: capitalised, with a full stop. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? "" : "."}`;
}

/** A 410 says the request ended and why; a 401 only that the session did. */
function endedBy(error: ApiError): Phase {
  return error.status === 410 ? { kind: "ended", why: error.problem.detail } : { kind: "ended" };
}

function phaseOf(session: Session): Phase {
  if (session.recipient.status === "signed") {
    return {
      kind: "signed",
      requestStatus: session.requestStatus,
      everyoneSigned: session.everyoneSigned,
      sealingDelayed: session.sealingDelayed,
      signedDocumentId: session.signedDocumentId,
    };
  }
  if (session.recipient.status === "declined") return { kind: "declined" };
  if (session.requestStatus !== "sent" && session.requestStatus !== "in_progress") {
    return {
      kind: "closed",
      requestStatus: session.requestStatus,
      title: session.request.title,
      signedDocumentId: session.signedDocumentId,
    };
  }
  return { kind: "ready", session };
}

export function App() {
  const [phase, setPhase] = useState<Phase>({ kind: "loading" });

  const load = useCallback(() => {
    setPhase({ kind: "loading" });
    getSession()
      .then((session) => setPhase(phaseOf(session)))
      .catch((error: unknown) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 410))
          setPhase(endedBy(error));
        else
          setPhase({
            kind: "error",
            message: error instanceof Error ? error.message : "Something went wrong loading this request.",
          });
      });
  }, []);

  useEffect(load, [load]);

  useEffect(() => {
    if (phase.kind === "ready") document.title = `Sign: ${phase.session.request.title} · Countersign`;
  }, [phase]);

  // The view is a person's, recorded once the documents are in front of them: a link scanner that
  // fetches the e-mail's link runs no script and records nothing.
  const showing = phase.kind === "ready";
  useEffect(() => {
    // One that cannot be recorded does not stop the signer: signing records that they saw it.
    if (showing) recordViewed().catch(() => {});
  }, [showing]);

  switch (phase.kind) {
    case "loading":
      return (
        <StateScreen testId="loading-state" title="Loading your documents…" busy>
          <p>This takes a moment.</p>
        </StateScreen>
      );
    case "error":
      return (
        <StateScreen testId="error-state" title="We could not load this signing request" tone="error">
          <p>{phase.message}</p>
          <button type="button" className="button primary" onClick={load}>
            Try again
          </button>
        </StateScreen>
      );
    case "ended":
      return phase.why ? (
        <StateScreen testId="ended-state" title="This request can no longer be signed" tone="neutral">
          <p>{sentence(phase.why)}</p>
        </StateScreen>
      ) : (
        <StateScreen testId="ended-state" title="This signing session has ended" tone="neutral">
          <p>For your security, signing sessions expire. Open the link from your e-mail again to continue.</p>
        </StateScreen>
      );
    case "redirecting":
      return (
        <StateScreen testId="redirecting-state" title="Done. Taking you back…" busy>
          <p>You are being returned to the site you came from.</p>
        </StateScreen>
      );
    case "declined":
      return (
        <StateScreen testId="declined-state" title="You declined to sign" tone="neutral">
          <p>
            The sender can see that you declined and why. There is nothing more you need to do; you can close
            this page.
          </p>
        </StateScreen>
      );
    case "closed":
      return <ClosedScreen status={phase.requestStatus} signedDocumentId={phase.signedDocumentId} />;
    case "signed":
      return <SignedScreen phase={phase} onSession={(session) => setPhase(phaseOf(session))} />;
    case "ready":
      return (
        <SigningView
          session={phase.session}
          onEnded={(error) => setPhase(endedBy(error))}
          onSigned={({ requestStatus, everyoneSigned, redirectUrl }) => {
            if (redirectUrl) {
              setPhase({ kind: "redirecting" });
              window.location.assign(redirectUrl);
              return;
            }
            setPhase({ kind: "signed", requestStatus, everyoneSigned });
          }}
          onDeclined={(redirectUrl) => {
            if (redirectUrl) {
              setPhase({ kind: "redirecting" });
              window.location.assign(redirectUrl);
              return;
            }
            setPhase({ kind: "declined" });
          }}
          onConflict={(session) => session && setPhase(phaseOf(session))}
        />
      );
  }
}

/** How often the page asks whether the document it waits for is sealed. */
const SEALING_POLL_MS = 1500;

/**
 * After this signer has signed: thanks while others still sign; once everyone has, the sealing as
 * it happens, then the sealed document to download.
 */
function SignedScreen({
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

function ClosedScreen({
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

function StateScreen({
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

interface SigningViewProps {
  session: Session;
  onEnded: (error: ApiError) => void;
  onSigned: (result: SubmitResult) => void;
  onDeclined: (redirectUrl?: string | null) => void;
  onConflict: (session: Session | null) => void;
}

function useElementWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setWidth(Math.floor(el.getBoundingClientRect().width));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

function SigningView({ session, onEnded, onSigned, onDeclined, onConflict }: SigningViewProps) {
  const fields = useMemo(() => sortFields(session), [session]);
  const [values, setValues] = useState(() => initialValues(session));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [consent, setConsent] = useState(false);
  const [consentError, setConsentError] = useState<string | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [declining, setDeclining] = useState(false);
  const [declineOpen, setDeclineOpen] = useState(false);
  const [declineError, setDeclineError] = useState<string | null>(null);
  const [dialogField, setDialogField] = useState<Field | null>(null);
  const [adopted, setAdopted] = useState<{ signature?: SignatureValue; initials?: SignatureValue }>({});
  const [status, setStatus] = useState("");
  const [alert, setAlert] = useState("");
  const [columnRef, width] = useElementWidth<HTMLDivElement>();
  const [zoom, setZoom] = useState(1);
  const elements = useRef(new Map<string, HTMLElement>());
  const current = useRef<string | null>(null);
  const consentRef = useRef<HTMLInputElement>(null);
  const finishRef = useRef<HTMLButtonElement>(null);
  const today = useMemo(todayText, []);

  const required = fields.filter((f) => f.required && isFillable(f));
  const done = required.filter((f) => isFilled(f, values[f.id])).length;
  const allDone = done === required.length;
  const busy = submitting || declining;
  const progressText =
    required.length === 0
      ? "No required fields"
      : `${done} of ${required.length} required field${required.length === 1 ? "" : "s"} done`;
  const finishReason = !allDone
    ? `Fill in ${required.length - done} more required field${required.length - done === 1 ? "" : "s"} to finish.`
    : !consent
      ? "Agree to sign electronically, beside Finish, to finish."
      : "";

  // Announce progress to screen readers when it changes (not on first render).
  const firstProgress = useRef(true);
  useEffect(() => {
    if (firstProgress.current) {
      firstProgress.current = false;
      return;
    }
    setStatus(allDone ? `All ${required.length} required fields done.` : progressText);
  }, [progressText, allDone, required.length]);

  const register = useCallback((id: string, el: HTMLElement | null) => {
    if (el) elements.current.set(id, el);
    else elements.current.delete(id);
  }, []);

  // Focus requested while the controls are still disabled (mid-submit) waits for the next render.
  const pendingFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const el = pendingFocus.current;
    if (el && !(el as HTMLInputElement).disabled) {
      pendingFocus.current = null;
      focusElement(el);
    }
  });

  const focusElement = (el: HTMLElement | null | undefined) => {
    if (!el) return;
    if ((el as HTMLInputElement).disabled) {
      pendingFocus.current = el;
      return;
    }
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    el.scrollIntoView({ block: "center", behavior: reduce ? "auto" : "smooth" });
    el.focus({ preventScroll: true });
  };

  const setValue = useCallback((id: string, value: FieldValue) => {
    setValues((v) => ({ ...v, [id]: value }));
    setErrors((e) => {
      if (!(id in e)) return e;
      const { [id]: _, ...rest } = e;
      return rest;
    });
  }, []);

  const nextField = () => {
    const order = fields.filter(isFillable);
    const start = current.current ? order.findIndex((f) => f.id === current.current) : -1;
    const rotated = [...order.slice(start + 1), ...order.slice(0, start + 1)];
    const pick =
      rotated.find((f) => f.required && !isFilled(f, values[f.id])) ??
      (!consent ? null : rotated.find((f) => f.type !== "checkbox" && !isFilled(f, values[f.id])));
    if (pick) {
      focusElement(elements.current.get(pick.id));
      return;
    }
    if (!consent) {
      focusElement(consentRef.current);
      setStatus("All required fields are done. Agree to sign electronically, then select Finish.");
      return;
    }
    focusElement(finishRef.current);
    setStatus("Everything is filled in. Select Finish to sign.");
  };

  const openSignature = (field: Field) => {
    const kind = field.type as "signature" | "initials";
    const existing = adopted[kind];
    if (existing && !values[field.id]) {
      setValue(field.id, existing);
      setStatus(`${fieldLabel(field)} applied on page ${field.page}. Select it again to change.`);
      return;
    }
    setDialogField(field);
  };

  const applySignature = (value: SignatureValue, applyAll: boolean) => {
    if (!dialogField) return;
    const kind = dialogField.type as "signature" | "initials";
    setAdopted((a) => ({ ...a, [kind]: value }));
    const targets = applyAll ? fields.filter((f) => f.type === kind) : [dialogField];
    for (const f of targets) setValue(f.id, value);
    setDialogField(null);
    setStatus(
      targets.length > 1
        ? `Applied to all ${targets.length} ${kind} fields.`
        : `${fieldLabel(dialogField)} applied on page ${dialogField.page}.`,
    );
  };

  const finish = async () => {
    if (busy) return;
    if (!allDone || !consent) {
      setAlert(finishReason);
      return;
    }
    setSubmitting(true);
    setBanner(null);
    setErrors({});
    setConsentError(null);
    setStatus("Signing…");
    try {
      const result = await submit(submittedValues(fields, values));
      onSigned(result);
    } catch (error) {
      setSubmitting(false);
      if (!(error instanceof ApiError)) {
        setBanner("Something went wrong. Please try again.");
        setAlert("Something went wrong. Please try again.");
        return;
      }
      if (error.status === 401 || error.status === 410) {
        onEnded(error);
        return;
      }
      if (error.status === 422 && error.problem.errors?.length) {
        const byField: Record<string, string> = {};
        const other: string[] = [];
        let consentMessage: string | null = null;
        for (const e of error.problem.errors) {
          const match = /^values\.(.+)$/.exec(e.path);
          if (match?.[1] && fields.some((f) => f.id === match[1])) byField[match[1]] = e.message;
          else if (e.path === "consent") consentMessage = e.message;
          else other.push(e.message);
        }
        setErrors(byField);
        setConsentError(consentMessage);
        const count = Object.keys(byField).length + (consentMessage ? 1 : 0);
        setBanner(other.length ? other.join(" ") : null);
        setAlert(
          `${count || other.length} problem${(count || other.length) === 1 ? "" : "s"} to fix before signing.${other.length ? ` ${other.join(" ")}` : ""}`,
        );
        const first = fields.find((f) => byField[f.id]);
        if (first) focusElement(elements.current.get(first.id));
        else if (consentMessage) focusElement(consentRef.current);
        return;
      }
      if (error.status === 409) {
        const message = error.problem.detail || "This request can no longer be signed.";
        setBanner(message);
        setAlert(message);
        // Show the right end state if the session tells us more.
        getSession()
          .then((s) => {
            if (phaseKind(s) !== "ready") onConflict(s);
          })
          .catch(() => undefined);
        return;
      }
      const message = error.message || "Something went wrong. Please try again.";
      setBanner(message);
      setAlert(message);
    }
  };

  const confirmDecline = async (reason: string) => {
    setDeclining(true);
    setDeclineError(null);
    try {
      const result = await decline(reason);
      onDeclined(result.redirectUrl);
    } catch (error) {
      setDeclining(false);
      if (error instanceof ApiError && (error.status === 401 || error.status === 410)) {
        onEnded(error);
        return;
      }
      const message =
        error instanceof ApiError
          ? error.problem.errors?.map((e) => e.message).join(" ") || error.message
          : "Something went wrong. Please try again.";
      setDeclineError(message);
    }
  };

  const signer = session.recipient;
  const modalOpen = dialogField !== null || declineOpen;

  return (
    <>
      <div className="app" inert={modalOpen}>
        <a className="skip-link" href="#documents">
          Skip to the documents
        </a>
        <header className="top">
          <div className="top-inner">
            <p className="brand">
              <span className="brand-mark" aria-hidden="true" />
              Countersign
            </p>
            <h1 data-testid="request-title">{session.request.title}</h1>
            {session.request.sender ? (
              <p className="signer" data-testid="request-sender">
                From <strong>{session.request.sender}</strong>
              </p>
            ) : null}
            <p className="signer">
              Signing as <strong>{signer.name}</strong> <span className="muted">({signer.email})</span>
            </p>
            {session.request.message ? (
              <blockquote className="message" data-testid="request-message">
                <span className="message-label">Message from {session.request.sender || "the sender"}</span>
                {session.request.message}
              </blockquote>
            ) : null}
          </div>
        </header>

        <main className="content">
          <section className="consent-card" aria-labelledby="consent-title">
            <h2 id="consent-title" className="visually-hidden">
              How to sign
            </h2>
            <p className="hint">
              Fill in the highlighted fields in the documents below, then agree to sign electronically and
              select <strong>Finish</strong> at the bottom of the page.
              {required.length > 0 ? " Fields marked * are required." : ""}
            </p>
          </section>

          {banner ? (
            <div className="notice error" role="alert" data-testid="error-banner">
              {banner}
            </div>
          ) : null}

          <ZoomControl zoom={zoom} onZoom={setZoom} />
          <div id="documents" ref={columnRef} className="documents" tabIndex={-1}>
            {session.documents.map((doc, index) => (
              <DocumentView
                key={doc.id}
                doc={doc}
                index={index}
                total={session.documents.length}
                width={Math.floor(width * zoom)}
                onUnauthorized={onEnded}
                renderOverlay={(page, scale) => [
                  ...session.filled
                    .filter((f) => f.documentId === doc.id && f.page === page)
                    .map((f) => <FilledBox key={`filled-${f.id}`} field={f} scale={scale} />),
                  ...fields
                    .filter((f) => f.documentId === doc.id && f.page === page)
                    .map((f) => (
                      <FieldBox
                        key={f.id}
                        field={f}
                        value={values[f.id]}
                        scale={scale}
                        error={errors[f.id]}
                        disabled={busy}
                        today={today}
                        register={register}
                        onFocusField={(id) => {
                          current.current = id;
                        }}
                        onChange={setValue}
                        onOpenSignature={openSignature}
                      />
                    )),
                ]}
              />
            ))}
          </div>
        </main>

        <section className="action-bar" aria-label="Signing progress and actions">
          <div className="action-inner">
            <div className="progress">
              <p className="progress-text" data-testid="progress">
                {progressText}
              </p>
              <div
                className="progress-track"
                role="progressbar"
                aria-label="Required fields done"
                aria-valuemin={0}
                aria-valuemax={required.length}
                aria-valuenow={done}
              >
                <span style={{ width: `${required.length ? (done / required.length) * 100 : 100}%` }} />
              </div>
              {finishReason ? (
                <p className="finish-reason" id="finish-reason">
                  {finishReason}
                </p>
              ) : null}
            </div>
            {allDone || consent ? (
              <div className="consent-inline">
                <label className="consent-row">
                  <input
                    ref={consentRef}
                    type="checkbox"
                    data-testid="consent"
                    checked={consent}
                    disabled={busy}
                    aria-invalid={consentError ? true : undefined}
                    aria-describedby={consentError ? "consent-error" : undefined}
                    onChange={(e) => {
                      setConsent(e.target.checked);
                      setConsentError(null);
                    }}
                  />
                  <span>
                    I agree to sign electronically and that my electronic signature is the legal equivalent of
                    my handwritten signature.
                  </span>
                </label>
                {consentError ? (
                  <p id="consent-error" className="field-error-text" role="alert">
                    {consentError}
                  </p>
                ) : null}
              </div>
            ) : null}
            <div className="actions">
              <button
                type="button"
                className="button secondary"
                data-testid="decline"
                disabled={busy}
                onClick={() => {
                  setDeclineError(null);
                  setDeclineOpen(true);
                }}
              >
                Decline
              </button>
              <button
                type="button"
                className="button secondary"
                data-testid="next-field"
                disabled={busy}
                onClick={nextField}
              >
                Next field
              </button>
              <button
                ref={finishRef}
                type="button"
                className="button primary"
                data-testid="finish"
                disabled={busy || !allDone || !consent}
                aria-describedby={finishReason ? "finish-reason" : undefined}
                onClick={finish}
              >
                {submitting ? (
                  <>
                    <span className="spinner" aria-hidden="true" /> Signing…
                  </>
                ) : (
                  "Finish"
                )}
              </button>
            </div>
          </div>
        </section>

        <div className="visually-hidden" role="status" aria-live="polite" data-testid="live-status">
          {status}
        </div>
        <div className="visually-hidden" role="alert" aria-live="assertive" data-testid="live-alert">
          {alert}
        </div>
      </div>

      {dialogField ? (
        <SignatureDialog
          kind={dialogField.type as "signature" | "initials"}
          defaultText={dialogField.type === "signature" ? signer.name : initialsOf(signer.name)}
          current={
            (values[dialogField.id] as SignatureValue | undefined) ??
            adopted[dialogField.type as "signature" | "initials"]
          }
          count={fields.filter((f) => f.type === dialogField.type).length}
          onApply={applySignature}
          onClose={() => setDialogField(null)}
        />
      ) : null}
      {declineOpen ? (
        <DeclineDialog
          busy={declining}
          error={declineError}
          onClose={() => setDeclineOpen(false)}
          onConfirm={confirmDecline}
        />
      ) : null}
    </>
  );
}

function phaseKind(session: Session): Phase["kind"] {
  return phaseOf(session).kind;
}
