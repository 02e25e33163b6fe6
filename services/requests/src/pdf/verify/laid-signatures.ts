/**
 * The signatures a PDF holds, as its form lists them, each checked against the bytes it claims to
 * cover before anything is believed: the byte range must start the file, skip exactly one hex
 * string — the very /Contents its dictionary holds — and end where a revision ends (%%EOF). These
 * are the checks that defeat signature wrapping and universal forgery (pdf-insecurity.org): a
 * dictionary whose byte range points elsewhere, or whose contents are not the gap, is malformed.
 * Each signature is read once, however many fields name it, and each byte range too: the bytes are
 * views of the file (covered-bytes.ts), and a file with more signatures than MAX_SIGNATURES is
 * not examined further.
 */
import {
  PDFArray,
  PDFBool,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFString,
} from "pdf-lib";
import { REQUEST_KEY, TEST_KEY } from "../pades/signature-room.js";
import { CoveredBytes } from "./covered-bytes.js";

/**
 * The most signatures a file's form is read for: a Countersign seal brings one and a document
 * time-stamp per renewal, another tool's form a few more. A file with more is judged without them.
 */
export const MAX_SIGNATURES = 50;

export interface LaidSignature {
  /** The field's name, as readers list it (the first, when several fields name this signature). */
  field: string;
  /** How many other fields name this same signature dictionary (a legitimate file has none). */
  otherFields: number;
  kind: "signature" | "document-timestamp";
  subFilter: string;
  byteRange: [number, number, number, number];
  /** Where the revision this signature covers ends: the file up to here is what it signed. */
  revisionEnd: number;
  /** The two covered ranges, as views of the file. */
  covered: CoveredBytes;
  /** The CMS (or time-stamp token), without the zeros padding the room. */
  contents: Uint8Array;
  /** What the dictionary claims, unchecked: the signing time (/M), name and reason. */
  claimedTime?: Date | undefined;
  name?: string | undefined;
  reason?: string | undefined;
  /** The request a Countersign seal completes, from the seal's own dictionary. */
  requestId?: string | undefined;
  /** The dictionary marks a test seal (what a test key made: not legally binding). */
  test: boolean;
  /** Why the signature cannot be checked, when its layout is wrong; nothing else is then read. */
  malformed?: string | undefined;
}

const text = (value: unknown) =>
  value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;

/** Every field of the form, the kids of each field included, with the inherited field type. */
function* fields(doc: PDFDocument): Generator<{ dict: PDFDict; name: string; type: string | undefined }> {
  const form = doc.catalog.lookupMaybe(PDFName.of("AcroForm"), PDFDict);
  const top = form?.lookupMaybe(PDFName.of("Fields"), PDFArray);
  const stack: { dict: PDFDict; prefix: string; type: string | undefined }[] = [];
  const seen = new Set<PDFDict>();
  const push = (list: PDFArray | undefined, prefix: string, type: string | undefined) => {
    for (let i = (list?.size() ?? 0) - 1; i >= 0; i -= 1) {
      const dict = list?.lookupMaybe(i, PDFDict);
      if (dict && !seen.has(dict)) {
        seen.add(dict);
        stack.push({ dict, prefix, type });
      }
    }
  };
  push(top, "", undefined);
  while (stack.length > 0) {
    const { dict, prefix, type } = stack.pop() as (typeof stack)[number];
    const own = dict.lookupMaybe(PDFName.of("FT"), PDFName)?.decodeText() ?? type;
    const partial = text(dict.lookup(PDFName.of("T")));
    const name = partial === undefined ? prefix : prefix ? `${prefix}.${partial}` : partial;
    yield { dict, name, type: own };
    push(dict.lookupMaybe(PDFName.of("Kids"), PDFArray), name, own);
  }
}

function byteRangeOf(dict: PDFDict): [number, number, number, number] | undefined {
  const array = dict.lookupMaybe(PDFName.of("ByteRange"), PDFArray);
  if (array?.size() !== 4) return undefined;
  const numbers = array.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : Number.NaN));
  return numbers.every((n) => Number.isSafeInteger(n) && n >= 0)
    ? (numbers as [number, number, number, number])
    : undefined;
}

/** The length of the DER value at the start of `bytes`, or undefined when it is not one. */
function derLength(bytes: Uint8Array): number | undefined {
  if (bytes.length < 2 || bytes[0] !== 0x30) return undefined;
  const first = bytes[1] as number;
  if (first < 0x80) return 2 + first;
  const octets = first & 0x7f;
  if (octets === 0 || octets > 4 || bytes.length < 2 + octets) return undefined;
  let length = 0;
  for (let i = 0; i < octets; i += 1) length = length * 256 + (bytes[2 + i] as number);
  return 2 + octets + length <= bytes.length ? 2 + octets + length : undefined;
}

