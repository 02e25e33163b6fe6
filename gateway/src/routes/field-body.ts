/** The properties of a field on a page, read the same way for templates and for requests. */
import { int32, type Json, type Reader } from "../json-reader.js";

export const FIELD_KEYS = ["id", "type", "role", "page", "x", "y", "width", "height", "required", "label"];

export function readFieldProperties(reader: Reader, json: Json, path: string) {
  return {
    id: reader.string(json, "id", path) ?? "",
    type: reader.string(json, "type", path) ?? "",
    role: reader.string(json, "role", path) ?? "",
    page: int32(reader, json, "page", path) ?? 0,
    // NaN is "absent": the services report a missing coordinate by its path.
    x: reader.number(json, "x", path) ?? Number.NaN,
    y: reader.number(json, "y", path) ?? Number.NaN,
    width: reader.number(json, "width", path) ?? Number.NaN,
    height: reader.number(json, "height", path) ?? Number.NaN,
    // A field is required unless said otherwise, as in the signing tools people know.
    required: reader.boolean(json, "required", path) ?? true,
    label: reader.string(json, "label", path) ?? "",
  };
}
