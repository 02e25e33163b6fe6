/**
 * A dialog that is one form: its fields, then Cancel and the submit button that shows the form is
 * being sent. While it is sent, the dialog cannot be closed.
 */
import type { FormEvent, ReactNode } from "react";
import { Modal } from "../shared/Modal";
import { BusyButton } from "./ui";

interface FormDialogProps {
  title: string;
  description?: ReactNode;
  testId: string;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  busy: boolean;
  /** The submit button's words. */
  submitLabel: ReactNode;
  /** The fields, and any note on what went wrong. */
  children: ReactNode;
}

export function FormDialog({
  title,
  description,
  testId,
  onClose,
  onSubmit,
  busy,
  submitLabel,
  children,
}: FormDialogProps) {
  return (
    <Modal title={title} description={description} onClose={onClose} testId={testId} busy={busy}>
      <form onSubmit={onSubmit} noValidate>
        {children}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <BusyButton type="submit" busy={busy}>
            {submitLabel}
          </BusyButton>
        </div>
      </form>
    </Modal>
  );
}
