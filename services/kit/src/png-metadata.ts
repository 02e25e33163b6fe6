/**
 * A PNG reduced to what draws it, before it is shown to people who are not its author: a PNG may
 * carry text (tEXt, zTXt, iTXt: the software, the author, comments), EXIF (eXIf, with where a photo
 * was taken), a time, and data after its end. The walk keeps the chunks decoding and colour need,
 * checking every length against the file.
 */

/** A PNG whose chunks do not fit together; callers say the image could not be read. */
export class MalformedPng extends Error {}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The image and how its colours are meant: critical chunks, transparency, gamma, colour space, pixel size. */
const DRAWING_CHUNKS = new Set([
  "IHDR",
  "PLTE",
  "IDAT",
  "IEND",
  "tRNS",
  "gAMA",
  "cHRM",
  "sRGB",
  "iCCP",
  "sBIT",
  "pHYs",
]);

export function withoutPngMetadata(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) throw new MalformedPng("not a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept: Uint8Array[] = [bytes.subarray(0, 8)];
  let at = 8;
  for (;;) {
    // Length, type, data, CRC: 12 bytes besides the data.
    if (at + 12 > bytes.length) throw new MalformedPng("the PNG ends inside a chunk");
    const length = view.getUint32(at);
    const end = at + 12 + length;
    if (end > bytes.length) throw new MalformedPng("a PNG chunk runs past the end of the file");
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (DRAWING_CHUNKS.has(type)) kept.push(bytes.subarray(at, end));
    at = end;
    // Whatever follows the end is not part of the image.
    if (type === "IEND") break;
  }
  return Buffer.concat(kept);
}
