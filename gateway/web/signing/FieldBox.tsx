import { type CSSProperties, useEffect, useReducer, useRef } from "react";
import type { Field, FieldValue, SignatureValue } from "./api";
import { facesDeclared } from "./faces";
import { fieldLabel, isFilled } from "./fields";
import { useT } from "./i18n/Language";
import type { Translate } from "./i18n/locales";
import type { Reach } from "./touch-reach";
import { READABLE_HEIGHT } from "./ZoomControl";

interface Props {
  field: Field;
  value: FieldValue | undefined;
  scale: number;
  /** How far the box's touch area reaches past it, in CSS pixels: only into free space (touch-reach.ts). */
  reach: Reach;
  error: string | undefined;
  disabled: boolean;
  /** The sender fixed the value (the signer's own name or e-mail): shown, not changed. */
  readOnly?: boolean;
  today: string;
  /** A picked date's text in the page's language; undefined while the service is asked. */
  dayText: string | undefined;
  /** A checkbox whose group has as many boxes checked as it may: it cannot be checked too. */
  groupFull: boolean;
  /** A radio button whose group has a button chosen: the group is filled in. */
  groupChosen: boolean;
  /** A file is being attached to this field. */
  attaching: boolean;
  register: (id: string, el: HTMLElement | null) => void;
  onFocusField: (id: string) => void;
  onChange: (id: string, value: FieldValue) => void;
  onOpenSignature: (field: Field) => void;
  onOpenDate: (field: Field) => void;
  onAttach: (field: Field, file: File) => void;
}

/** What the signer may attach; the service reads the file's content to be sure. */
const ATTACHABLE = "application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg";

/**
 * A signature field's accessible name, which starts with the text it shows (WCAG 2.5.3, Label in
 * Name): "Sign: …" while empty, the typed name once signed; a drawing shows no text.
 */
function signatureButtonName(
  t: Translate,
  action: string,
  label: string,
  requirement: string,
  page: number,
  value: SignatureValue | undefined,
): string {
  if (!value) return t("field.toSign", { action, label, requirement, page });
  return value.kind === "typed"
    ? t("field.signedTyped", { text: value.text, label, page })
    : t("field.signedDrawn", { label, page });
}

/** The CSS variable holding a font stack the sealed PDF also writes in (font-stacks.ts). */
type Stack = "--handwriting" | "--sealed-text";

/** How wide a text box grows on a phone while typed in, in CSS pixels (14rem): room for a readable value. */
const EDITOR_WIDTH = 224;

/**
 * Keeps a text box too small to read, which grows on a phone while typed in (styles.css), inside the
 * part of the document on screen at any zoom and pinch: shifted left where the box lies near the right
 * edge, and never wider than what shows. The box's problem, if any, moves with it.
 */
function placeEditor(input: HTMLElement): void {
  const box = input.closest<HTMLElement>(".field");
  const column = input.closest<HTMLElement>(".documents")?.getBoundingClientRect();
  if (!box || !column) return;
  const margin = 8;
  const view = window.visualViewport;
  const left = Math.max(column.left, view?.offsetLeft ?? 0) + margin;
  const right = Math.min(column.right, view ? view.offsetLeft + view.width : window.innerWidth) - margin;
  const at = box.getBoundingClientRect();
  // A box drawn big enough to read (zoomed in) is typed in as it is.
  const readable = at.height >= READABLE_HEIGHT;
  const width = readable ? at.width : Math.max(at.width, Math.min(EDITOR_WIDTH, right - left));
  const shift = readable ? 0 : Math.max(left - at.left, Math.min(0, right - (at.left + width)));
  box.style.setProperty("--editor-width", `${width}px`);
  box.style.setProperty("--editor-shift", `${shift}px`);
  box.style.setProperty("--editor-height", readable ? `${at.height}px` : "44px");
  box.dataset.editor = readable ? "in-place" : "grown";
}

let measuring: CanvasRenderingContext2D | null | undefined;

/**
 * The size text is drawn at in a box, in CSS pixels, by the sealed PDF's rule (field-stamps.ts):
 * at most `largestPt` points and 80 % of the box's height, and no wider than the box less 4 points,
 * measured in the same faces (`stack` names the CSS variable holding them).
 */
