/**
 * A drawn signature is a PNG the signer's browser made, and it is drawn onto the sealed PDF long
 * after the signer has gone: every one must be decodable, and small once decoded, when it is
 * submitted. The header alone proves neither — 124 KB of compressed zeros can declare 4000 × 4000
 * pixels of 16-bit RGBA (128 MB decoded), and IDAT bytes that are not zlib at all fail only when the
 * PDF is made. So the whole file is read here: every chunk and its CRC, the header's combination of
 * depth and colour, and the image data inflated (by zlib, off the event loop) to exactly the size
 * the header promises, with each row's filter byte checked.
 */
import { promisify } from "node:util";
import { crc32, inflate } from "node:zlib";

export const DRAWN_SIGNATURE_LIMITS = {
  /** The file as sent. */
  bytes: 512 * 1024,
  /** A side of the image: a phone at 3 device pixels per CSS pixel draws under 1,300. */
  side: 4000,
  /** Width × height: bounds the decoded image at 16 MiB of RGBA, whatever its depth and colour. */
  pixels: 4_000_000,
  /** Every different drawing of one submission together: what the completion decodes for it. */
  pixelsPerSubmission: 16_000_000,
} as const;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Samples per pixel by colour type, and the bit depths PNG allows for it (at most 8 bits here). */
const COLOUR_TYPES: Record<number, { samples: number; depths: number[] }> = {
  0: { samples: 1, depths: [1, 2, 4, 8] },
  2: { samples: 3, depths: [8] },
  3: { samples: 1, depths: [1, 2, 4, 8] },
  4: { samples: 2, depths: [8] },
  6: { samples: 4, depths: [8] },
};

/** Adam7's passes: where each starts in an 8 × 8 block, and its step, [x0, y0, dx, dy]. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

const inflated = promisify(inflate);

interface Header {
  width: number;
  height: number;
  bitsPerPixel: number;
  interlaced: boolean;
  paletted: boolean;
}

/** Each row of the decoded image data as [width in pixels], pass by pass when interlaced. */
function rows({ width, height, interlaced }: Header): number[] {
  if (!interlaced) return Array.from({ length: height }, () => width);
  return ADAM7.flatMap(([x0, y0, dx, dy]) => {
    const passWidth = Math.ceil((width - x0) / dx);
    const passHeight = Math.ceil((height - y0) / dy);
    return passWidth > 0 && passHeight > 0 ? Array.from({ length: passHeight }, () => passWidth) : [];
  });
}

const DAMAGED = "must be a PNG image that can be read: its image data is damaged";

export type DrawnSignature = { pixels: number } | { problem: string };

/** The image's size in pixels, or why these bytes are not a PNG image a sealed page can carry. */
export async function readDrawnSignature(png: Uint8Array): Promise<DrawnSignature> {
  const problem = (why: string) => ({ problem: why });
  const { bytes: maxBytes, side, pixels } = DRAWN_SIGNATURE_LIMITS;
  if (png.length > maxBytes) return problem(`must be a PNG of at most ${maxBytes} bytes`);
  const file = Buffer.from(png.buffer, png.byteOffset, png.length);
  if (file.length < 8 || !file.subarray(0, 8).equals(SIGNATURE)) return problem("must be a PNG image");
  let header: Header | undefined;
  let sawPalette = false;
  let ended = false;
  const data: Buffer[] = [];
  let dataEnded = false;
  for (let at = 8; !ended; ) {
    if (at + 12 > file.length) return problem("must be a PNG image: the file ends before its last chunk");
    const length = file.readUInt32BE(at);
    const type = file.toString("latin1", at + 4, at + 8);
    if (length > file.length - at - 12)
      return problem("must be a PNG image: a chunk runs past the end of the file");
    const body = file.subarray(at + 8, at + 8 + length);
    if (crc32(file.subarray(at + 4, at + 8 + length)) !== file.readUInt32BE(at + 8 + length))
      return problem(`must be a PNG image: its ${type} chunk is damaged`);
    at += length + 12;
    if (header === undefined && type !== "IHDR")
      return problem("must be a PNG image: it does not start with IHDR");
    if (data.length > 0 && type !== "IDAT") dataEnded = true;
    switch (type) {
      case "IHDR": {
        if (header !== undefined || length !== 13)
          return problem("must be a PNG image: its header is damaged");
        const width = body.readUInt32BE(0);
        const height = body.readUInt32BE(4);
        const [depth = 0, colour = 0, compression, filter, interlace = 0] = body.subarray(8);
        const kind = COLOUR_TYPES[colour];
        if (!kind || compression !== 0 || filter !== 0 || interlace > 1)
          return problem("must be a PNG image: its header is damaged");
        if (!kind.depths.includes(depth)) return problem("must be a PNG of at most 8 bits per channel");
        if (width < 1 || height < 1 || width > side || height > side)
          return problem(`must be a PNG from 1 to ${side} pixels a side`);
        if (width * height > pixels) return problem(`must be a PNG of at most ${pixels} pixels`);
        header = {
          width,
          height,
          bitsPerPixel: kind.samples * depth,
          interlaced: interlace === 1,
          paletted: colour === 3,
        };
        break;
      }
      case "PLTE":
        sawPalette = true;
        break;
      case "IDAT":
        if (dataEnded) return problem("must be a PNG image: its image data is not in one run of chunks");
        data.push(body);
        break;
      case "IEND":
        ended = true;
        break;
    }
  }
  if (!header || data.length === 0) return problem("must be a PNG image: it has no image data");
  if (header.paletted && !sawPalette) return problem("must be a PNG image: its palette is missing");
  const { bitsPerPixel } = header;
  const rowBytes = (w: number) => 1 + Math.ceil((w * bitsPerPixel) / 8);
  const rowWidths = rows(header);
  const expected = rowWidths.reduce((sum, w) => sum + rowBytes(w), 0);
  // Inflated in zlib's thread pool, and never past one byte more than the header promises.
  const raw = await inflated(Buffer.concat(data), { maxOutputLength: expected + 1 }).catch(() => undefined);
  if (raw?.length !== expected) return problem(DAMAGED);
  let row = 0;
  for (const w of rowWidths) {
    // Filter types are 0 to 4.
    if ((raw[row] ?? 5) > 4) return problem(DAMAGED);
    row += rowBytes(w);
  }
  return { pixels: header.width * header.height };
}

/**
 * Every drawn value of a submission read, one at a time (one decoded image in memory at once), each
 * different drawing once: why each refused one is refused, by its field id.
 */
export async function drawnSignatureProblems(drawings: [fieldId: string, png: Uint8Array][]) {
  const problems = new Map<string, string>();
  const read = new Map<string, DrawnSignature>();
  let pixels = 0;
  for (const [fieldId, png] of drawings) {
    const key = Buffer.from(png).toString("base64");
    let drawing = read.get(key);
    if (!drawing) {
      drawing = await readDrawnSignature(png);
      read.set(key, drawing);
      if ("pixels" in drawing) pixels += drawing.pixels;
    }
    if ("problem" in drawing) problems.set(fieldId, drawing.problem);
    else if (pixels > DRAWN_SIGNATURE_LIMITS.pixelsPerSubmission)
      problems.set(
        fieldId,
        `together with the other drawings, must be at most ${DRAWN_SIGNATURE_LIMITS.pixelsPerSubmission} pixels`,
      );
  }
  return problems;
}
