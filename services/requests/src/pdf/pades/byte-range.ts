/**
 * Filling a signature laid by signature-room.ts, once the file's bytes are final: its /ByteRange
 * is written over the placeholder (the whole file but the /Contents hex string), and the CMS, once
 * made over those bytes, into /Contents. Works on the newest room in the file: a document
 * time-stamp is laid in a revision after the seal's.
 */
import { BYTE_RANGE_PLACEHOLDER } from "./signature-room.js";

export interface OpenRoom {
  /** The file, its byte range written. */
  bytes: Uint8Array;
  /** What the signature covers: the file before and after /Contents' hex string. */
  signed: [Uint8Array, Uint8Array];
  /** Where /Contents' hex digits start, and how many bytes of DER they hold. */
  contentsAt: number;
  capacity: number;
}

const latin1 = (text: string) => Buffer.from(text, "latin1");

/** Writes the byte range of the newest empty signature in `pdf` (copied, not changed). */
export function openRoom(pdf: Uint8Array): OpenRoom {
  const bytes = Buffer.from(pdf);
  const placeholder = bytes.lastIndexOf(latin1(BYTE_RANGE_PLACEHOLDER));
  if (placeholder < 0) throw new Error("the document has no empty signature");
  // The array around it, "[ 0 /… /… /… ]" as pdf-lib writes it, is what is overwritten.
  const open = bytes.lastIndexOf(0x5b /* [ */, placeholder);
  const close = bytes.indexOf(0x5d /* ] */, placeholder);
  // The room's dictionary is written by us: /Contents follows /ByteRange.
  const contents = bytes.indexOf(latin1("/Contents <"), placeholder);
  if (contents < 0) throw new Error("the empty signature has no /Contents");
  const start = contents + "/Contents ".length;
  const end = bytes.indexOf(0x3e /* > */, start) + 1;
  if (end <= start) throw new Error("the empty signature's /Contents is not closed");
  const width = close - open + 1;
  const range = `[0 ${start} ${end} ${bytes.length - end}`;
  if (range.length + 1 > width) throw new Error("the document is too large to seal");
  bytes.write(`${range.padEnd(width - 1, " ")}]`, open, "latin1");
  return {
    bytes,
    signed: [bytes.subarray(0, start), bytes.subarray(end)],
    contentsAt: start + 1,
    capacity: (end - start - 2) / 2,
  };
}

/** Writes `der` into the room's /Contents (the rest stays zeros, which DER readers ignore). */
export function fillRoom(room: OpenRoom, der: Uint8Array): Uint8Array {
  if (der.length > room.capacity) {
    throw new Error(`the signature takes ${der.length} bytes, more than the ${room.capacity} laid for it`);
  }
  Buffer.from(room.bytes.buffer, room.bytes.byteOffset, room.bytes.length).write(
    Buffer.from(der).toString("hex"),
    room.contentsAt,
    "latin1",
  );
  return room.bytes;
}
