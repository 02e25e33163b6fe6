/**
 * Where the sealed PDF puts what it writes, read back from the drawn file with poppler's
 * `pdftotext -bbox`: values in their boxes, dates in one form, the certificate's blocks on a page.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dateSignedText, dayText } from "@countersign/domain";
import { PDFDocument } from "pdf-lib";
import { makePdf } from "../../../test/support/pdfs.js";
import type { StoredValue } from "../src/core/field-values.js";
import type { StoredField } from "../src/core/store/rows.js";
import { drawAuditReport } from "../src/pdf/layout/audit-report.js";
import {
  appendCertificate,
  type CertificateFacts,
  type CertificateRecipient,
} from "../src/pdf/layout/certificate-page.js";
import { Typesetter } from "../src/pdf/layout/typesetter.js";
import { drawSignerCopy } from "../src/pdf/sealed-document.js";

interface Word {
  page: number;
  text: string;
  xMin: number;
  xMax: number;
  yMin: number;
}

/** Every word poppler reads on the PDF's pages, with its box in points from the page's top-left. */
function wordsOf(pdf: Uint8Array): Word[] {
  const file = join(mkdtempSync(join(tmpdir(), "sealed-layout-")), "doc.pdf");
  writeFileSync(file, pdf);
  const html = execFileSync("pdftotext", ["-bbox", file, "-"], { encoding: "utf8" });
  const words: Word[] = [];
  let page = 0;
  for (const line of html.split("\n")) {
    if (line.includes("<page ")) page++;
    const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">(.*)<\/word>/.exec(
      line,
    );
    if (word) {
      const [, xMin, yMin, xMax, text] = word;
      words.push({ page, text: text as string, xMin: Number(xMin), xMax: Number(xMax), yMin: Number(yMin) });
    }
  }
  return words;
}

function field(id: string, type: string, y: number): StoredField {
  return {
    id,
    type,
    recipientId: "r",
    documentId: "d",
    page: 1,
    x: 100,
    y,
    width: 300,
    height: 24,
    required: false,
    label: "",
  };
}

async function drawn(fields: StoredField[], values: [string, StoredValue][]): Promise<Word[]> {
  const original = { id: "d", filename: "a.pdf", sha256: "0".repeat(64), bytes: await makePdf(1) };
  return wordsOf(await drawSignerCopy([original], fields, new Map(values)));
}

test("a value that reads right to left stands at its box's right edge, as the page's dir=auto input shows it; one left to right at its left", async () => {
  const words = await drawn(
    [
      field("ar", "text", 200),
      field("ar-number", "dropdown", 260),
      field("en", "text", 320),
      field("mixed", "name", 380),
      field("he", "text", 440),
    ],
    [
      ["ar", { kind: "text", text: "شركة النور" }],
      ["ar-number", { kind: "text", text: "١٢٣ درهم" }],
      ["en", { kind: "text", text: "ACME شركة" }],
      ["mixed", { kind: "text", text: "123 שלום Ltd" }],
      ["he", { kind: "text", text: "חברה בע״מ" }],
    ],
  );
  const line = (top: number) => words.filter((w) => w.yMin > top - 6 && w.yMin < top + 24);
  const right = (top: number) => Math.max(...line(top).map((w) => w.xMax));
  const left = (top: number) => Math.min(...line(top).map((w) => w.xMin));
  // The box runs from x 100 to 400; a value is set 2 points in from its edge.
  for (const top of [200, 260, 380, 440]) {
    expect(line(top).length).toBeGreaterThan(0);
    // Drawn in a face of its script, not written as code points.
    expect(line(top).map((w) => w.text)).not.toContainEqual(expect.stringContaining("[U+"));
    expect(right(top)).toBeGreaterThan(395);
    expect(left(top)).toBeGreaterThan(150);
  }
  expect(left(320)).toBeLessThan(105);
  expect(right(320)).toBeLessThan(300);
});

test("every day on the sealed document is written in one form, whatever language each signer's page showed it in", async () => {
  const at = new Date("2026-12-06T10:00:00Z");
  const words = await drawn(
    [
      field("de", "date_signed", 200),
      field("en", "date_signed", 260),
      field("ar", "date_signed", 320),
      field("picked", "date", 380),
    ],
    [
      ["de", { kind: "date", date: "2026-12-06", text: dateSignedText(at, "de", "UTC") }],
      ["en", { kind: "date", date: "2026-12-06", text: dateSignedText(at, "en", "UTC") }],
      ["ar", { kind: "date", date: "2026-12-06", text: dateSignedText(at, "ar", "UTC") }],
      ["picked", { kind: "date", date: "2027-01-15", text: dayText("2027-01-15", "ja") }],
    ],
  );
  const line = (top: number) =>
    words
      .filter((w) => w.yMin > top - 6 && w.yMin < top + 24)
      .map((w) => w.text)
      .join(" ");
  expect([200, 260, 320, 380].map(line)).toEqual(["2026-12-06", "2026-12-06", "2026-12-06", "2027-01-15"]);
  // Read left to right from the box's left edge, in every signer's language.
  for (const top of [200, 320]) {
    expect(
      Math.min(...words.filter((w) => w.yMin > top - 6 && w.yMin < top + 24).map((w) => w.xMin)),
    ).toBeLessThan(105);
  }
});

