/**
 * The certificate of completion appended to a sealed PDF: what was signed (each original's
 * SHA-256 and the signed pages' SHA-256), by whom, from where and when, and the head of the
 * request's audit chain, so the printout alone ties the document to its trail.
 */
import type { RecipientKind } from "@countersign/domain";
import { type PDFDocument, type PDFPage, rgb } from "pdf-lib";
import { browserSummary } from "./browser-summary.js";
import type { StackName } from "./font-stacks.js";
import type { Typesetter } from "./typesetter.js";

/** Each kind of recipient as the certificate names it. */
const KIND_NAMES: Record<RecipientKind, string> = {
  signer: "signer",
  viewer: "viewer (had to view the documents)",
  approver: "approver (approves, signs nothing)",
  cc: "copy recipient",
};

/** A signer's signature as it was sealed: typed in the handwriting face, or drawn. */
export type SignatureMark = { kind: "typed"; text: string } | { kind: "drawn"; png: string };

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
}

/** What the seal's level means to a reader who has to rely on it. */
function evidenceText({ level, timestampAuthority }: CertificateFacts["evidence"]): string {
  return level === "B-LTA"
    ? `PAdES B-LTA: the seal is time-stamped by ${timestampAuthority}, and the file carries the certificates and time-stamps a verifier needs to check it without this service`
    : "PAdES B-B: the seal's time is this service's own clock (no time-stamping authority is configured)";
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const GREY = rgb(0.35, 0.35, 0.4);
const BLACK = rgb(0, 0, 0);
const INK = rgb(0.07, 0.13, 0.36);
const RULE = rgb(0.8, 0.82, 0.86);

function when(date: Date | null): string {
  return date ? `${date.toISOString().replace("T", " ").slice(0, 19)} UTC` : "—";
}

/** Lays out lines top to bottom, starting a new page when one is full. */
class PageWriter {
  private page!: PDFPage;
  private y = 0;
  readonly width = A4[0] - 2 * MARGIN;

  constructor(
    private readonly doc: PDFDocument,
    private readonly typesetter: Typesetter,
  ) {
    this.newPage();
  }

  private newPage(): void {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  private room(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  /** Writes text wrapped at the page width; long unbroken strings (hashes) break anywhere. */
  async text(
    value: string,
    options: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; indent?: number } = {},
  ): Promise<void> {
    const size = options.size ?? 9.5;
    const stack: StackName = options.bold ? "bold" : "text";
    const indent = options.indent ?? 0;
    for (const line of await this.wrap(value, stack, size, this.width - indent)) {
      this.room(size * 1.45);
      this.y -= size * 1.45;
      this.typesetter.draw(this.page, stack, line, {
        x: MARGIN + indent,
        y: this.y,
        size,
        color: options.color ?? rgb(0, 0, 0),
      });
    }
  }

  gap(points: number): void {
    this.y -= points;
  }

  rule(): void {
    this.room(12);
    this.y -= 6;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4[0] - MARGIN, y: this.y },
      thickness: 0.7,
      color: RULE,
    });
    this.y -= 6;
  }

  /**
   * A label and its value on one line, the value wrapped under itself. A hash is written smaller,
   * so its 64 digits stay on one line for whoever copies them.
   */
  async pair(label: string, value: string, kind: "text" | "hash" = "text"): Promise<void> {
    const labelSize = 9.5;
    const size = kind === "hash" ? 8 : labelSize;
    const labelWidth = 120;
    const lines = await this.wrap(value, "text", size, this.width - labelWidth);
    for (const [i, line] of lines.entries()) {
      this.room(labelSize * 1.45);
      this.y -= labelSize * 1.45;
      if (i === 0)
        this.typesetter.draw(this.page, "bold", label, {
          x: MARGIN,
          y: this.y,
          size: labelSize,
          color: GREY,
        });
      this.typesetter.draw(this.page, "text", line, {
        x: MARGIN + labelWidth,
        y: this.y,
        size,
        color: BLACK,
      });
    }
  }

  /** A signature as it was sealed, in a box beside its label. */
  async signature(mark: SignatureMark): Promise<void> {
    const [width, height] = [200, 44];
    this.room(height + 10);
    this.y -= height + 6;
    const label = mark.kind === "typed" ? "Signature (typed)" : "Signature (drawn)";
    this.typesetter.draw(this.page, "bold", label, {
      x: MARGIN,
      y: this.y + height / 2 - 3,
      size: 9.5,
      color: GREY,
    });
    const x = MARGIN + 120;
    if (mark.kind === "drawn") {
      const image = await this.doc.embedPng(Buffer.from(mark.png, "base64"));
      const scale = Math.min(width / image.width, height / image.height);
      this.page.drawImage(image, { x, y: this.y, width: image.width * scale, height: image.height * scale });
    } else {
      const atOne = await this.typesetter.width("handwriting", mark.text, 1);
      const size = Math.min(height * 0.8, atOne > 0 ? (width - 4) / atOne : height * 0.8);
      this.typesetter.draw(this.page, "handwriting", mark.text, {
        x,
        y: this.y + height / 2 - size * 0.35,
        size,
        color: INK,
      });
    }
    this.page.drawLine({
      start: { x, y: this.y - 2 },
      end: { x: x + width, y: this.y - 2 },
      thickness: 0.5,
      color: RULE,
    });
  }

  /** Breaks text into lines no wider than `width`: at spaces where it can, anywhere where it must. */
  private async wrap(text: string, stack: StackName, size: number, width: number): Promise<string[]> {
    const fits = async (s: string) => (await this.typesetter.width(stack, s, size)) <= width;
    const lines: string[] = [];
    for (const given of text.replace(/\p{Cc}+/gu, " ").split(" ")) {
      let word = given;
      const last = lines.at(-1);
      if (last !== undefined && (await fits(`${last} ${word}`))) {
        lines[lines.length - 1] = `${last} ${word}`;
        continue;
      }
      while (!(await fits(word))) {
        // Cut between characters, never inside a surrogate pair.
        const characters = [...word];
        let cut = characters.length - 1;
        while (cut > 1 && !(await fits(characters.slice(0, cut).join("")))) cut--;
        lines.push(characters.slice(0, cut).join(""));
        word = characters.slice(cut).join("");
      }
      lines.push(word);
    }
    return lines;
  }
}

