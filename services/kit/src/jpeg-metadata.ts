/**
 * A JPEG reduced to what draws it, before it is embedded in a PDF that every signer downloads: a
 * phone's photo carries where it was taken (EXIF GPS), the camera, the time, XMP, IPTC, comments and
 * whole further images after its end. The walk keeps only the segments decoding needs, checking
 * every length against the file.
 */

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP14 = 0xee;

/** A JPEG whose segments do not fit together; callers say the image could not be read. */
export class MalformedJpeg extends Error {}

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/**
 * Frames, Huffman and quantisation tables, arithmetic conditioning, scans, restart interval, line
 * count and hierarchical progression (C0–CF, DA–DF); JFIF's APP0, which names the colour space; Adobe's APP14,
 * which says whether the colours are transformed. Every other APPn (EXIF, XMP, ICC, IPTC, MPF…),
 * COM and the JPGn extensions are dropped: a PDF takes its colour space from the image's
 * dictionary, and EXIF orientation was never honoured (pdf-lib does not read it), so no page changes.
 */
function decodingNeeds(marker: number, body: Uint8Array): boolean {
  if (marker >= 0xc0 && marker <= 0xcf) return true;
  if (marker >= SOS && marker <= 0xdf) return true;
  if (marker === APP0) return latin1(body.subarray(0, 5)) === "JFIF\0";
  if (marker === APP14) return latin1(body.subarray(0, 5)) === "Adobe";
  return false;
}

/**
 * Where the entropy-coded data that starts at `from` ends: at the first marker that is not a
 * stuffed byte (FF 00), a restart (FF D0–D7) or fill (FF FF); the file's end if it has none.
 */
function endOfScan(bytes: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    at = bytes.indexOf(0xff, at);
    if (at === -1 || at + 1 >= bytes.length) return bytes.length;
    const next = bytes[at + 1] as number;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at += 2;
    else if (next === 0xff) at += 1;
    else return at;
  }
}

/** The JPEG `bytes` without its metadata, or MalformedJpeg. Nothing after the end of the image is kept. */
export function withoutJpegMetadata(bytes: Uint8Array): Uint8Array {
  if (bytes[0] !== 0xff || bytes[1] !== SOI) throw new MalformedJpeg("it does not start as a JPEG does");
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) throw new MalformedJpeg(`byte ${at} is not the start of a segment`);
    // Any number of FF may pad a marker.
    while (bytes[at + 1] === 0xff) at += 1;
    if (at + 1 >= bytes.length) break;
    const marker = bytes[at + 1] as number;
    if (marker === EOI) {
      kept.push(bytes.subarray(at, at + 2));
      break;
    }
    // TEM and RSTn stand alone, and outside a scan mean nothing.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === SOI || marker === 0x00) throw new MalformedJpeg(`byte ${at} is a misplaced marker`);
    if (at + 4 > bytes.length) throw new MalformedJpeg(`the segment at byte ${at} is cut off`);
    const length = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
    const end = at + 2 + length;
    if (length < 2 || end > bytes.length)
      throw new MalformedJpeg(`the segment at byte ${at} says it is longer than the file`);
    if (decodingNeeds(marker, bytes.subarray(at + 4, end))) kept.push(bytes.subarray(at, end));
    at = end;
    if (marker === SOS) {
      const scanEnd = endOfScan(bytes, at);
      kept.push(bytes.subarray(at, scanEnd));
      at = scanEnd;
    }
  }
  // An array of its own, not a view into Buffer's pool: pdf-lib reads a JPEG's whole ArrayBuffer.
  const out = new Uint8Array(kept.reduce((sum, part) => sum + part.length, 0));
  let written = 0;
  for (const part of kept) {
    out.set(part, written);
    written += part.length;
  }
  return out;
}
