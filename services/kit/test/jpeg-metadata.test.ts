/**
 * A JPEG's metadata taken out before it becomes a page: every kind a photo carries is gone, the
 * segments decoding needs stay, the page looks the same, and a segment whose length does not fit the
 * file is refused rather than read past.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import fc from "fast-check";
import { PDFDocument } from "pdf-lib";
import { jpegSegmentSoup } from "../../../test/support/fuzz.js";
import { withMetadata } from "../../../test/support/jpegs.js";
import { makeJpeg } from "../../../test/support/office-documents.js";
import { imagePage } from "../src/image-page.js";
import { MalformedJpeg, withoutJpegMetadata } from "../src/jpeg-metadata.js";

const MARKER = "WHERE-THE-PHOTO-WAS-TAKEN";
let plain: Buffer;

beforeAll(async () => {
  plain = Buffer.from(await makeJpeg());
});

/** The markers of a JPEG's segments up to its first scan, as two hex digits each. */
function markers(jpeg: Uint8Array): string[] {
  const bytes = Buffer.from(jpeg);
  const found: string[] = [];
  for (let at = 2; at + 4 <= bytes.length; ) {
    const marker = bytes[at + 1] as number;
    found.push(marker.toString(16));
    if (marker === 0xda) break;
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return found;
}

/** The page as pdftoppm draws it, in PPM. */
async function rendered(pdf: Uint8Array): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), "jpeg-page-"));
  try {
    await writeFile(join(dir, "page.pdf"), pdf);
    await promisify(execFile)("pdftoppm", [
      "-r",
      "20",
      "-singlefile",
      join(dir, "page.pdf"),
      join(dir, "page"),
    ]);
    return await readFile(join(dir, "page.ppm"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test("EXIF, XMP, ICC, IPTC, comments and what follows the image's end are taken out; JFIF and Adobe's colour transform stay", () => {
  const adobe = Buffer.from([0xff, 0xee, 0x00, 0x0e, ...Buffer.from("Adobe"), 0, 100, 0, 0, 0, 0, 1]);
  const photo = withMetadata(plain, MARKER);
  const withAdobe = Buffer.concat([photo.subarray(0, 2), adobe, photo.subarray(2)]);
  const stripped = Buffer.from(withoutJpegMetadata(withAdobe));
  expect(stripped.includes(MARKER)).toBe(false);
  expect(markers(stripped)).toEqual(["ee", ...markers(plain)]);
  expect(stripped.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
  // The scan is copied as it is: only segments around it went.
  expect(Buffer.from(withoutJpegMetadata(plain))).toEqual(plain);
});

test("a segment after a scan, as progressive JPEGs have between theirs, is walked to and dropped", () => {
  const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, MARKER.length + 2]), Buffer.from(MARKER)]);
  const end = plain.length - 2;
  const between = Buffer.concat([plain.subarray(0, end), comment, plain.subarray(end)]);
  expect(Buffer.from(withoutJpegMetadata(between))).toEqual(plain);
});

test("the page made from a photo looks as it did when its metadata was embedded with it", async () => {
  const photo = withMetadata(plain, MARKER);
  const asBefore = await PDFDocument.create();
  // A copy of its own: pdf-lib reads the whole ArrayBuffer under a Uint8Array, and Buffer pools small ones.
  const image = await asBefore.embedJpg(new Uint8Array(photo));
  asBefore.addPage([image.width, image.height]).drawImage(image, { x: 0, y: 0 });
  const page = await imagePage(photo, "image/jpeg");
  expect(Buffer.from(page).includes(MARKER)).toBe(false);
  expect(await rendered(page)).toEqual(await rendered(await asBefore.save()));
}, 30_000);

test("a segment whose length does not fit the file is refused, never read past", () => {
  const comment = (length: number) =>
    Buffer.concat([
      plain.subarray(0, 2),
      Buffer.from([0xff, 0xfe, length >> 8, length & 0xff]),
      Buffer.from("hi"),
    ]);
  const refusals = [
    Buffer.from("not a jpeg"),
    comment(0),
    comment(1),
    comment(0xffff),
    Buffer.concat([plain.subarray(0, 2), Buffer.from([0xff, 0xfe, 0x00])]),
    Buffer.concat([plain.subarray(0, 2), Buffer.from("garbage")]),
    Buffer.concat([plain.subarray(0, 2), Buffer.from([0xff, 0xd8])]),
  ].map((bytes) => {
    try {
      withoutJpegMetadata(bytes);
      return "read";
    } catch (err) {
      return err instanceof MalformedJpeg ? "refused" : String(err);
    }
  });
  expect(refusals).toEqual(Array(7).fill("refused"));
});

test("whatever segments a JPEG is made of, the walk keeps only what decoding needs or refuses it, and reads nothing past the end", () => {
  const decoding = (marker: number) =>
    (marker >= 0xc0 && marker <= 0xcf) || (marker >= 0xda && marker <= 0xdf);
  fc.assert(
    fc.property(jpegSegmentSoup, (soup) => {
      let stripped: Uint8Array;
      try {
        stripped = withoutJpegMetadata(soup);
      } catch (err) {
        expect(err).toBeInstanceOf(MalformedJpeg);
        return;
      }
      expect(stripped.length).toBeLessThanOrEqual(soup.length);
      const kept = markers(stripped).map((hex) => Number.parseInt(hex, 16));
      expect(kept.filter((marker) => !decoding(marker) && marker !== 0xd9)).toEqual([]);
    }),
    { numRuns: 2000 },
  );
});
