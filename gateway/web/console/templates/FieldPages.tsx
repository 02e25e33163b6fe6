/**
 * The document's pages with the template's fields on them: a field kind dragged from the palette
 * lands where it is dropped; a field is moved by dragging it and resized by its corner handle; the
 * keyboard does the same (arrows move, Alt+arrows resize, Shift for bigger steps, Delete removes).
 */
import type { PDFDocumentProxy } from "pdfjs-dist";
import { type DragEvent, type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from "react";
import { type PageSize, PageView } from "../../shared/PageView";
import { openPdf } from "../../shared/pdf-loader";
import {
  boxCaption,
  type EditedField,
  type EditedRole,
  type FieldType,
  fieldLabelPx,
  kindOf,
  newKey,
  placeOnPage,
  resizeOnPage,
  roleColour,
} from "./field-kinds";

export const DRAG_TYPE = "application/x-countersign-field";

interface FieldPagesProps {
  load: () => Promise<ArrayBuffer>;
  pages: PageSize[];
  fields: EditedField[];
  roles: EditedRole[];
  selected?: string;
  invalid: Set<string>;
  /** The key of the role new fields go to. */
  activeRole: string;
  onSelect: (key: string | undefined) => void;
  onChange: (field: EditedField) => void;
  onAdd: (field: EditedField) => void;
  onRemove: (key: string) => void;
}

export function FieldPages(props: FieldPagesProps) {
  const { load, pages } = props;
  const holder = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.min(el.clientWidth, 820)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    let cancelled = false;
    const opening = openPdf(load());
    opening.promise.then((loaded) => !cancelled && setPdf(loaded)).catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      opening.close();
    };
  }, [load]);

  return (
    <div ref={holder} className="editor-pages">
      {failed ? (
        <p className="note error" role="alert">
          The document could not be shown. Reload the page to try again.
        </p>
      ) : null}
      {pages.map((size, i) => (
        <PageView
          // biome-ignore lint/suspicious/noArrayIndexKey: pages are positional.
          key={i}
          pdf={pdf}
          failed={failed}
          pageNumber={i + 1}
          pageCount={pages.length}
          size={size}
          width={width}
        >
          {width > 0 ? <PageFields {...props} page={i + 1} size={size} scale={width / size.width} /> : null}
        </PageView>
      ))}
    </div>
  );
}

interface PageFieldsProps extends FieldPagesProps {
  page: number;
  size: PageSize;
  scale: number;
}

function PageFields({
  page,
  size,
  scale,
  fields,
  roles,
  selected,
  invalid,
  activeRole,
  onSelect,
  onChange,
  onAdd,
  onRemove,
}: PageFieldsProps) {
  const layer = useRef<HTMLDivElement>(null);

  const onDragOver = (event: DragEvent) => {
    if (event.dataTransfer.types.includes(DRAG_TYPE)) {
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
    }
  };
  const onDrop = (event: DragEvent) => {
    const type = event.dataTransfer.getData(DRAG_TYPE) as FieldType;
    const rect = layer.current?.getBoundingClientRect();
    if (!type || !rect) return;
    event.preventDefault();
    const kind = kindOf(type);
    // The drop point is the new box's centre.
    const field = placeOnPage(
      {
        key: newKey(),
        type: kind.type,
        roleKey: activeRole,
        page,
        x: (event.clientX - rect.left) / scale - kind.width / 2,
        y: (event.clientY - rect.top) / scale - kind.height / 2,
        width: kind.width,
        height: kind.height,
        required: true,
        label: "",
      },
      size,
    );
    onAdd(field);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping is the pointer path; the palette's buttons add fields by keyboard.
    <div
      ref={layer}
      className="field-layer"
      onDragOver={onDragOver}
      onDrop={onDrop}
      onPointerDown={(e) => e.target === layer.current && onSelect(undefined)}
    >
      {fields
        .filter((f) => f.page === page)
        .map((field) => (
          <FieldBox
            key={field.key}
            field={field}
            size={size}
            scale={scale}
            colour={roleColour(
              Math.max(
                0,
                roles.findIndex((r) => r.key === field.roleKey),
              ),
            )}
            roleName={roles.find((r) => r.key === field.roleKey)?.name ?? ""}
            showRole={roles.length > 1}
            selected={selected === field.key}
            invalid={invalid.has(field.key)}
            onSelect={() => onSelect(field.key)}
            onChange={onChange}
            onRemove={() => onRemove(field.key)}
          />
        ))}
    </div>
  );
}

