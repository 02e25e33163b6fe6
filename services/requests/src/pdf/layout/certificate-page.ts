/**
 * The certificate of completion appended to a sealed PDF: what was signed (each original's
 * SHA-256 and the signed pages' SHA-256), by whom, from where and when, and the head of the
 * request's audit chain, so the printout alone ties the document to its trail.
 */
import type { RecipientKind } from "@countersign/domain";
import type { PDFDocument } from "pdf-lib";
import { browserSummary } from "./browser-summary.js";
import { GREY, PageWriter, type SignatureMark, sizeText, when } from "./page-writer.js";
import { SEALED_DAYS } from "./sealed-days.js";
import type { Typesetter } from "./typesetter.js";

/** Each kind of recipient as the certificate names it. */
const KIND_NAMES: Record<RecipientKind, string> = {
  signer: "signer",
  viewer: "viewer (had to view the documents)",
  approver: "approver (approves, signs nothing)",
  cc: "copy recipient",
};

export interface CertificateRecipient {
  name: string;
  email: string;
  role: string;
  kind: RecipientKind;
  viewedAt: Date | null;
  signedAt: Date | null;
  consentedAt: Date | null;
  ip: string;
  userAgent: string;
  /** How the signer showed it was them: the link, and the codes the sender asked for (signer-identity.ts). */
  identity: string;
  /** The first signature (or, without one, initials) the signer gave. */
  signature?: SignatureMark;
  /** The files the signer gave for attachment fields, each kept as a document of the request. */
  attachments: { filename: string; documentId: string; sizeBytes: number; sha256: string }[];
}

export interface CertificateFacts {
  requestId: string;
  title: string;
  completedAt: Date;
  documents: { filename: string; pageCount: number; sha256: string }[];
  /** SHA-256 of the signed pages: the originals with every value drawn, before this certificate. */
  signedPagesSha256: string;
  recipients: CertificateRecipient[];
  /** Who sent the request, as its audit trail names them. */
  sentBy: string;
  audit: { entries: number; headHash: string };
  sealedBy: string;
  /** The seal's PAdES level, and the time-stamping authority behind it when there is one. */
  evidence: { level: "B-B" | "B-LTA"; timestampAuthority?: string | undefined };
  /** Made with a test key: the certificate says it binds no one. */
  test: boolean;
}

/** What the seal's level means to a reader who has to rely on it. */
function evidenceText({ level, timestampAuthority }: CertificateFacts["evidence"]): string {
  return level === "B-LTA"
    ? `PAdES B-LTA: the seal is time-stamped by ${timestampAuthority}, and the file carries the certificates and time-stamps a verifier needs to check it without this service`
    : "PAdES B-B: the seal's time is this service's own clock (no time-stamping authority is configured)";
}

/** Appends the certificate's pages; its text is drawn when `typesetter` finishes. */
export async function appendCertificate(
  doc: PDFDocument,
  facts: CertificateFacts,
  typesetter: Typesetter,
): Promise<void> {
  const w = new PageWriter(doc, typesetter);
  await w.text("Certificate of completion", { size: 18, bold: true });
  w.gap(4);
  await w.text(facts.title, { size: 12 });
  w.gap(6);
  await w.pair("Request ID", facts.requestId);
  await w.pair("Sent by", facts.sentBy || "—");
  await w.pair("Completed", when(facts.completedAt));
  await w.pair("Sealed by", facts.sealedBy);
  await w.pair("Evidence", evidenceText(facts.evidence));
  if (facts.test) {
    await w.pair("Test", "Made with a test key: this document and its signatures are not legally binding");
  }
  await w.pair("Dates", SEALED_DAYS.statement);
  w.rule();

  // Each document, each recipient and the audit trail is a block kept whole on a page, a heading
  // with the block after it (PageWriter.together).
  for (const [i, document] of facts.documents.entries()) {
    await w.together(async () => {
      if (i === 0) await w.text("Documents", { size: 12, bold: true });
      await w.pair(
        "Original",
        `${document.filename} (${document.pageCount} page${document.pageCount === 1 ? "" : "s"})`,
      );
      await w.pair("SHA-256", document.sha256, "hash");
    });
  }
  await w.together(async () => {
    await w.pair("Signed pages", "the originals with every value filled in, before this certificate");
    await w.pair("SHA-256", facts.signedPagesSha256, "hash");
  });
  w.rule();

  if (facts.recipients.length === 0) await w.text("Recipients", { size: 12, bold: true });
  for (const [i, r] of facts.recipients.entries()) {
    await w.together(async () => {
      if (i === 0) await w.text("Recipients", { size: 12, bold: true });
      await recipientBlock(w, r);
    });
  }
  w.rule();

  await w.together(async () => {
    await w.text("Audit trail", { size: 12, bold: true });
    await w.pair("Entries", String(facts.audit.entries));
    await w.pair("Chain head", facts.audit.headHash, "hash");
    w.gap(8);
    await w.text(
      "Each audit entry holds the SHA-256 of the one before; the chain head above is the hash of the last entry " +
        "before completion. The document is sealed with a certifying digital signature over the whole file: any " +
        "change after sealing, but for the validation data and time-stamps added to keep the seal checkable, " +
        "shows the signature as invalid.",
      { size: 8.5, color: GREY },
    );
  });
}

/** A recipient: who they are, how they were identified, what they did when, and their signature. */
async function recipientBlock(w: PageWriter, r: CertificateRecipient): Promise<void> {
  w.gap(4);
  await w.text(`${r.name} <${r.email}>`, { bold: true });
  await w.pair("Role", [KIND_NAMES[r.kind], r.role].filter(Boolean).join(", "));
  // A copy recipient only receives the result: nothing more to say of them.
  if (r.kind === "cc") return;
  await w.pair("Identified", r.identity);
  await w.pair("Viewed", when(r.viewedAt));
  if (r.kind === "approver") await w.pair("Approved", when(r.signedAt));
  if (r.kind === "signer") {
    await w.pair("Agreed to sign", when(r.consentedAt));
    await w.pair("Signed", when(r.signedAt));
  }
  await w.pair("IP address", r.ip || "—");
  await w.pair("Browser", browserSummary(r.userAgent));
  if (r.kind !== "signer") return;
  for (const file of r.attachments) {
    await w.pair("Attached", `${file.filename} (${sizeText(file.sizeBytes)}), document ${file.documentId}`);
    await w.pair("SHA-256", file.sha256, "hash");
  }
  if (r.signature) await w.signature(r.signature);
}
