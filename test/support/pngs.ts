/**
 * PNGs made for the tests, chunk by chunk: the drawings a signing page sends, and the hostile ones
 * a client could send instead — decompression bombs, image data that is not zlib, broken CRCs.
 */
import { crc32, deflateSync } from "node:zlib";

export interface PngParts {
  width: number;
  height: number;
  /** Bits per sample; 8 unless given. */
  depth?: number;
  /** PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA (the default). */
  colour?: number;
  interlace?: 0 | 1;
  /** The IDAT chunk's bytes; by default every row filtered with type 0 and all samples zero, deflated. */
  idat?: Buffer;
  /** Chunks between IHDR and IDAT, such as a palette. */
  before?: [type: string, body: Buffer][];
  /** Breaks the CRC of the IDAT chunk. */
  badCrc?: boolean;
}

function chunk(type: string, body: Buffer, badCrc = false): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), body]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((crc32(typed) ^ (badCrc ? 1 : 0)) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

const SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** The decoded image data of an image of zeros: a filter byte (0) and the row's bytes, row by row. */
export function zeroRows(width: number, height: number, bitsPerPixel: number): Buffer {
  return Buffer.alloc(height * (1 + Math.ceil((width * bitsPerPixel) / 8)));
}

export function makePng({
  width,
  height,
  depth = 8,
  colour = 6,
  interlace = 0,
  idat,
  before = [],
  badCrc,
}: PngParts): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([depth, colour, 0, 0, interlace], 8);
  const data = idat ?? deflateSync(zeroRows(width, height, (SAMPLES[colour] ?? 4) * depth), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    ...before.map(([type, body]) => chunk(type, body)),
    chunk("IDAT", data, badCrc),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The decompression bomb of the finding: 4000 × 4000 16-bit RGBA of compressed zeros (about 124 KB). */
export function pngBomb(): Buffer {
  return makePng({
    width: 4000,
    height: 4000,
    depth: 16,
    idat: deflateSync(zeroRows(4000, 4000, 64), { level: 9 }),
  });
}

/** A PNG whose header is sound and whose image data is not zlib at all. */
export function corruptPng(): Buffer {
  return makePng({ width: 40, height: 20, idat: Buffer.from("these bytes are not a zlib stream at all") });
}