function fittedSize(
  text: string,
  stack: Stack,
  largestPt: number,
  width: number,
  height: number,
  scale: number,
): number {
  measuring ??= document.createElement("canvas").getContext("2d");
  const family = getComputedStyle(document.documentElement).getPropertyValue(stack);
  let atOne = 0;
  if (measuring) {
    measuring.font = `100px ${family}`;
    atOne = measuring.measureText(text).width / 100;
  }
  const largest = Math.min(largestPt * scale, height * 0.8);
  return Math.max(4 * scale, Math.min(largest, atOne > 0 ? (width - 4 * scale) / atOne : largest));
}

/** A field's own text size, in CSS pixels, for a box `height` pixels high. */
function fieldFontSize(height: number): number {
  return Math.max(9, Math.min(16, height * 0.55));
}

/** The smallest a call to action is written, in CSS pixels. */
const SMALLEST_CTA = 8;

const PEN = (
  <svg aria-hidden="true" viewBox="0 0 24 24" className="pen-icon">
    <path d="M3 21l3.8-1 11-11-2.8-2.8-11 11L3 21zm14.6-15.6l1.9-1.9 2.8 2.8-1.9 1.9-2.8-2.8z" />
  </svg>
);

/**
 * A field's call to action ("Sign", "Datum auswählen", "Paraphieren"): the box's size (at most 16
 * pixels, half its height) unless the words, measured in the page's face, need it smaller to show
 * whole. Where even 8 pixels is too wide, a signature's shows the pen alone and another its start
 * and an ellipsis, rather than a middle cut off at both ends; the button's name says it in full.
 */
function FieldCta({
  text,
  width,
  height,
  pen,
}: {
  text: string;
  width: number;
  height: number;
  pen: boolean;
}) {
  measuring ??= document.createElement("canvas").getContext("2d");
  let atOne = 0;
  if (measuring) {
    measuring.font = `600 100px ${getComputedStyle(document.body).fontFamily}`;
    atOne = measuring.measureText(text).width / 100;
  }
  // The pen is 1.1 em wide and 0.3 em from the words, shown where the box is roomy.
  const withPen = pen && width >= 70;
  // Inside the control's 2 px borders and its padding of 0.3 em of the field's size on each side.
  const room = width - 4 - 0.6 * fieldFontSize(height) - 2;
  const fits = atOne > 0 ? room / (atOne + (withPen ? 1.4 : 0)) : Number.POSITIVE_INFINITY;
  const largest = Math.min(16, height * 0.5);
  if (pen && fits < SMALLEST_CTA) {
    return (
      <span
        className="field-cta"
        style={{ fontSize: `${Math.max(SMALLEST_CTA, Math.min(largest, room))}px` }}
      >
        {PEN}
      </span>
    );
  }
  return (
    <span className="field-cta" style={{ fontSize: `${Math.max(SMALLEST_CTA, Math.min(largest, fits))}px` }}>
      {withPen ? PEN : null}
      <span className="field-cta-text">{text}</span>
    </span>
  );
}

function SignatureContent({
  value,
  height,
  width,
  scale,
}: {
  value: SignatureValue;
  height: number;
  width: number;
  scale: number;
}) {
  if (value.kind === "drawn") {
    return <img className="field-ink" src={`data:image/png;base64,${value.png}`} alt="" draggable={false} />;
  }
  return <TypedSignature text={value.text} height={height} width={width} scale={scale} />;
}

/** Re-renders the caller once the faces of `stack` that `text` needs have loaded, so it measures in them. */
function useFaces(stack: Stack, text: string): void {
  const [, loaded] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const family = getComputedStyle(document.documentElement).getPropertyValue(stack);
    let current = true;
    facesDeclared
      .then(() => document.fonts.load(`16px ${family}`, text))
      .then(
        () => current && loaded(),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [stack, text]);
}

/** A typed signature, sized once the faces it is written in have loaded (until then, measured in others). */
export function TypedSignature({
  text,
  height,
  width,
  scale,
}: {
  text: string;
  height: number;
  width: number;
  scale: number;
}) {
  useFaces("--handwriting", text);
  return (
    <span
      className="handwriting field-typed"
      style={{ fontSize: `${fittedSize(text, "--handwriting", 48, width, height, scale)}px` }}
    >
      {text}
    </span>
  );
}

