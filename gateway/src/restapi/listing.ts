/**
 * DocuSign's lists over the services' pages: `start_position` and `count` (at most 100) cut from
 * pages of 100, searches the services cannot do read whole (up to 1,000) and then filtered, and
 * the result-set counts DocuSign answers with, as strings.
 */
import { z } from "zod";
import { invalidParameter } from "./docusign-errors.js";

export const MAX_COUNT = 100;

export const Paging = z.object({
  count: z.coerce.number().int().min(1).max(MAX_COUNT).optional(),
  start_position: z.coerce.number().int().min(0).max(1_000_000).optional(),
});

/** `count` items from `start` of a list the service serves in pages of 100. */
export async function slice<T>(
  start: number,
  count: number,
  page: (pageIndex: number) => Promise<{ items: T[]; totalCount: number }>,
): Promise<{ items: T[]; totalCount: number }> {
  const first = Math.floor(start / MAX_COUNT);
  const got = await page(first);
  let items = got.items.slice(start % MAX_COUNT);
  if (items.length < count && (first + 1) * MAX_COUNT < got.totalCount)
    items = [...items, ...(await page(first + 1)).items];
  return { items: items.slice(0, count), totalCount: got.totalCount };
}

/** The most a search that the services cannot do reads before it filters. */
const MAX_READ = 1000;

/** Every item of a paged list, up to MAX_READ (a search past that says so). */
export async function readAll<T>(
  page: (pageIndex: number) => Promise<{ items: T[]; totalCount: number }>,
): Promise<T[]> {
  const all: T[] = [];
  for (let pageIndex = 0; ; pageIndex++) {
    const got = await page(pageIndex);
    all.push(...got.items);
    if (all.length >= got.totalCount || got.items.length === 0) return all;
    if (all.length >= MAX_READ) {
      throw invalidParameter(`this filter reads at most ${MAX_READ} items: narrow it (from_date, status)`);
    }
  }
}

export function pageWithin<T>(items: T[], start: number, count: number): { items: T[]; totalCount: number } {
  return { items: items.slice(start, start + count), totalCount: items.length };
}

/** A date or date-time, from 1970 to the end of 9999, as DocuSign's query parameters take it. */
export const dsDate = z
  .string()
  .transform((value) => new Date(value))
  .refine(
    (date) => !Number.isNaN(date.getTime()) && date.getTime() >= 0 && date.getUTCFullYear() <= 9999,
    "must be a date from 1970 to 9999, such as 2026-01-31 or 2026-01-31T17:00:00Z",
  );

export function resultSet(start: number, shown: number, total: number) {
  return {
    resultSetSize: String(shown),
    totalSetSize: String(total),
    startPosition: String(start),
    ...(shown > 0 ? { endPosition: String(start + shown - 1) } : {}),
  };
}
