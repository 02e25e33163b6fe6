/**
 * Picking the day of a date field, with the browser's own date control (its calendar, its keys,
 * its screen reader support); the field then shows the day in the page's language (the sealed PDF
 * writes it YYYY-MM-DD, as every day of the document).
 */
import { type FormEvent, useId, useRef, useState } from "react";
import type { Field } from "./api";
import { fieldLabel } from "./fields";
import { useT } from "./i18n/Language";
import { SigningDialog } from "./SigningDialog";

interface Props {
  field: Field;
  /** The day picked so far, YYYY-MM-DD, or "". */
  day: string;
  onApply: (day: string) => void;
  onClose: () => void;
}

export function DateDialog({ field, day, onApply, onClose }: Props) {
  const [value, setValue] = useState(day);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const t = useT();

  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply(value);
  };

  return (
    <SigningDialog
      title={t("date.title")}
      testId="date-dialog"
      initialFocus={input}
      busy={false}
      onClose={onClose}
      onSubmit={apply}
      otherAction={
        <button type="button" className="button secondary" onClick={() => onApply("")} disabled={!day}>
          {t("date.clear")}
        </button>
      }
      submit={{ label: t("date.apply"), testId: "date-apply", tone: "primary", disabled: !value }}
    >
      <label className="stacked-label" htmlFor={id} dir="auto">
        {fieldLabel(field, t)}
        {field.required ? <span className="required-word"> {t("common.required")}</span> : null}
      </label>
      <input
        id={id}
        ref={input}
        type="date"
        className="date-input"
        data-testid="date-input"
        value={value}
        required={field.required}
        onChange={(e) => setValue(e.target.value)}
      />
    </SigningDialog>
  );
}
