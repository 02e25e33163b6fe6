/**
 * A dialog of the signing page that is one form: its fields, then Cancel and the button that
 * submits, which shows a spinner while the form is sent. While it is sent, the dialog cannot be
 * closed.
 */
import type { FormEvent, ReactNode, RefObject } from "react";
import { Modal } from "../shared/Modal";
import { useT } from "./i18n/Language";

interface SigningDialogProps {
  title: string;
  description?: string;
  testId: string;
  /** The field the reader starts in. */
  initialFocus: RefObject<HTMLElement | null>;
  busy: boolean;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  formClassName?: string;
  /** The fields, and any note on what went wrong. */
  children: ReactNode;
  /** A button of the dialog's own, before Cancel. */
  otherAction?: ReactNode;
  submit: {
    label: ReactNode;
    testId: string;
    tone: "primary" | "danger";
    disabled?: boolean;
    /** Words that stand for the label while the form is sent; the label stays where not given. */
    busyLabel?: ReactNode;
  };
}

export function SigningDialog({
  title,
  description,
  testId,
  initialFocus,
  busy,
  onClose,
  onSubmit,
  formClassName,
  children,
  otherAction,
  submit,
}: SigningDialogProps) {
  const t = useT();
  const spinner = <span className="spinner" aria-hidden="true" />;
  return (
    <Modal
      title={title}
      description={description}
      closeLabel={t("common.close")}
      onClose={onClose}
      testId={testId}
      initialFocus={initialFocus}
      busy={busy}
    >
      <form onSubmit={onSubmit} noValidate className={formClassName}>
        {children}
        <div className="dialog-actions">
          {otherAction}
          <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
            {t("common.cancel")}
          </button>
          <button
            type="submit"
            className={`button ${submit.tone}`}
            data-testid={submit.testId}
            disabled={busy || submit.disabled}
          >
            {busy && submit.busyLabel ? (
              <>
                {spinner} {submit.busyLabel}
              </>
            ) : (
              <>
                {busy ? spinner : null}
                {submit.label}
              </>
            )}
          </button>
        </div>
      </form>
    </Modal>
  );
}