/** Where the revision ending at or after `at` ends: just past its %%EOF and end of line, if it does. */
function endsRevision(pdf: Uint8Array, at: number): boolean {
  const tail = Buffer.from(pdf.subarray(Math.max(0, at - 32), at)).toString("latin1");
  return /%%EOF[\r\n]*$/.test(tail);
}

/**
 * The signatures of `doc` (read from `pdf`), in the order they cover the file: one for each
 * signature dictionary, and MAX_SIGNATURES + 1 at most — more than MAX_SIGNATURES means too many.
 */
export function laidSignatures(doc: PDFDocument, pdf: Uint8Array): LaidSignature[] {
  const found: LaidSignature[] = [];
  const byValue = new Map<PDFDict, LaidSignature>();
  // What several signatures' ranges share is read once: a gap's hex, the covered bytes' digests.
  const gaps = new Map<string, Buffer | string>();
  const coveredBy = new Map<string, CoveredBytes>();
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  for (const { dict, name, type } of fields(doc)) {
    if (type !== "Sig") continue;
    const value = dict.lookupMaybe(PDFName.of("V"), PDFDict);
    if (!value) continue;
    const named = byValue.get(value);
    if (named) {
      named.otherFields += 1;
      continue;
    }
    if (found.length > MAX_SIGNATURES) break;
    const subFilter = value.lookupMaybe(PDFName.of("SubFilter"), PDFName)?.decodeText() ?? "";
    const isTimestamp = value.lookupMaybe(PDFName.of("Type"), PDFName)?.decodeText() === "DocTimeStamp";
    const contents = value.lookup(PDFName.of("Contents"));
    const range = byteRangeOf(value);
    const signature: LaidSignature = {
      field: name,
      otherFields: 0,
      kind: isTimestamp || subFilter === "ETSI.RFC3161" ? "document-timestamp" : "signature",
      subFilter,
      byteRange: range ?? [0, 0, 0, 0],
      revisionEnd: range ? range[2] + range[3] : 0,
      covered: new CoveredBytes([]),
      contents: new Uint8Array(),
      claimedTime: pdfDate(value),
      name: text(value.lookup(PDFName.of("Name"))),
      reason: text(value.lookup(PDFName.of("Reason"))),
      requestId: text(value.lookup(PDFName.of(REQUEST_KEY))),
      test: value.lookup(PDFName.of(TEST_KEY)) === PDFBool.True,
    };
    found.push(signature);
    byValue.set(value, signature);
    if (!range) {
      signature.malformed = "its byte range is not four whole numbers";
      continue;
    }
    const [start, first, gapEnd, second] = range;
    if (start !== 0 || first === 0 || gapEnd <= first || gapEnd + second > bytes.length) {
      signature.malformed = "its byte range does not start the file and stay within it";
      continue;
    }
    if (!endsRevision(bytes, gapEnd + second)) {
      signature.malformed = "its byte range does not end where a revision of the file ends";
      continue;
    }
    const gapKey = `${first} ${gapEnd}`;
    const laid = gaps.get(gapKey) ?? hexGap(bytes.subarray(first, gapEnd));
    gaps.set(gapKey, laid);
    if (typeof laid === "string") {
      signature.malformed = laid;
      continue;
    }
    const held = contents instanceof PDFHexString ? contents.asBytes() : undefined;
    if (!held || !laid.equals(held)) {
      signature.malformed = "the bytes its range leaves out are not its own /Contents";
      continue;
    }
    const length = derLength(laid);
    if (length === undefined || laid.subarray(length).some((b) => b !== 0)) {
      signature.malformed = "its /Contents is not one DER value padded with zeros";
      continue;
    }
    signature.contents = laid.subarray(0, length);
    const rangeKey = range.join(" ");
    const covered =
      coveredBy.get(rangeKey) ??
      new CoveredBytes([bytes.subarray(0, first), bytes.subarray(gapEnd, gapEnd + second)]);
    coveredBy.set(rangeKey, covered);
    signature.covered = covered;
  }
  return found.sort((a, b) => a.revisionEnd - b.revisionEnd);
}

/** The bytes a hex string's gap `<…>` holds, or why it is not one. */
function hexGap(gap: Buffer): Buffer | string {
  const last = gap.length - 1;
  const isHex = (b: number) => (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x66);
  if (gap.length % 2 !== 0 || gap[0] !== 0x3c || gap[last] !== 0x3e || !gap.subarray(1, last).every(isHex))
    return "the bytes its range leaves out are not one hex string";
  return Buffer.from(gap.subarray(1, last).toString("latin1"), "hex");
}

/** /M as a date: D:YYYYMMDDHHmmSS with an offset (Z, +HH'mm'). */
function pdfDate(dict: PDFDict): Date | undefined {
  const raw = text(dict.lookup(PDFName.of("M")));
  const match = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(raw ?? "");
  if (!match) return undefined;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", zone = "Z"] = match;
  const offset = zone === "Z" ? "Z" : `${zone.slice(0, 3)}:${zone.replace(/'/g, "").slice(3, 5)}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
