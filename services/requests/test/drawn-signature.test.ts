import { deflateSync } from "node:zlib";
import { corruptPng, makePng, pngBomb, zeroRows } from "../../../test/support/pngs.js";
import {
  DRAWN_SIGNATURE_LIMITS,
  drawnSignatureProblems,
  readDrawnSignature,
} from "../src/signing/drawn-signature.js";

const problemOf = async (png: Uint8Array) => {
  const read = await readDrawnSignature(png);
  return "problem" in read ? read.problem : undefined;
};

test("what browsers draw is taken: RGBA, grey, a palette with its PLTE, and an interlaced image", async () => {
  expect(await readDrawnSignature(makePng({ width: 600, height: 200 }))).toEqual({ pixels: 120_000 });
  expect(await problemOf(makePng({ width: 33, height: 7, colour: 0, depth: 1 }))).toBeUndefined();
  expect(
    await problemOf(
      makePng({ width: 10, height: 3, colour: 3, depth: 4, before: [["PLTE", Buffer.alloc(6)]] }),
    ),
  ).toBeUndefined();
  // Adam7 keeps seven passes of rows: 13 × 9 decodes to 7 passes of their own [width, height].
  const interlacedRows = [
    [2, 2],
    [2, 2],
    [4, 1],
    [3, 3],
    [7, 2],
    [6, 5],
    [13, 4],
  ].reduce((sum, [w = 0, h = 0]) => sum + h * (1 + w * 4), 0);
  expect(
    await problemOf(
      makePng({ width: 13, height: 9, interlace: 1, idat: deflateSync(Buffer.alloc(interlacedRows)) }),
    ),
  ).toBeUndefined();
});

test("a decompression bomb is refused by its header, before anything is inflated", async () => {
  const bomb = pngBomb();
  expect(bomb.length).toBeLessThan(130_000);
  expect(await problemOf(bomb)).toBe("must be a PNG of at most 8 bits per channel");
  expect(await problemOf(makePng({ width: 4000, height: 4000 }))).toBe(
    "must be a PNG of at most 4000000 pixels",
  );
  expect(await problemOf(makePng({ width: 4001, height: 1 }))).toBe(
    "must be a PNG from 1 to 4000 pixels a side",
  );
});

test("image data that is not zlib, ends early, has more rows or a bad filter byte is damaged", async () => {
  const damaged = "must be a PNG image that can be read: its image data is damaged";
  expect(await problemOf(corruptPng())).toBe(damaged);
  const rows = zeroRows(40, 20, 32);
  expect(await problemOf(makePng({ width: 40, height: 20, idat: deflateSync(rows.subarray(1)) }))).toBe(
    damaged,
  );
  expect(
    await problemOf(makePng({ width: 40, height: 20, idat: deflateSync(Buffer.concat([rows, rows])) })),
  ).toBe(damaged);
  const badFilter = Buffer.from(rows);
  badFilter[161 * 3] = 9;
  expect(await problemOf(makePng({ width: 40, height: 20, idat: deflateSync(badFilter) }))).toBe(damaged);
});

test("a broken file is refused for what is broken: CRC, missing palette, missing data, truncation", async () => {
  expect(await problemOf(makePng({ width: 4, height: 4, badCrc: true }))).toBe(
    "must be a PNG image: its IDAT chunk is damaged",
  );
  expect(await problemOf(makePng({ width: 4, height: 4, colour: 3 }))).toBe(
    "must be a PNG image: its palette is missing",
  );
  const whole = makePng({ width: 4, height: 4 });
  expect(await problemOf(whole.subarray(0, whole.length - 20))).toMatch(/^must be a PNG image: /);
  expect(await problemOf(Buffer.from("GIF89a"))).toBe("must be a PNG image");
  expect(await problemOf(Buffer.alloc(DRAWN_SIGNATURE_LIMITS.bytes + 1))).toBe(
    `must be a PNG of at most ${DRAWN_SIGNATURE_LIMITS.bytes} bytes`,
  );
});

test("one submission's different drawings together are bounded; the same drawing twice counts once", async () => {
  // Zero samples under filter types 0 to 4 are five different valid 4-megapixel drawings.
  const drawings = [0, 1, 2, 3, 4].map((n) =>
    makePng({ width: 2000, height: 2000, idat: deflateSync(rowsFiltered(n)) }),
  );
  const [first = Buffer.alloc(0)] = drawings;
  expect(await drawnSignatureProblems(drawings.slice(0, 4).map((png, i) => [`f${i}`, png]))).toEqual(
    new Map(),
  );
  expect(await drawnSignatureProblems([0, 1, 2, 3, 4].map((i) => [`same${i}`, first]))).toEqual(new Map());
  const problems = await drawnSignatureProblems(drawings.map((png, i) => [`f${i}`, png]));
  expect([...problems]).toEqual([
    ["f4", "together with the other drawings, must be at most 16000000 pixels"],
  ]);
});

function rowsFiltered(filter: number): Buffer {
  const rows = zeroRows(2000, 2000, 32);
  for (let at = 0; at < rows.length; at += 8001) rows[at] = filter;
  return rows;
}