test("a date signed kept before days were kept as days is drawn as its page showed it", async () => {
  const words = await drawn(
    [field("old", "date_signed", 200)],
    [["old", { kind: "text", text: "6. Dez. 2026" }]],
  );
  expect(words.filter((w) => w.yMin > 194).map((w) => w.text)).toEqual(["6.", "Dez.", "2026"]);
});

function signer(n: number, attachments = 0): CertificateRecipient {
  const at = new Date("2026-12-06T10:00:00Z");
  return {
    name: `Signer ${n}`,
    email: `signer-${n}@example.com`,
    role: "Client",
    kind: "signer",
    viewedAt: at,
    signedAt: at,
    consentedAt: at,
    ip: `10.0.0.${n}`,
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
    identity: "the link e-mailed to them",
    signature: { kind: "typed", text: `Mark${n}` },
    attachments: Array.from({ length: attachments }, (_, i) => ({
      filename: `scan-${n}-${i}.pdf`,
      documentId: `doc-${n}-${i}`,
      sizeBytes: 48_000,
      sha256: "a".repeat(64),
    })),
  };
}

async function certificate(recipients: CertificateRecipient[]): Promise<Word[]> {
  const doc = await PDFDocument.create();
  const typesetter = new Typesetter();
  const facts: CertificateFacts = {
    requestId: "0192f5d8-0000-7000-8000-000000000000",
    title: "Lease",
    completedAt: new Date("2026-12-06T11:00:00Z"),
    documents: [{ filename: "lease.pdf", pageCount: 3, sha256: "0".repeat(64) }],
    signedPagesSha256: "1".repeat(64),
    recipients,
    sentBy: "Acme",
    audit: { entries: 40, headHash: "f".repeat(64) },
    test: false,
    sealedBy: "Acme seal",
    evidence: { level: "B-B" },
  };
  await appendCertificate(doc, facts, typesetter);
  await typesetter.finish(doc);
  return wordsOf(await doc.save());
}

/** The page a word holding `text` is on (the first such word). */
const pageOf = (words: Word[], text: string) => words.find((w) => w.text.includes(text))?.page;

test("a recipient's block on the certificate is kept whole on one page: name, what they did, their signature", async () => {
  const words = await certificate(Array.from({ length: 12 }, (_, i) => signer(i + 1)));
  expect(Math.max(...words.map((w) => w.page))).toBeGreaterThan(1);
  for (let n = 1; n <= 12; n++) {
    const page = pageOf(words, `signer-${n}@example.com`);
    expect(page).toBeDefined();
    expect({ n, ip: pageOf(words, `10.0.0.${n}`), signature: pageOf(words, `Mark${n}`) }).toEqual({
      n,
      ip: page,
      signature: page,
    });
  }
  // The certificate says in which form the document writes its dates.
  const text = words.map((w) => w.text).join(" ");
  expect(text).toContain("Dates");
  expect(text).toContain("written YYYY-MM-DD (ISO 8601) throughout the document");
  // The audit trail's head and its note stay together with their heading.
  expect(pageOf(words, "f".repeat(64))).toBe(pageOf(words, "Chain"));
});

test("a block taller than a page starts where it is and splits where pages end", async () => {
  const words = await certificate([signer(1), signer(2, 40)]);
  const start = pageOf(words, "signer-2@example.com");
  expect(start).toBe(pageOf(words, "Mark1"));
  expect(pageOf(words, "scan-2-39.pdf")).toBeGreaterThan(start as number);
});

test("an entry of the audit trail's report is kept whole on one page", async () => {
  const entries = Array.from({ length: 30 }, (_, i) => ({
    sequence: i + 1,
    at: new Date("2026-12-06T10:00:00Z"),
    action: "viewed",
    actor: {
      type: "recipient",
      id: "r",
      name: "Ada",
      email: "ada@example.com",
      ip: "10.0.0.1",
      userAgent: "curl/8",
    },
    details: JSON.stringify({ note: `entry ${i + 1} `.repeat(12) }),
    hash: `${String(i + 1).padStart(2, "0")}${"e".repeat(62)}`,
  }));
  const words = wordsOf(
    await drawAuditReport({
      requestId: "0192f5d8-0000-7000-8000-000000000000",
      title: "Lease",
      status: "completed",
      createdAt: new Date("2026-12-06T09:00:00Z"),
      recipients: [{ name: "Ada", email: "ada@example.com", kind: "signer", status: "signed" }],
      entries,
      verified: true,
      drawnAt: new Date("2026-12-06T12:00:00Z"),
    }),
  );
  expect(Math.max(...words.map((w) => w.page))).toBeGreaterThan(1);
  for (const entry of entries) {
    const heading = words.find((w, i) => w.text === `${entry.sequence}.` && words[i + 1]?.text === "viewed");
    expect({ sequence: entry.sequence, hash: pageOf(words, entry.hash) }).toEqual({
      sequence: entry.sequence,
      hash: heading?.page,
    });
  }
});
