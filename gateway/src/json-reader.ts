/**
 * Reads a JSON body property by property, collecting a violation with its path for every value of
 * the wrong JSON type or unknown name, so a client sees all of them in one 422.
 */
import type { FieldViolation } from "@countersign/kit";

export type Json = Record<string, unknown>;

export class Reader {
  readonly violations: FieldViolation[] = [];

  object(value: unknown, path: string, known: string[]): Json | undefined {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.violations.push({ path: path || "body", message: "must be a JSON object" });
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (!known.includes(key))
        this.violations.push({ path: join(path, key), message: "is not a known property" });
    }
    return value as Json;
  }

  string(json: Json, key: string, path: string): string | undefined {
    const value = json[key];
    if (value === undefined) return undefined;
    if (typeof value === "string") return value;
    this.violations.push({ path: join(path, key), message: "must be a string" });
    return undefined;
  }

  number(json: Json, key: string, path: string, whole = false): number | undefined {
    const value = json[key];
    if (value === undefined) return undefined;
    if (typeof value === "number" && (!whole || Number.isSafeInteger(value))) return value;
    this.violations.push({
      path: join(path, key),
      message: whole ? "must be a whole number" : "must be a number",
    });
    return undefined;
  }

  boolean(json: Json, key: string, path: string): boolean | undefined {
    const value = json[key];
    if (value === undefined) return undefined;
    if (typeof value === "boolean") return value;
    this.violations.push({ path: join(path, key), message: "must be true or false" });
    return undefined;
  }

  array(json: Json, key: string): unknown[] | undefined {
    const value = json[key];
    if (value === undefined) return undefined;
    if (Array.isArray(value)) return value;
    this.violations.push({ path: key, message: "must be an array" });
    return undefined;
  }
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** int32 fields: a number out of its range would wrap, so it is refused with the other types. */
export function int32(reader: Reader, json: Json, key: string, path: string): number | undefined {
  const value = reader.number(json, key, path, true);
  if (value === undefined || Math.abs(value) <= 2 ** 31 - 1) return value;
  reader.violations.push({ path: join(path, key), message: "is out of range" });
  return undefined;
}

/** An array of strings, each checked. */
export function strings(reader: Reader, json: Json, key: string): string[] | undefined {
  return reader.array(json, key)?.map((value, i) => {
    if (typeof value === "string") return value;
    reader.violations.push({ path: `${key}[${i}]`, message: "must be a string" });
    return "";
  });
}

/** An RFC 3339 date-time with a time zone. */
export function dateTime(reader: Reader, json: Json, key: string, path: string): Date | undefined {
  const value = reader.string(json, key, path);
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (
    /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(value) &&
    !Number.isNaN(date.getTime())
  )
    return date;
  reader.violations.push({
    path: join(path, key),
    message: "must be a date-time with a time zone, such as 2030-01-31T17:00:00Z",
  });
  return undefined;
}
