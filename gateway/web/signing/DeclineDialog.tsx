import { type FormEvent, useId, useRef, useState } from "react";
import { FieldError } from "./FieldError";
import { useT } from "./i18n/Language";
import { SigningDialog } from "./SigningDialog";

// The service keeps reasons of up to 1000 characters.
const MAX = 1000;

interface Props {
  onClose: () => void;
  onConfirm: (reason: string) => void;
  busy: boolean;
  error: string | null;
}

export function DeclineDialog({ onClose, onConfirm, busy, error }: Props) {
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const errorId = useId();
  const hintId = useId();
  const t = useT();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      area.current?.focus();
      return;
    }
    onConfirm(reason.trim());
  };

  const message = missing && !reason.trim() ? t("decline.missing") : error;

  return (
    <SigningDialog
      title={t("decline.title")}
      description={t("decline.description")}
      testId="decline-dialog"
      initialFocus={area}
      busy={busy}
      onClose={onClose}
      onSubmit={submit}
      submit={{
        label: t("decline.title"),
        testId: "confirm-decline",
        tone: "danger",
        busyLabel: t("decline.declining"),
      }}
    >
      <label className="stacked-label" htmlFor={`${hintId}-reason`}>
        {t("decline.reason")} <span className="required-word">{t("common.required")}</span>
      </label>
      <textarea
        id={`${hintId}-reason`}
        ref={area}
        data-testid="decline-reason"
        value={reason}
        maxLength={MAX}
        rows={5}
        required
        aria-required="true"
        aria-invalid={message ? true : undefined}
        aria-describedby={`${hintId} ${message ? errorId : ""}`.trim()}
        onChange={(e) => setReason(e.target.value)}
        disabled={busy}
      />
      <p id={hintId} className="hint">
        {t("decline.characters", { count: reason.length, max: MAX })}
      </p>
      <FieldError id={errorId}>{message}</FieldError>
    </SigningDialog>
  );
}
