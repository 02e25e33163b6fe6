/**
 * What an earlier signer filled in, shown where it lies on the page, as DocuSign and Documenso show
 * it: their signature, their text, their tick. Read-only: it is not a field of this signer's.
 */
import type { CSSProperties } from "react";
import type { FilledField } from "./api";
import { TypedSignature } from "./FieldBox";
import { fieldLabel } from "./fields";
import { useT } from "./i18n/Language";

function content(field: FilledField, width: number, height: number, scale: number) {
  const { value } = field;
  if (typeof value === "boolean") {
    if (!value) return null;
    // A chosen radio button shows its dot, as the sealed PDF draws it; a checkbox its tick.
    return field.type === "radio" ? <span className="filled-dot" /> : <span className="filled-tick">✔</span>;
  }
  if (typeof value === "string") {
    // The sealed PDF's size for text: at most 12 points and 80 % of the box's height.
    const size = Math.min(12 * scale, height * 0.8);
    return (
      <span className="filled-text" style={{ fontSize: `${size}px` }}>
        {value}
      </span>
    );
  }
  if (value.kind === "drawn") {
    return <img className="field-ink" src={`data:image/png;base64,${value.png}`} alt="" draggable={false} />;
  }
  return <TypedSignature text={value.text} width={width} height={height} scale={scale} />;
}

export function FilledBox({ field, scale }: { field: FilledField; scale: number }) {
  const t = useT();
  const width = field.width * scale;
  const height = field.height * scale;
  const style: CSSProperties = {
    left: `${field.x * scale}px`,
    top: `${field.y * scale}px`,
    width: `${width}px`,
    height: `${height}px`,
  };
  const shown = typeof field.value === "string" ? field.value : "";
  return (
    <div
      className={`filled filled-${field.type}`}
      style={style}
      role="img"
      aria-label={t(shown ? "filled.byWithValue" : "filled.by", {
        label: fieldLabel(field, t),
        name: field.filledBy,
        value: shown,
      })}
      data-testid={`filled-${field.id}`}
    >
      {content(field, width, height, scale)}
    </div>
  );
}
