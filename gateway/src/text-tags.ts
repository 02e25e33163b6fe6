/**
 * Text tags: fields written into a document's text by whoever wrote the document, placed where the
 * tag is (as the documents service finds it in the text, FindText) instead of by coordinates, and
 * hidden in the completed PDF (each field's `cover` is the tag's box).
 *
 *     {{signature:Client}}   {{date_signed:Client}}   {{text:Client:Company}}   {{checkbox!:Client:Agree}}
 *
 * A tag is `{{type:role}}` or `{{type:role:label}}`, written in one run of text. Every field a tag
 * places is required but a checkbox and a signing date; `?` after the type makes one optional, `!`
 * a checkbox required. The field's top-left corner is the tag's, its size the type's default or the
 * tag's when larger, kept on the page.
 */
import type { FieldPlacement } from "@countersign/domain";
import type { FieldViolation } from "@countersign/kit";
import { DEFAULT_FIELD_SIZES } from "./field-sizes.js";

/**
 * A `{{…}}` written in a run of text, or a `{{` left open in its run, and the box of its characters
 * in PDF points from its page's top-left corner as a viewer shows the page.
 */
export interface WrittenTag {
  text: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The types a tag places: those a field needs no more than a role and a label for. */
export const TAG_TYPES = [
  "signature",
  "initials",
  "date_signed",
  "date",
  "text",
  "name",
  "email",
  "number",
  "checkbox",
  "attachment",
] as const;

const NOT_REQUIRED_UNLESS_ASKED = new Set(["checkbox", "date_signed"]);

const ROLE_LENGTH = 100;
const LABEL_LENGTH = 200;

export interface TaggedField extends FieldPlacement {
  type: string;
  role: string;
  label: string;
  required: boolean;
  documentId: string;
  cover: { x: number; y: number; width: number; height: number };
}

/** A document the tags were read from: its id and its pages' sizes, as the viewer shows them. */
export interface TaggedDocument {
  id: string;
  pages: { width: number; height: number }[];
  tags: WrittenTag[];
}

type Reading =
  | { field: Omit<TaggedField, "documentId" | "page" | "x" | "y" | "width" | "height" | "cover"> }
  | { problem: string };

/** What a tag asks for, or why it cannot be read. */
export function readTag(text: string): Reading {
  if (!text.endsWith("}}")) return { problem: "is not closed with }} in its line of text" };
  const parts = text
    .slice(2, -2)
    .split(":")
    .map((part) => part.trim());
  const [kind = "", role = "", label = "", ...rest] = parts;
  const mark = kind.endsWith("?") || kind.endsWith("!") ? kind.slice(-1) : "";
  const type = mark ? kind.slice(0, -1).trim().toLowerCase() : kind.toLowerCase();
  if (!(TAG_TYPES as readonly string[]).includes(type)) {
    return { problem: `names the type "${type}", which is not one a tag places (${TAG_TYPES.join(", ")})` };
  }
  if (parts.length < 2 || !role)
    return { problem: "names no role: write {{type:role}}, such as {{signature:Client}}" };
  if (rest.length > 0) return { problem: "has more than type, role and label: a label cannot hold a colon" };
  if (role.length > ROLE_LENGTH) return { problem: `has a role longer than ${ROLE_LENGTH} characters` };
  if (label.length > LABEL_LENGTH) return { problem: `has a label longer than ${LABEL_LENGTH} characters` };
  if (mark === "!" && type !== "checkbox")
    return { problem: "marks with ! a field that is already required" };
  const required = NOT_REQUIRED_UNLESS_ASKED.has(type) ? mark === "!" : mark !== "?";
  return { field: { type, role, label, required } };
}

/**
 * The box a tag's glyphs take: a run's box is found from its baseline up by the font size, but
 * braces reach below the baseline and above the capitals, so the box grows by a share of the size.
 */
function coverOfTag(tag: WrittenTag, page: { width: number; height: number }): TaggedField["cover"] {
  const size = tag.height;
  const x = Math.max(tag.x - 0.1 * size, 0);
  const y = Math.max(tag.y - 0.15 * size, 0);
  return {
    x,
    y,
    width: Math.min(tag.x + tag.width + 0.1 * size, page.width) - x,
    height: Math.min(tag.y + tag.height + 0.3 * size, page.height) - y,
  };
}

/** Keeps a box of `size` on its page, moved in from an edge it would reach past. */
function onPage(at: number, size: number, pageSize: number): number {
  return Math.min(Math.max(at, 0), Math.max(pageSize - size, 0));
}

/**
 * The fields the documents' tags place, or every problem with a tag, each naming its page and the
 * tag: one that cannot be read, or one whose role is not in `roles` (compared ignoring case; "any"
 * takes the role each tag names).
 */
export function fieldsFromTags(
  documents: TaggedDocument[],
  roles: string[] | "any",
): { fields: TaggedField[] } | { problems: FieldViolation[] } {
  const known = new Map(roles === "any" ? [] : roles.map((role) => [role.trim().toLowerCase(), role.trim()]));
  const problems: FieldViolation[] = [];
  const fields: TaggedField[] = [];
  documents.forEach((document, d) => {
    for (const tag of document.tags) {
      const where = `${documents.length > 1 ? `document ${d + 1}, ` : ""}page ${tag.page}: the tag "${tag.text}"`;
      const read = readTag(tag.text);
      if ("problem" in read) {
        problems.push({ path: "textTags", message: `${where} ${read.problem}` });
        continue;
      }
      const role = roles === "any" ? read.field.role : known.get(read.field.role.toLowerCase());
      if (!role) {
        problems.push({
          path: "textTags",
          message: `${where} names the role "${read.field.role}", which is not one of ${known.size ? [...known.values()].map((r) => `"${r}"`).join(", ") : "the roles (there are none)"}`,
        });
        continue;
      }
      const page = document.pages[tag.page - 1] ?? { width: tag.x + tag.width, height: tag.y + tag.height };
      const [width, height] = DEFAULT_FIELD_SIZES[read.field.type] ?? [100, 20];
      const fieldWidth = Math.min(Math.max(width, tag.width), page.width);
      const fieldHeight = Math.min(Math.max(height, tag.height), page.height);
      const cover = coverOfTag(tag, page);
      fields.push({
        ...read.field,
        role,
        documentId: document.id,
        page: tag.page,
        x: onPage(tag.x, fieldWidth, page.width),
        y: onPage(tag.y, fieldHeight, page.height),
        width: fieldWidth,
        height: fieldHeight,
        cover,
      });
    }
  });
  return problems.length > 0 ? { problems } : { fields };
}
