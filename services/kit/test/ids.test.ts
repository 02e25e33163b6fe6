import { isUuid, uuidv7 } from "../src/ids.js";

const millisecondsOf = (id: string) => Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16);
/** The index of the first id not greater than the one before it, or -1. */
const firstOutOfOrder = (ids: string[]) => ids.findIndex((id, i) => i > 0 && id <= (ids[i - 1] as string));

test("an id is a UUID of version 7 and the RFC 9562 variant, with the time in its first 48 bits", () => {
  const before = Date.now();
  const id = uuidv7();
  const after = Date.now();
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(millisecondsOf(id)).toBeGreaterThanOrEqual(before);
  expect(millisecondsOf(id)).toBeLessThanOrEqual(after);
});

test("ids made one after another in one process are strictly increasing and distinct", () => {
  const ids = Array.from({ length: 20_000 }, () => uuidv7());
  // 20 000 ids take a few milliseconds: many share one.
  expect(new Set(ids.map(millisecondsOf)).size).toBeLessThan(ids.length / 10);
  expect(firstOutOfOrder(ids)).toBe(-1);
});

test("ids stay increasing for more ids in one millisecond than the counter holds, and when the clock goes back", () => {
  const now = Date.now() + 60_000;
  const ids = Array.from({ length: 5000 }, () => uuidv7(now));
  ids.push(uuidv7(now - 5000));
  expect(firstOutOfOrder(ids)).toBe(-1);
  for (const id of ids)
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test("isUuid accepts any UUID and refuses other strings", () => {
  expect(isUuid(uuidv7())).toBe(true);
  expect(isUuid("0190A5B2-7C3D-7E4F-8A1B-2C3D4E5F6A7B")).toBe(true);
  for (const other of ["", "not-a-uuid", `${uuidv7()}x`, "0190a5b27c3d7e4f8a1b2c3d4e5f6a7b"])
    expect(isUuid(other)).toBe(false);
});
