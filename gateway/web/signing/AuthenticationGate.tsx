/**
 * Before the document, the codes the sender asked for: the access code they gave the signer another
 * way, and a one-time code e-mailed on request. A wrong code says how many tries are left; after
 * five the page says when the signer may try again, and offers nothing until then.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { ApiError, type Session, type SignerAuthentication, sendCode, verify } from "./api";
import { StateScreen } from "./EndScreens";
import { sentence } from "./phase";

export function AuthenticationGate({
  session,
  onPassed,
  onEnded,
}: {
  session: Session;
  onPassed: () => void;
  onEnded: (error: ApiError) => void;
}) {
  const [state, setState] = useState<SignerAuthentication>(session.authentication);
  const [accessCode, setAccessCode] = useState("");
  const [emailCode, setEmailCode] = useState("");
  const [errors, setErrors] = useState<{ accessCode?: string; emailCode?: string; form?: string }>({});
  const [busy, setBusy] = useState<"verify" | "send">();
  const [lockedUntil, setLockedUntil] = useState(state.lockedUntil);
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const needs = (method: "access_code" | "email_code") =>
    state.methods.includes(method) && !state.verified.includes(method);

  const fail = (error: unknown) => {
    if (!(error instanceof ApiError)) {
      setErrors({ form: "Something went wrong. Try again." });
      return;
    }
    if (error.status === 401 || error.status === 410) return onEnded(error);
    if (error.status === 429 && /wrong codes/.test(error.problem.detail ?? "")) {
      setLockedUntil(new Date(Date.now() + retryAfterOf(error) * 1000).toISOString());
      return;
    }
    const about = (path: string) => error.problem.errors?.find((e) => e.path === path)?.message;
    const field = { accessCode: about("accessCode"), emailCode: about("emailCode") };
    setErrors(
      field.accessCode || field.emailCode
        ? {
            accessCode: field.accessCode && aboutTheCode(field.accessCode),
            emailCode: field.emailCode && aboutTheCode(field.emailCode),
          }
        : { form: sentence(error.problem.detail ?? error.message) },
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      accessCode:
        needs("access_code") && !accessCode.trim() ? "Enter the access code the sender gave you." : undefined,
      emailCode:
        needs("email_code") && !emailCode.trim()
          ? state.codeSentAt
            ? "Enter the code from the e-mail."
            : "Ask for a code first, then enter it here."
          : undefined,
    };
    if (missing.accessCode || missing.emailCode) return setErrors(missing);
    setBusy("verify");
    setErrors({});
    try {
      const after = await verify({
        ...(needs("access_code") ? { accessCode } : {}),
        ...(needs("email_code") ? { emailCode } : {}),
      });
      setState(after);
      if (after.methods.every((m) => after.verified.includes(m))) onPassed();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(undefined);
    }
  };

  const askForCode = async () => {
    setBusy("send");
    setErrors({});
    try {
      setState(await sendCode());
    } catch (error) {
      fail(error);
    } finally {
      setBusy(undefined);
    }
  };

  if (lockedUntil && Date.parse(lockedUntil) > Date.now()) {
    return (
      <StateScreen testId="locked-state" title="Too many wrong codes" tone="error">
        <p>
          For your security, this request is locked until{" "}
          <strong>
            {new Date(lockedUntil).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}
          </strong>
          . Try again then, or ask {session.request.sender || "the sender"} for the right code.
        </p>
      </StateScreen>
    );
  }

  return (
    <main className="state-screen" data-testid="authentication-gate">
      <form className="state-card gate-card" onSubmit={submit} noValidate>
        <div className="state-icon" aria-hidden="true">
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            width="26"
            height="26"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <rect x="5" y="11" width="14" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" />
          </svg>
        </div>
        <h1 ref={heading} tabIndex={-1}>
          Confirm it is you
        </h1>
        <p>
          {session.request.sender || "The sender"} asks you to sign <strong>{session.request.title}</strong>.
          Before the document is shown, give the{" "}
          {needs("access_code") && needs("email_code") ? "codes" : "code"} they asked for.
        </p>
        {needs("access_code") ? (
          <div className="gate-field">
            <label className="stacked-label" htmlFor={`${id}-access`}>
              Access code
            </label>
            <p className="hint" id={`${id}-access-hint`}>
              The sender gave it to you another way: by phone, text or letter. It is not in the e-mail.
            </p>
            <input
              id={`${id}-access`}
              className="gate-input"
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={accessCode}
              onChange={(e) => setAccessCode(e.target.value)}
              aria-invalid={errors.accessCode ? true : undefined}
              aria-describedby={`${id}-access-hint${errors.accessCode ? ` ${id}-access-error` : ""}`}
            />
            {errors.accessCode ? (
              <p id={`${id}-access-error`} className="field-error-text" role="alert">
                {errors.accessCode}
              </p>
            ) : null}
          </div>
        ) : null}
        {needs("email_code") ? (
          <div className="gate-field">
            <label className="stacked-label" htmlFor={`${id}-email`}>
              Code from your e-mail
            </label>
            <p className="hint" id={`${id}-email-hint`}>
              {state.codeSentAt
                ? `We sent a six-digit code to ${state.emailHint ?? "your address"}. It works for 10 minutes.`
                : `We will send a six-digit code to ${state.emailHint ?? "your address"}.`}
            </p>
            <div className="gate-row">
              <input
                id={`${id}-email`}
                className="gate-input"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={12}
                value={emailCode}
                onChange={(e) => setEmailCode(e.target.value)}
                aria-invalid={errors.emailCode ? true : undefined}
                aria-describedby={`${id}-email-hint${errors.emailCode ? ` ${id}-email-error` : ""}`}
              />
              <button
                type="button"
                className="button secondary"
                onClick={askForCode}
                disabled={busy !== undefined}
              >
                {busy === "send" ? <span className="spinner" aria-hidden="true" /> : null}
                {state.codeSentAt ? "Send a new code" : "Send me a code"}
              </button>
            </div>
            {errors.emailCode ? (
              <p id={`${id}-email-error`} className="field-error-text" role="alert">
                {errors.emailCode}
              </p>
            ) : null}
          </div>
        ) : null}
        {errors.form ? (
          <p className="field-error-text" role="alert">
            {errors.form}
          </p>
        ) : null}
        <button type="submit" className="button primary gate-submit" disabled={busy !== undefined}>
          {busy === "verify" ? <span className="spinner" aria-hidden="true" /> : null}
          Continue to the document
        </button>
        <p className="brand-foot">Countersign</p>
      </form>
    </main>
  );
}

/** The service's words about a field ("is not the access code…") as a sentence about it. */
function aboutTheCode(message: string): string {
  return sentence(message.startsWith("is ") ? `this ${message}` : message);
}

/** Seconds a 429 asks to wait; a minute when it does not say. */
function retryAfterOf(error: ApiError): number {
  const match = /after (\d\d):(\d\d) UTC/.exec(error.problem.detail ?? "");
  if (!match) return 60;
  const now = new Date();
  const until = Date.UTC(
    now.getUTCFullYear(),
    now.getUTCMonth(),
    now.getUTCDate(),
    Number(match[1]),
    Number(match[2]),
  );
  const seconds = (until - now.getTime()) / 1000;
  return seconds > 0 ? seconds : seconds + 86_400;
}