interface FieldBoxProps {
  field: EditedField;
  size: PageSize;
  scale: number;
  colour: string;
  roleName: string;
  /** Say whose it is on the box: there is more than one role to tell apart. */
  showRole: boolean;
  selected: boolean;
  invalid: boolean;
  onSelect: () => void;
  onChange: (field: EditedField) => void;
  onRemove: () => void;
}

function FieldBox({
  field,
  size,
  scale,
  colour,
  roleName,
  showRole,
  selected,
  invalid,
  onSelect,
  onChange,
  onRemove,
}: FieldBoxProps) {
  const drag = useRef<{
    mode: "move" | "resize";
    startX: number;
    startY: number;
    origin: EditedField;
  } | null>(null);

  const start = (mode: "move" | "resize") => (event: PointerEvent<HTMLElement>) => {
    event.stopPropagation();
    event.preventDefault();
    onSelect();
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    drag.current = { mode, startX: event.clientX, startY: event.clientY, origin: field };
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = (event.clientX - d.startX) / scale;
    const dy = (event.clientY - d.startY) / scale;
    onChange(
      d.mode === "move"
        ? placeOnPage({ ...d.origin, x: d.origin.x + dx, y: d.origin.y + dy }, size)
        : resizeOnPage(d.origin, d.origin.width + dx, d.origin.height + dy, size),
    );
  };
  const end = () => {
    drag.current = null;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      onRemove();
      return;
    }
    const step = event.shiftKey ? 10 : 1;
    const delta: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const d = delta[event.key];
    if (!d) return;
    event.preventDefault();
    onChange(
      event.altKey
        ? resizeOnPage(field, field.width + d[0], field.height + d[1], size)
        : placeOnPage({ ...field, x: field.x + d[0], y: field.y + d[1] }, size),
    );
  };

  const kind = kindOf(field.type);
  const caption = boxCaption(field);
  // A checkbox or radio button is too small to write in: its caption goes above it, with the role.
  const tiny = field.type === "checkbox" || field.type === "radio";
  const tagRole = showRole ? roleName || "no role" : "";
  const tagCaption = tiny ? caption : "";
  return (
    <>
      <button
        type="button"
        className={`placed-field${selected ? " selected" : ""}${invalid ? " invalid" : ""}`}
        style={{
          left: field.x * scale,
          top: field.y * scale,
          width: field.width * scale,
          height: field.height * scale,
          borderColor: colour,
          background: `${colour}1f`,
        }}
        aria-pressed={selected}
        aria-label={`${kind.label} ${caption ? `“${caption}”` : "without a label"} for ${roleName || "no role"} on page ${field.page}${field.required ? "" : ", optional"}. Arrows move it, Alt and arrows resize it, Delete removes it.`}
        data-testid="placed-field"
        data-type={field.type}
        onPointerDown={start("move")}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={end}
        onFocus={onSelect}
        onKeyDown={onKeyDown}
      >
        <span className="placed-field-label" style={{ color: colour, fontSize: fieldLabelPx(scale) }}>
          {tiny ? "" : <bdi>{caption || kind.label}</bdi>}
        </span>
        <span
          className="resize-handle"
          aria-hidden="true"
          data-testid="resize-handle"
          onPointerDown={start("resize")}
          onPointerMove={move}
          onPointerUp={end}
          onPointerCancel={end}
        />
      </button>
      {/* Beside the button, not in it: what the button shows stays the start of its name. The box's
          name says all the tab does, so a screen reader hears it once. */}
      {tagRole || tagCaption ? (
        <span
          className="placed-field-tag"
          aria-hidden="true"
          data-testid="placed-field-tag"
          style={{
            left: field.x * scale,
            top: field.y * scale,
            maxWidth: Math.max(field.width * scale + 4, 224),
            background: colour,
            fontSize: fieldLabelPx(scale),
          }}
        >
          {tagRole ? <bdi>{tagRole}</bdi> : null}
          {tagRole && tagCaption ? " · " : null}
          {tagCaption ? <bdi>{tagCaption}</bdi> : null}
        </span>
      ) : null}
    </>
  );
}
