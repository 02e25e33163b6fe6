/**
 * The verifier against documents sealed here and against an attack corpus built from them: bytes
 * appended after the seal, a rewritten byte range (signature wrapping and universal forgery), an
 * incremental update that adds an annotation or changes a page, one changed byte — each reported
 * as modified or invalid, with what is wrong in words — while the additions long-term validation
 * makes (a DSS, a document time-stamp) leave a document intact.
 */
import { X509Certificate } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFArray, type PDFDocument, PDFName } from "pdf-lib";
import {
  type LocalTimestampAuthority,
  startLocalTimestampAuthority,
} from "../../../deploy/local/src/timestamp-authority.js";
import { makePdf } from "../../../test/support/pdfs.js";
import { appendRevision } from "../src/pdf/pades/incremental-update.js";
import { addValidationRevision } from "../src/pdf/pades/long-term.js";
import { Seal } from "../src/pdf/seal.js";
import { generateSealP12 } from "../src/pdf/seal-certificate.js";
import { drawCompletedDocument } from "../src/pdf/sealed-document.js";
import { verifyDocument } from "../src/pdf/verify/verify-document.js";

const REQUEST_ID = "0192f5d8-0000-7000-8000-000000000000";
const p12 = generateSealP12("Verifier test seal", "pw");
let authority: LocalTimestampAuthority;
let plain: Uint8Array;
let longTerm: Uint8Array;

async function sealWith(seal: Seal): Promise<Uint8Array> {
  const drawn = await drawCompletedDocument(
    [{ id: "a", filename: "lease.pdf", sha256: "0".repeat(64), bytes: await makePdf(1) }],
    [],
    new Map(),
    {
      requestId: REQUEST_ID,
      title: "Lease",
      completedAt: new Date(),
      recipients: [],
      sentBy: "Acme",
      audit: { entries: 1, headHash: "f".repeat(64) },
      test: false,
    },
    seal.room,
  );
  return (await seal.sign(drawn.bytes, addValidationRevision)).bytes;
}

beforeAll(async () => {
  authority = await startLocalTimestampAuthority(await mkdtemp(join(tmpdir(), "tsa-")));
  plain = await sealWith(new Seal({ p12, password: "pw" }));
  longTerm = await sealWith(
    new Seal(
      { p12, password: "pw" },
      { url: authority.url, timeoutMs: 5000, trustAnchors: [new X509Certificate(authority.rootPem).raw] },
    ),
  );
}, 60_000);
afterAll(() => authority?.close());

/** An incremental update made by `change`, as an attacker with pdf-lib would make it. */
const updated = (pdf: Uint8Array, change: (doc: PDFDocument) => void) => appendRevision(pdf, change);

const addNote = (doc: PDFDocument) => {
  const page = doc.getPage(0);
  const note = doc.context.register(
    doc.context.obj({
      Type: "Annot",
      Subtype: "FreeText",
      Rect: [50, 50, 300, 100],
      Contents: "Paid in full",
    }),
  );
  const annots = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray);
  if (annots) annots.push(note);
  else page.node.set(PDFName.of("Annots"), doc.context.obj([note]));
};

test("a document sealed without a time-stamping authority is intact at B-B, and names its request", async () => {
  const report = await verifyDocument(plain);
  expect(report).toMatchObject({
    verdict: "intact",
    level: "B-B",
    requestId: REQUEST_ID,
    changesAfterSeal: [],
  });
  expect(report.levelReason).toContain("its signer's own clock");
  expect(report.signatures).toEqual([
    expect.objectContaining({
      kind: "signature",
      valid: true,
      coversWholeFile: true,
      timestampTime: undefined,
    }),
  ]);
  expect(report.summary).toMatch(
    /^Sealed by “Verifier test seal”, at .* by its own clock; unchanged since\.$/,
  );
});

test("a document sealed with one is intact at B-LTA: the seal time-stamped, the DSS, a document time-stamp over all", async () => {
  const report = await verifyDocument(longTerm);
  expect(report).toMatchObject({ verdict: "intact", level: "B-LTA", changesAfterSeal: [] });
  expect(report.signatures.map((s) => [s.kind, s.valid, s.coversWholeFile])).toEqual([
    ["signature", true, false],
    ["document-timestamp", true, true],
  ]);
  expect(report.signatures[0]?.timestampAuthority).toBe("Countersign local time-stamping authority");
  expect(report.validationData).toEqual({ certificates: 3, ocspResponses: 0, crls: 0 });
});

