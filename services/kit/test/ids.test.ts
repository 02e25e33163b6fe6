import { isUuid, uuidv7 } from "../src/ids.js";

test("ids are version 7, RFC 4122 variant, with the time in the first 48 bits", () => {
  const before = Date.now();
  const id = uuidv7();
  expect(isUuid(id)).toBe(true);
  expect(id[14]).toBe("7");
  expect("89ab").toContain(id[19]);
  const ms = Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16);
  expect(ms).toBeGreaterThanOrEqual(before);
  expect(ms).toBeLessThanOrEqual(Date.now());
});

test("ids made in one process sort in the order they were made, even within a millisecond", () => {
  const ids = Array.from({ length: 10_000 }, () => uuidv7());
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
});
