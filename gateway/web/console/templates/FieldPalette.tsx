/**
 * The kinds of field, to drag onto a page or press to add on page 1, for the signer chosen above
 * them: the palette and the choice of whose fields it places are one card, at the top of the side.
 */
import type { Ref } from "react";
import { embeddedView } from "../embedded/view";
import { SelectField } from "../ui";
import { DRAG_TYPE } from "./FieldPages";
import { type EditedField, FIELD_KINDS, type FieldType, kindOf } from "./field-kinds";

/** The kinds to offer: every one, or those an embedded view lists. */
function offeredKinds() {
  const listed = embeddedView?.fieldTypes ?? [];
  return listed.length === 0 ? FIELD_KINDS : FIELD_KINDS.filter((kind) => listed.includes(kind.type));
}

export function FieldPalette({
  signers,
  active,
  onActive,
  onAdd,
  listRef,
}: {
  /** Who may fill fields: a template's roles, or a request's signers, by key. */
  signers: readonly { key: string; name: string }[];
  /** The key of the signer new fields go to. */
  active: string;
  onActive: (key: string) => void;
  onAdd: (type: FieldType) => void;
  listRef?: Ref<HTMLUListElement>;
}) {
  return (
    <div className="card" data-testid="field-palette">
      <h2>Fields</h2>
      <SelectField
        label="New fields are for"
        value={active}
        options={signers.map((s) => ({ value: s.key, label: s.name || "(unnamed)" }))}
        onChange={onActive}
      />
      <p className="muted small">Drag one onto the page, or press it to add it on page 1.</p>
      <ul className="palette" ref={listRef}>
        {offeredKinds().map((kind) => (
          <li key={kind.type}>
            <button
              type="button"
              className="palette-item"
              draggable
              data-testid={`palette-${kind.type}`}
              onDragStart={(e) => {
                e.dataTransfer.setData(DRAG_TYPE, kind.type);
                e.dataTransfer.effectAllowed = "copy";
              }}
              onClick={() => onAdd(kind.type)}
              disabled={!active}
            >
              {kind.label}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Where fields added by keyboard go: a column at the left margin of page 1. */
const KEYBOARD_X = 40;

/**
 * The keyboard's way to add: a new field of `type` on page 1, below the fields added this way, back
 * at the top when the column is full.
 */
export function addedByKeyboard(
  type: FieldType,
  beside: readonly EditedField[],
  pageHeight: number,
  roleKey: string,
  key: string,
): EditedField {
  const kind = kindOf(type);
  const below = beside
    .filter((f) => f.page === 1 && f.x === KEYBOARD_X)
    .reduce((lowest, f) => Math.max(lowest, f.y + f.height + 8), KEYBOARD_X);
  return {
    key,
    type: kind.type,
    roleKey,
    page: 1,
    x: KEYBOARD_X,
    y: below + kind.height > pageHeight - KEYBOARD_X ? KEYBOARD_X : below,
    width: kind.width,
    height: kind.height,
    required: true,
    label: "",
  };
}
