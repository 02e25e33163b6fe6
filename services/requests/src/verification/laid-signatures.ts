/**
 * The signatures a PDF holds, as its form lists them, each checked against the bytes it claims to
 * cover before anything is believed: the byte range must start the file, skip exactly one hex
 * string — the very /Contents its dictionary holds — and end where a revision ends (%%EOF). These
 * are the checks that defeat signature wrapping and universal forgery (pdf-insecurity.org): a
 * dictionary whose byte range points elsewhere, or whose contents are not the gap, is malformed.
 */
import { PDFArray, PDFDict, type PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString } from "pdf-lib";

export interface LaidSignature {
  /** The field's name, as readers list it. */
  field: string;
  kind: "signature" | "document-timestamp";
  subFilter: string;
  byteRange: [number, number, number, number];
  /** Where the revision this signature covers ends: the file up to here is what it signed. */
  revisionEnd: number;
  /** The two covered ranges, joined. */
  covered: Uint8Array;
  /** The CMS (or time-stamp token), without the zeros padding the room. */
  contents: Uint8Array;
  /** What the dictionary claims, unchecked: the signing time (/M), name and reason. */
  claimedTime?: Date | undefined;
  name?: string | undefined;
  reason?: string | undefined;
  /** The request a Countersign seal completes, from the seal's own dictionary. */
  requestId?: string | undefined;
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

/** The signatures of `doc` (read from `pdf`), in the order they cover the file. */
export function laidSignatures(doc: PDFDocument, pdf: Uint8Array): LaidSignature[] {
  const found: LaidSignature[] = [];
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  for (const { dict, name, type } of fields(doc)) {
    if (type !== "Sig") continue;
    const value = dict.lookupMaybe(PDFName.of("V"), PDFDict);
    if (!value) continue;
    const subFilter = value.lookupMaybe(PDFName.of("SubFilter"), PDFName)?.decodeText() ?? "";
    const isTimestamp = value.lookupMaybe(PDFName.of("Type"), PDFName)?.decodeText() === "DocTimeStamp";
    const contents = value.lookup(PDFName.of("Contents"));
    const range = byteRangeOf(value);
    const signature: LaidSignature = {
      field: name,
      kind: isTimestamp || subFilter === "ETSI.RFC3161" ? "document-timestamp" : "signature",
      subFilter,
      byteRange: range ?? [0, 0, 0, 0],
      revisionEnd: range ? range[2] + range[3] : 0,
      covered: new Uint8Array(),
      contents: new Uint8Array(),
      claimedTime: pdfDate(value),
      name: text(value.lookup(PDFName.of("Name"))),
      reason: text(value.lookup(PDFName.of("Reason"))),
      requestId: text(value.lookup(PDFName.of("CountersignRequest"))),
    };
    found.push(signature);
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
    const gap = bytes.subarray(first, gapEnd).toString("latin1");
    if (!/^<[0-9A-Fa-f]*>$/.test(gap) || gap.length % 2 !== 0) {
      signature.malformed = "the bytes its range leaves out are not one hex string";
      continue;
    }
    const laid = Buffer.from(gap.slice(1, -1), "hex");
    const held = contents instanceof PDFHexString ? Buffer.from(contents.asBytes()) : undefined;
    if (!held?.equals(laid)) {
      signature.malformed = "the bytes its range leaves out are not its own /Contents";
      continue;
    }
    const length = derLength(laid);
    if (length === undefined || laid.subarray(length).some((b) => b !== 0)) {
      signature.malformed = "its /Contents is not one DER value padded with zeros";
      continue;
    }
    signature.contents = laid.subarray(0, length);
    signature.covered = Buffer.concat([bytes.subarray(0, first), bytes.subarray(gapEnd, gapEnd + second)]);
  }
  return found.sort((a, b) => a.revisionEnd - b.revisionEnd);
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
