/**
 * Completing a request, as the completion worker does it (the same function): a 10-page contract
 * (exported from a word processor, or scanned),
 * 3 signers, 30 fields (typed and drawn signatures, initials, dates, text, checkboxes, names and
 * e-mails), the certificate page and the seal (B-B, or B-LTA with OpenSSL's time-stamping
 * authority on loopback) — against pdf-lib loading and saving the same PDF, and against the same
 * work done the thinnest way pdf-lib allows (completion-floor.ts), runs interleaved so that all see
 * the same machine.
 */

import { PDFDocument } from "pdf-lib";
import { PNG } from "pngjs";
import type { StoredValue } from "../../services/requests/src/core/field-values.js";
import type { StoredField } from "../../services/requests/src/core/store/rows.js";
import type { SignatureMark } from "../../services/requests/src/pdf/layout/page-writer.js";
import { addValidationRevision } from "../../services/requests/src/pdf/pades/long-term.js";
import type { TimestampAuthority } from "../../services/requests/src/pdf/pades/timestamp-client.js";
import { Seal } from "../../services/requests/src/pdf/seal.js";
import { generateSealP12 } from "../../services/requests/src/pdf/seal-certificate.js";
import { drawCompletedDocument } from "../../services/requests/src/pdf/sealed-document.js";
import { makeContractPdf, makeScannedPdf } from "../support/pdfs.js";
import { floorCompletion } from "./completion-floor.js";

export interface CompletionFigures {
  /** Which 10-page document: a word processor's export, or a scan. */
  document: "text" | "scanned";
  /** The seal's level: B-LTA when a time-stamping authority (OpenSSL on loopback) stamps it. */
  level: "B-B" | "B-LTA";
  runs: number;
  pdfBytes: number;
  sealedBytes: number;
  baselineP50Ms: number;
  /** The same work done the thinnest way pdf-lib allows (completion-floor.ts). */
  floorP50Ms: number;
  completionP50Ms: number;
  completionP99Ms: number;
}

/** A drawing as the signing page sends it: a 600×200 PNG with one stroke, its shape set by `wave`. */
function drawing(wave: number): string {
  const png = new PNG({ width: 600, height: 200 });
  for (let x = 20; x < 580; x++) {
    const y = Math.round(100 + 60 * Math.sin(x / wave) * Math.cos(x / 97));
    for (let dy = -2; dy <= 2; dy++) {
      const at = ((y + dy) * 600 + x) * 4;
      png.data.writeUInt32BE(0x1b2a5cff, at);
    }
  }
  return PNG.sync.write(png).toString("base64");
}

const TYPES = [
  "signature",
  "initials",
  "date_signed",
  "text",
  "text",
  "text",
  "checkbox",
  "checkbox",
  "name",
  "email",
];

const drawn = { signature: drawing(40), initials: drawing(23) };

/** The mark the certificate shows of signer `i`: the third draws, the others type. */
function markOf(i: number): SignatureMark {
  return i === 2
    ? { kind: "drawn", png: drawn.signature }
    : { kind: "typed", text: `Signer Number ${i + 1}` };
}

function request(): { fields: StoredField[]; values: Map<string, StoredValue> } {
  const fields: StoredField[] = [];
  const values = new Map<string, StoredValue>();
  for (let signer = 0; signer < 3; signer++) {
    TYPES.forEach((type, i) => {
      const id = `s${signer}-f${i}`;
      fields.push({
        id,
        type,
        recipientId: `signer-${signer}`,
        documentId: "contract",
        page: i + 1,
        x: 56 + signer * 170,
        y: 640 + (type === "checkbox" ? 40 : 0),
        width: type === "checkbox" ? 14 : 150,
        height: type === "checkbox" ? 14 : 36,
        required: true,
        label: "",
      });
      const value: StoredValue =
        type === "signature" || type === "initials"
          ? signer === 2
            ? { kind: "drawn", png: type === "signature" ? drawn.signature : drawn.initials }
            : { kind: "typed", text: type === "initials" ? "AL" : `Signer Number ${signer + 1}` }
          : type === "checkbox"
            ? { kind: "checkbox", checked: true }
            : {
                kind: "text",
                text: type === "email" ? `signer${signer}@example.com` : `Value ${i} of signer ${signer + 1}`,
              };
      values.set(id, value);
    });
  }
  return { fields, values };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number;
};

/** With `authority`, every seal is time-stamped twice by it and gets its validation revision: B-LTA. */
export async function measureCompletion(
  document: CompletionFigures["document"],
  authority?: TimestampAuthority,
  runs = 20,
  warmUp = 5,
): Promise<CompletionFigures> {
  const pdf = document === "text" ? await makeContractPdf(10) : await makeScannedPdf(10);
  const seal = new Seal(
    { p12: generateSealP12("Countersign bench seal", "bench"), password: "bench" },
    authority,
  );
  const { fields, values } = request();
  const recipients = [0, 1, 2].map((i) => ({
    name: `Signer Number ${i + 1}`,
    email: `signer${i}@example.com`,
    role: `Role ${i + 1}`,
    kind: "signer" as const,
    viewedAt: new Date(),
    signedAt: new Date(),
    consentedAt: new Date(),
    identity: `through the signing link e-mailed to signer${i}@example.com`,
    ip: "203.0.113.10",
    userAgent:
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
    signature: markOf(i),
    attachments: [],
  }));
  const baseline: number[] = [];
  const floor: number[] = [];
  const completion: number[] = [];
  let sealedBytes = 0;
  const details = () => ({
    requestId: "0192f5d8-0000-7000-8000-000000000000",
    title: "Master services agreement",
    completedAt: new Date(),
    recipients,
    sentBy: "Acme Ltd, through API key “CRM”",
    audit: { entries: 14, headHash: "f".repeat(64) },
    test: false,
  });
  for (let i = 0; i < warmUp + runs; i++) {
    let started = performance.now();
    await (await PDFDocument.load(pdf)).save();
    const loadSave = performance.now() - started;
    started = performance.now();
    await floorCompletion(pdf, fields, values, details(), seal);
    const floorMs = performance.now() - started;
    started = performance.now();
    const drawn = await drawCompletedDocument(
      [{ id: "contract", filename: "contract.pdf", sha256: "0".repeat(64), bytes: pdf }],
      fields,
      values,
      details(),
      seal.room,
    );
    const sealed = await seal.sign(drawn.bytes, addValidationRevision);
    const complete = performance.now() - started;
    sealedBytes = sealed.bytes.length;
    if (i >= warmUp) {
      baseline.push(loadSave);
      floor.push(floorMs);
      completion.push(complete);
    }
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    document,
    level: authority ? "B-LTA" : "B-B",
    runs,
    pdfBytes: pdf.length,
    sealedBytes,
    baselineP50Ms: round(quantile(baseline, 0.5)),
    floorP50Ms: round(quantile(floor, 0.5)),
    completionP50Ms: round(quantile(completion, 0.5)),
    completionP99Ms: round(quantile(completion, 0.99)),
  };
}
