/**
 * The building blocks of every public body: text that PostgreSQL and every JSON parser can hold,
 * ids normalised once at the edge, instants with a time zone. Bodies are declared from these, so a
 * rule about strings or ids holds for every property at once.
 */
import { z } from "zod";

/** A UTF-16 surrogate without its partner: valid in a JavaScript string, not in UTF-8. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Any string a client may send: everything but NUL (U+0000) and unpaired surrogates. */
export function text() {
  return z
    .string()
    .refine((value) => !value.includes("\u0000"), "must not contain the NUL character (U+0000)")
    .refine(
      (value) => !UNPAIRED_SURROGATE.test(value),
      "must be valid Unicode (it holds an unpaired surrogate)",
    );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id as a client sends it, in a path or a body. A UUID is lower-cased here and nowhere else,
 * so services compare ids as plain strings; anything else passes on and is simply not found.
 */
export function id(description?: string) {
  return text()
    .transform((value) => (UUID.test(value) ? value.toLowerCase() : value))
    .meta({ format: "uuid", ...(description ? { description } : {}) });
}

/** An int32 field: a number out of its range would wrap, so it is refused with the other types. */
export function wholeNumber() {
  return z.int32({
    error: (issue) =>
      issue.code === "invalid_type" && issue.input !== undefined ? "must be a whole number" : undefined,
  });
}

/** Instants a database keeps: from the Unix epoch to the end of year 9999, in UTC. */
const LATEST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An RFC 3339 date-time with a time zone, read as a Date. */
export function instant(description?: string) {
  return z
    .string()
    .refine(
      (value) =>
        /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(value) &&
        !Number.isNaN(new Date(value).getTime()),
      "must be a date-time with a time zone, such as 2030-01-31T17:00:00Z",
    )
    .refine((value) => {
      const time = new Date(value).getTime();
      return Number.isNaN(time) || (time >= 0 && time <= LATEST_INSTANT);
    }, "must be from 1970 to the end of 9999 (UTC)")
    .transform((value) => new Date(value))
    .meta({ format: "date-time", ...(description ? { description } : {}) });
}

/** A timestamp the API writes. */
export const timestamp = z.iso.datetime();

/** A timestamp the API writes when the thing it dates has happened, else null. */
export const optionalTimestamp = z.iso.datetime().nullable();

/**
 * How a whole-number query parameter is documented: as the integer it stands for. Its digits-only
 * pattern describes the string on the wire and is dropped, or it would sit on an integer.
 */
export function integerInDocuments(min: number, max: number, fallback: number) {
  return ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    delete jsonSchema.pattern;
    Object.assign(jsonSchema, { type: "integer", minimum: min, maximum: max, default: fallback });
  };
}

/** A query parameter that is a whole number in [min, max], given at most once. */
export function wholeNumberQuery(min: number, max: number, fallback: number, description: string) {
  return z
    .string()
    .regex(/^\d{1,9}$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be from ${min} to ${max}`).max(max, `must be from ${min} to ${max}`))
    .optional()
    .transform((value) => value ?? fallback)
    .meta({ description, override: integerInDocuments(min, max, fallback) });
}

/** `pageIndex` and `pageSize` of every list (docs/design.md §2). */
export const pageQuery = z.object({
  pageIndex: wholeNumberQuery(0, 1_000_000, 0, "Zero-based page number."),
  pageSize: wholeNumberQuery(1, 100, 20, "Items per page."),
});

/** One page of a list, newest first. */
export function page<T extends z.ZodType>(item: T, id: string) {
  return z
    .strictObject({
      items: z.array(item),
      pageIndex: z.int().min(0),
      pageSize: z.int().min(1).max(100),
      totalCount: z.int().min(0),
    })
    .meta({ id });
}

/** The body of one page of a list. */
export function pageBody<T>(items: T[], page: { pageIndex: number; pageSize: number }, totalCount: number) {
  return { items, pageIndex: page.pageIndex, pageSize: page.pageSize, totalCount };
}
