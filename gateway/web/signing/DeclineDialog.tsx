import { type FormEvent, useId, useRef, useState } from "react";
import { Modal } from "../shared/Modal";

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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      area.current?.focus();
      return;
    }
    onConfirm(reason.trim());
  };

  const message = missing && !reason.trim() ? "Please tell the sender why you are declining." : error;

  return (
    <Modal
      title="Decline to sign"
      description="The sender will be told that you declined, with your reason. You will not be able to sign this request afterwards."
      onClose={onClose}
      testId="decline-dialog"
      initialFocus={area}
      busy={busy}
    >
      <form onSubmit={submit} noValidate>
        <label className="stacked-label" htmlFor={`${hintId}-reason`}>
          Reason for declining <span className="required-word">(required)</span>
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
          {reason.length} / {MAX} characters
        </p>
        {message ? (
          <p id={errorId} className="field-error-text" role="alert">
            {message}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button danger" data-testid="confirm-decline" disabled={busy}>
            {busy ? (
              <>
                <span className="spinner" aria-hidden="true" /> Declining…
              </>
            ) : (
              "Decline to sign"
            )}
          </button>
        </div>
      </form>
    </Modal>
  );
}
