/**
 * "Assign to someone else": the signer names who signs in their place and why. The new person is
 * e-mailed a link of their own; this signer's link and session end with it.
 */
import { type FormEvent, useId, useRef, useState } from "react";
import { ApiError, reassign } from "./api";
import { FieldError } from "./FieldError";
import { useT } from "./i18n/Language";
import { problemText } from "./phase";
import { SigningDialog } from "./SigningDialog";

interface Props {
  onClose: () => void;
  onReassigned: (to: { name: string; email: string }) => void;
  onEnded: (error: ApiError) => void;
}

export function ReassignDialog({ onClose, onReassigned, onEnded }: Props) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<{ name?: string; email?: string; reason?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const id = useId();
  const t = useT();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      name: name.trim() ? undefined : t("reassign.nameMissing"),
      email: email.trim() ? undefined : t("reassign.emailMissing"),
      reason: reason.trim() ? undefined : t("reassign.reasonMissing"),
    };
    if (missing.name || missing.email || missing.reason) return setErrors(missing);
    setBusy(true);
    setErrors({});
    try {
      onReassigned(await reassign({ name: name.trim(), email: email.trim(), reason: reason.trim() }));
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && (error.status === 401 || error.status === 410)) return onEnded(error);
      const about = (path: string) =>
        error instanceof ApiError ? error.problem.errors?.find((e) => e.path === path)?.message : undefined;
      const field = { name: about("name"), email: about("email"), reason: about("reason") };
      setErrors(field.name || field.email || field.reason ? field : { form: problemText(error, t) });
    }
  };

  const input = (key: "name" | "email", label: string, value: string, set: (v: string) => void) => (
    <>
      <label className="stacked-label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        className="reassign-input"
        ref={key === "name" ? first : undefined}
        type={key === "email" ? "email" : "text"}
        autoComplete="off"
        value={value}
        onChange={(e) => set(e.target.value)}
        disabled={busy}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${id}-${key}-error` : undefined}
      />
      <FieldError id={`${id}-${key}-error`}>{errors[key]}</FieldError>
    </>
  );

  return (
    <SigningDialog
      title={t("reassign.title")}
      description={t("reassign.description")}
      testId="reassign-dialog"
      initialFocus={first}
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
      formClassName="reassign-form"
      submit={{ label: t("reassign.confirm"), testId: "confirm-reassign", tone: "primary" }}
    >
      {input("name", t("reassign.name"), name, setName)}
      {input("email", t("reassign.email"), email, setEmail)}
      <label className="stacked-label" htmlFor={`${id}-reason`}>
        {t("reassign.reason")}
      </label>
      <textarea
        id={`${id}-reason`}
        rows={3}
        maxLength={1000}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        disabled={busy}
        aria-invalid={errors.reason ? true : undefined}
        aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
      />
      <FieldError id={`${id}-reason-error`}>{errors.reason}</FieldError>
      <FieldError>{errors.form}</FieldError>
    </SigningDialog>
  );
}