/** A file's size as people read it: "820 bytes", "48 KB", "2.4 MB". */
function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
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
  w.rule();

  await w.text("Documents", { size: 12, bold: true });
  for (const document of facts.documents) {
    await w.pair(
      "Original",
      `${document.filename} (${document.pageCount} page${document.pageCount === 1 ? "" : "s"})`,
    );
    await w.pair("SHA-256", document.sha256, "hash");
  }
  await w.pair("Signed pages", "the originals with every value filled in, before this certificate");
  await w.pair("SHA-256", facts.signedPagesSha256, "hash");
  w.rule();

  await w.text("Recipients", { size: 12, bold: true });
  for (const r of facts.recipients) {
    w.gap(4);
    await w.text(`${r.name} <${r.email}>`, { bold: true });
    await w.pair("Role", [KIND_NAMES[r.kind], r.role].filter(Boolean).join(", "));
    if (r.kind === "viewer") {
      await w.pair("Identified", r.identity);
      await w.pair("Viewed", when(r.viewedAt));
      await w.pair("IP address", r.ip || "—");
      await w.pair("Browser", browserSummary(r.userAgent));
    }
    if (r.kind === "approver") {
      await w.pair("Identified", r.identity);
      await w.pair("Viewed", when(r.viewedAt));
      await w.pair("Approved", when(r.signedAt));
      await w.pair("IP address", r.ip || "—");
      await w.pair("Browser", browserSummary(r.userAgent));
    }
    if (r.kind === "signer") {
      await w.pair("Identified", r.identity);
      await w.pair("Viewed", when(r.viewedAt));
      await w.pair("Agreed to sign", when(r.consentedAt));
      await w.pair("Signed", when(r.signedAt));
      await w.pair("IP address", r.ip || "—");
      await w.pair("Browser", browserSummary(r.userAgent));
      for (const file of r.attachments) {
        await w.pair(
          "Attached",
          `${file.filename} (${sizeText(file.sizeBytes)}), document ${file.documentId}`,
        );
        await w.pair("SHA-256", file.sha256, "hash");
      }
      if (r.signature) await w.signature(r.signature);
    }
  }
  w.rule();

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
}