export function FieldBox({
  field,
  value,
  scale,
  reach,
  error,
  disabled,
  readOnly,
  today,
  dayText,
  groupFull,
  groupChosen,
  attaching,
  register,
  onFocusField,
  onChange,
  onOpenSignature,
  onOpenDate,
  onAttach,
}: Props) {
  const t = useT();
  const fileInput = useRef<HTMLInputElement>(null);
  const width = field.width * scale;
  const height = field.height * scale;
  useFaces("--sealed-text", today);
  const filled = field.type === "radio" ? groupChosen : isFilled(field, value);
  const label = fieldLabel(field, t);
  const requirement = t(field.required ? "field.required" : "field.optional");
  const errorId = `error-${field.id}`;
  const style = {
    left: `${field.x * scale}px`,
    top: `${field.y * scale}px`,
    width: `${width}px`,
    height: `${height}px`,
    fontSize: `${fieldFontSize(height)}px`,
    "--reach-left": `${reach.left}px`,
    "--reach-right": `${reach.right}px`,
    "--reach-top": `${reach.top}px`,
    "--reach-bottom": `${reach.bottom}px`,
  } as CSSProperties;
  const common = {
    "data-testid": `field-${field.id}`,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    onFocus: () => onFocusField(field.id),
    ref: (el: HTMLElement | null) => register(field.id, el),
  } as const;
  const className = [
    "field",
    `field-${field.type}`,
    filled ? "is-filled" : "is-empty",
    field.required ? "is-required" : "",
    error ? "has-error" : "",
  ]
    .filter(Boolean)
    .join(" ");

  let control: React.ReactNode;
  switch (field.type) {
    case "signature":
    case "initials": {
      const sig = typeof value === "object" ? (value as SignatureValue) : undefined;
      const cta = t(field.type === "signature" ? "field.sign" : "field.initial");
      control = (
        <button
          type="button"
          {...common}
          className="field-control field-button"
          aria-label={signatureButtonName(t, cta, label, requirement, field.page, sig)}
          disabled={disabled}
          onClick={() => onOpenSignature(field)}
        >
          {sig ? (
            <SignatureContent value={sig} height={height} width={width} scale={scale} />
          ) : (
            // The call to action has to fit small boxes (initials on a phone are about 40 by 25 pixels).
            <FieldCta text={cta} width={width} height={height} pen />
          )}
        </button>
      );
      break;
    }
    case "date_signed":
      control = (
        <input
          {...common}
          className="field-control field-readonly"
          type="text"
          readOnly
          // Stamped by the service: nothing to fill, so not a stop on the way through the fields.
          tabIndex={-1}
          value={today}
          // The day in the signer's language, in its reading order (an Arabic date right to left),
          // from the box's left edge, shrunk to fit, never cut short. The sealed PDF writes the same
          // day in the document's one form, YYYY-MM-DD (services/requests/src/pdf/layout/sealed-days.ts).
          dir="auto"
          style={{
            fontSize: `${fittedSize(today, "--sealed-text", 12, width, height, scale)}px`,
            padding: `0 ${2 * scale}px`,
            textAlign: "left",
          }}
          aria-label={t("field.dateSigned", { page: field.page })}
        />
      );
      break;
    case "checkbox":
      control = (
        <label className="field-check">
          <input
            {...common}
            type="checkbox"
            checked={value === true}
            disabled={disabled || (groupFull && value !== true)}
            required={field.required}
            aria-label={t("field.described", { label, requirement, page: field.page })}
            onChange={(e) => onChange(field.id, e.target.checked)}
          />
        </label>
      );
      break;
    case "radio":
      control = (
        <label className="field-check field-radio">
          <input
            {...common}
            type="radio"
            // One name a group: the browser moves between its buttons with the arrow keys.
            name={`radio-${field.group}`}
            value={field.option}
            checked={value === true}
            disabled={disabled}
            required={field.required}
            aria-label={t("field.radioOption", {
              option: field.option ?? "",
              label: field.label?.trim() || field.group || label,
              requirement,
              page: field.page,
            })}
            onChange={(e) => e.target.checked && onChange(field.id, true)}
          />
        </label>
      );
      break;
    case "dropdown":
      control = (
        <select
          {...common}
          className="field-control field-input field-select"
          dir="auto"
          value={typeof value === "string" ? value : ""}
          disabled={disabled}
          required={field.required}
          aria-required={field.required}
          aria-label={t("field.described", { label, requirement, page: field.page })}
          onChange={(e) => onChange(field.id, e.target.value)}
        >
          <option value="">{t("field.choose")}</option>
          {(field.options ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    case "date": {
      const day = typeof value === "string" ? value : "";
      const shown = day ? (dayText ?? day) : "";
      control = (
        <button
          type="button"
          {...common}
          className="field-control field-button field-date"
          disabled={disabled}
          aria-label={
            shown
              ? t("field.pickedDate", { date: shown, label, requirement, page: field.page })
              : t("field.toPickDate", { label, requirement, page: field.page })
          }
          onClick={() => onOpenDate(field)}
        >
          {shown ? (
            <span
              className="field-typed-text"
              dir="auto"
              style={{ fontSize: `${fittedSize(shown, "--sealed-text", 12, width, height, scale)}px` }}
            >
              {shown}
            </span>
          ) : (
            <FieldCta text={t("field.pickDate")} width={width} height={height} pen={false} />
          )}
        </button>
      );
      break;
    }
    case "attachment": {
      const file = typeof value === "object" && value?.kind === "attachment" ? value : undefined;
      control = (
        <>
          <button
            type="button"
            {...common}
            className="field-control field-button field-attachment"
            disabled={disabled || attaching}
            aria-busy={attaching || undefined}
            aria-label={
              file
                ? t("field.attachedFile", { filename: file.filename, label, page: field.page })
                : t("field.toAttach", { label, requirement, page: field.page })
            }
            onClick={() => fileInput.current?.click()}
          >
            {attaching ? (
              <span className="field-cta">
                <span className="spinner" aria-hidden="true" /> {t("field.attaching")}
              </span>
            ) : file ? (
              <span
                className="field-typed-text"
                dir="auto"
                style={{
                  fontSize: `${fittedSize(file.filename, "--sealed-text", 12, width, height, scale)}px`,
                }}
              >
                {file.filename}
              </span>
            ) : (
              <FieldCta text={t("field.attach")} width={width} height={height} pen={false} />
            )}
          </button>
          <input
            ref={fileInput}
            type="file"
            hidden
            accept={ATTACHABLE}
            data-testid={`file-${field.id}`}
            onChange={(e) => {
              const chosen = e.target.files?.[0];
              e.target.value = "";
              if (chosen) onAttach(field, chosen);
            }}
          />
        </>
      );
      break;
    }
    default:
      control = (
        <input
          {...common}
          className="field-control field-input"
          type={field.type === "email" ? "email" : "text"}
          inputMode={field.type === "number" ? "decimal" : undefined}
          dir="auto"
          autoComplete={field.type === "email" ? "email" : field.type === "name" ? "name" : "off"}
          value={typeof value === "string" ? value : ""}
          placeholder={label}
          disabled={disabled}
          readOnly={readOnly}
          onFocus={(e) => {
            placeEditor(e.currentTarget);
            onFocusField(field.id);
          }}
          required={field.required}
          aria-required={field.required}
          maxLength={field.type === "text" ? 1000 : field.type === "number" ? 30 : 320}
          aria-label={
            field.type === "number"
              ? t("field.numberHint", {
                  label,
                  requirement,
                  page: field.page,
                  min: field.minimum ?? "",
                  max: field.maximum ?? "",
                  range:
                    field.minimum !== undefined && field.maximum !== undefined
                      ? "both"
                      : field.minimum !== undefined
                        ? "min"
                        : field.maximum !== undefined
                          ? "max"
                          : "none",
                })
              : t("field.described", { label, requirement, page: field.page })
          }
          onChange={(e) => onChange(field.id, e.target.value)}
        />
      );
  }

  return (
    // A tap in the reach around a small box is a tap on its control.
    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the control itself takes keys; this only widens where a pointer lands.
    <div
      className={className}
      style={style}
      onClick={(event) => {
        if (event.target !== event.currentTarget) return;
        const control = event.currentTarget.querySelector<HTMLElement>(
          "button, select, input:not([readonly]):not([hidden])",
        );
        control?.focus();
        control?.click();
      }}
    >
      {control}
      {field.required && !filled ? (
        <span className="required-mark" aria-hidden="true">
          *
        </span>
      ) : null}
      {error ? (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
