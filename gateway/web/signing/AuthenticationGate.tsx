/**
 * Before the document, the codes the sender asked for: the access code they gave the signer another
 * way, and a one-time code e-mailed on request. A wrong code says how many tries are left; after
 * five the page says when the signer may try again, and offers nothing until then.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { ApiError, getSession, type Session, type SignerAuthentication, sendCode, verify } from "./api";
import { BrandFoot } from "./Branding";
import { StateScreen } from "./EndScreens";
import { FieldError } from "./FieldError";
import { LanguageSwitcher, useT } from "./i18n/Language";
import { problemText } from "./phase";

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
  const t = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const needs = (method: "access_code" | "email_code") =>
    state.methods.includes(method) && !state.verified.includes(method);

  const fail = async (error: unknown) => {
    if (!(error instanceof ApiError)) return setErrors({ form: t("common.somethingWrong") });
    if (error.status === 401 || error.status === 410) return onEnded(error);
    const wrong = (path: string) => error.problem.errors?.some((e) => e.path === path);
    if (error.status === 429 || wrong("accessCode") || wrong("emailCode")) {
      // Where the signer now stands — attempts left, or locked until when — is the session's to say.
      const after = await getSession().then(
        (session) => session.authentication,
        () => undefined,
      );
      if (after?.lockedUntil) return setLockedUntil(after.lockedUntil);
      if (error.status !== 429) {
        const left = after?.attemptsLeft ?? state.attemptsLeft;
        if (after) setState(after);
        return setErrors({
          accessCode: wrong("accessCode") ? t("gate.accessCode.wrong", { left }) : undefined,
          emailCode: wrong("emailCode") ? t("gate.emailCode.wrong", { left }) : undefined,
        });
      }
    }
    setErrors({ form: problemText(error, t) });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      accessCode: needs("access_code") && !accessCode.trim() ? t("gate.accessCode.missing") : undefined,
      emailCode:
        needs("email_code") && !emailCode.trim()
          ? t(state.codeSentAt ? "gate.emailCode.missing" : "gate.emailCode.askFirst")
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
      await fail(error);
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
      await fail(error);
    } finally {
      setBusy(undefined);
    }
  };

  const sender = session.request.sender;
  const hasSender = sender ? "yes" : "no";
  if (lockedUntil && Date.parse(lockedUntil) > Date.now()) {
    return (
      <StateScreen testId="locked-state" title={t("gate.locked.title")} tone="error">
        <p>
          {t.rich("gate.locked.body", {
            time: new Date(lockedUntil).toLocaleTimeString(document.documentElement.lang, {
              hour: "2-digit",
              minute: "2-digit",
            }),
            sender,
            hasSender,
          })}
        </p>
      </StateScreen>
    );
  }
  const address = state.emailHint ?? t("gate.emailCode.yourAddress");

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
          {t("gate.title")}
        </h1>
        <p>
          {t.rich("gate.lead", {
            sender,
            hasSender,
            title: session.request.title,
            count: needs("access_code") && needs("email_code") ? 2 : 1,
          })}
        </p>
        {needs("access_code") ? (
          <div className="gate-field">
            <label className="stacked-label" htmlFor={`${id}-access`}>
              {t("gate.accessCode.label")}
            </label>
            <p className="hint" id={`${id}-access-hint`}>
              {t("gate.accessCode.hint")}
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
            <FieldError id={`${id}-access-error`}>{errors.accessCode}</FieldError>
          </div>
        ) : null}
        {needs("email_code") ? (
          <div className="gate-field">
            <label className="stacked-label" htmlFor={`${id}-email`}>
              {t("gate.emailCode.label")}
            </label>
            <p className="hint" id={`${id}-email-hint`}>
              {t.rich(state.codeSentAt ? "gate.emailCode.sent" : "gate.emailCode.willSend", { address })}
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
                {t(state.codeSentAt ? "gate.emailCode.sendNew" : "gate.emailCode.send")}
              </button>
            </div>
            <FieldError id={`${id}-email-error`}>{errors.emailCode}</FieldError>
          </div>
        ) : null}
        <FieldError>{errors.form}</FieldError>
        <button type="submit" className="button primary gate-submit" disabled={busy !== undefined}>
          {busy === "verify" ? <span className="spinner" aria-hidden="true" /> : null}
          {t("gate.continue")}
        </button>
        <div className="card-foot">
          <BrandFoot />
          <LanguageSwitcher />
        </div>
      </form>
    </main>
  );
}
