import { deflateSync } from "node:zlib";
import { PNG } from "pngjs";
import { makePng } from "../../../test/support/pngs.js";
import { MalformedPng, withoutPngMetadata } from "../src/png-metadata.js";

const MARKER = "WHERE-THE-LOGO-WAS-MADE";

test("text, EXIF and a time are dropped, and whatever follows the end; the image draws the same", () => {
  const plain = makePng({ width: 4, height: 2, colour: 2 });
  const tagged = makePng({
    width: 4,
    height: 2,
    colour: 2,
    before: [
      ["tEXt", Buffer.from(`Author\0${MARKER}`)],
      ["zTXt", Buffer.concat([Buffer.from("Comment\0\0"), deflateSync(MARKER)])],
      ["iTXt", Buffer.from(`Source\0\0\0\0\0${MARKER}`)],
      ["eXIf", Buffer.from(`MM\0*${MARKER}`)],
      ["tIME", Buffer.from([7, 234, 12, 7, 12, 0, 0])],
      ["gAMA", Buffer.from([0, 0, 0xb1, 0x8f])],
    ],
  });
  const stripped = Buffer.from(withoutPngMetadata(Buffer.concat([tagged, Buffer.from(`after ${MARKER}`)])));
  expect(stripped.includes(MARKER)).toBe(false);
  expect(stripped.includes("tIME")).toBe(false);
  // Gamma is how its colours are meant: kept.
  expect(stripped.includes("gAMA")).toBe(true);
  expect(PNG.sync.read(stripped).data.equals(PNG.sync.read(plain).data)).toBe(true);
  // One without metadata is unchanged.
  expect(Buffer.from(withoutPngMetadata(plain)).equals(plain)).toBe(true);
});

test("a PNG whose chunks do not fit, or that is no PNG, is refused", () => {
  const png = makePng({ width: 4, height: 2 });
  for (const broken of [png.subarray(0, png.length - 6), Buffer.from("GIF89a"), Buffer.alloc(0)]) {
    expect(() => withoutPngMetadata(broken)).toThrow(MalformedPng);
  }
  const lying = Buffer.from(png);
  lying.writeUInt32BE(0x7fffffff, 8);
  expect(() => withoutPngMetadata(lying)).toThrow(MalformedPng);
});