test("one changed byte in what the seal covers makes it invalid", async () => {
  const tampered = Buffer.from(plain);
  const at = 200;
  tampered[at] = (tampered[at] as number) ^ 0x01;
  const report = await verifyDocument(tampered);
  expect(report.verdict).toBe("invalid");
  expect(report.summary).toContain("the signed bytes have changed since it was made");
});

test.each([
  ["plain", () => plain],
  ["long-term", () => longTerm],
])("bytes appended after the last revision of a %s document are reported", async (_name, sealed) => {
  const appended = Buffer.concat([Buffer.from(sealed()), Buffer.from("\n<script>alert(1)</script>\n")]);
  const report = await verifyDocument(appended);
  expect(report.verdict).toBe("modified");
  expect(report.changesAfterSeal).toEqual([
    expect.stringContaining("bytes were appended after the last signed revision"),
  ]);
});

test.each([
  ["plain", () => plain],
  ["long-term", () => longTerm],
])(
  "an incremental update that adds an annotation to a %s document is reported, naming the page",
  async (_name, sealed) => {
    const report = await verifyDocument(await updated(sealed(), addNote));
    expect(report.verdict).toBe("modified");
    expect(report.changesAfterSeal).toContain(
      "an annotation was added to or removed from page 1 after sealing",
    );
  },
);

test("an incremental update that changes a page's content is reported", async () => {
  const changed = await updated(plain, (doc) => {
    const page = doc.getPage(0);
    page.drawText("VOID", { x: 100, y: 400, size: 72 });
  });
  const report = await verifyDocument(changed);
  expect(report.verdict).toBe("modified");
  expect(report.changesAfterSeal.join(" ")).toContain("page 1 changed after sealing");
});

test("an update that only adds validation data leaves the document intact", async () => {
  const withDss = await updated(plain, (doc) => {
    doc.catalog.set(PDFName.of("DSS"), doc.context.register(doc.context.obj({ Certs: [] })));
  });
  const report = await verifyDocument(withDss);
  expect(report.verdict).toBe("intact");
  expect(report.summary).toContain("but for the validation data and time-stamps added");
});

/** The file with its seal's byte range written over by `range`, in the same width. */
function rewrittenRange(pdf: Uint8Array, range: (real: number[]) => number[]): Buffer {
  const bytes = Buffer.from(pdf);
  const match = /\/ByteRange\s*(\[[\d\s]+\])/.exec(bytes.toString("latin1"));
  const array = match?.[1];
  if (!match || !array) throw new Error("no byte range");
  const real = array.slice(1, -1).trim().split(/\s+/).map(Number);
  const written = `${`[${range(real).join(" ")}`.padEnd(array.length - 1, " ")}]`;
  if (written.length !== array.length) throw new Error("the new byte range does not fit");
  bytes.write(written, match.index + match[0].length - array.length, "latin1");
  return bytes;
}

test.each([
  [
    "universal forgery: a byte range of zeros",
    () => [0, 0, 0, 0],
    "does not start the file and stay within it",
  ],
  [
    "signature wrapping: a gap that is not the signature's contents",
    (r: number[]) => [0, (r[1] as number) - 20, r[2] as number, r[3] as number],
    "not one hex string",
  ],
  [
    "a range that stops short of its revision",
    (r: number[]) => [0, r[1] as number, r[2] as number, (r[3] as number) - 10],
    "does not end where a revision of the file ends",
  ],
])("a rewritten byte range is refused — %s", async (_name, range, problem) => {
  const report = await verifyDocument(rewrittenRange(plain, range));
  expect(report.verdict).toBe("invalid");
  expect(report.summary).toContain(problem);
});

test("what is not a PDF, and a PDF without a signature, say so", async () => {
  await expect(verifyDocument(Buffer.from("not a pdf at all"))).resolves.toMatchObject({
    verdict: "unreadable",
  });
  await expect(verifyDocument(await makePdf(1))).resolves.toMatchObject({
    verdict: "unsigned",
    level: "none",
  });
});
