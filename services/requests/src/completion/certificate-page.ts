/**
 * The certificate of completion appended to a sealed PDF: what was signed (each original's
 * SHA-256 and the signed pages' SHA-256), by whom, from where and when, and the head of the
 * request's audit chain, so the printout alone ties the document to its trail.
 */
import { type PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import type { TextFonts } from "./fonts.js";

export interface CertificateRecipient {
  name: string;
  email: string;
  role: string;
  kind: "signer" | "cc";
  viewedAt: Date | null;
  signedAt: Date | null;
  consentedAt: Date | null;
  ip: string;
  userAgent: string;
}

export interface CertificateFacts {
  requestId: string;
  title: string;
  completedAt: Date;
  documents: { filename: string; pageCount: number; sha256: string }[];
  /** SHA-256 of the signed pages: the originals with every value drawn, before this certificate. */
  signedPagesSha256: string;
  recipients: CertificateRecipient[];
  audit: { entries: number; headHash: string };
  sealedBy: string;
}

/** Every text of the certificate that comes from people rather than from us: it decides the font. */
export function certificateTexts(facts: CertificateFacts): string[] {
  return [
    facts.title,
    facts.sealedBy,
    ...facts.documents.map((d) => d.filename),
    ...facts.recipients.flatMap((r) => [r.name, r.email, r.role, r.userAgent]),
  ];
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const GREY = rgb(0.35, 0.35, 0.4);
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
    private readonly fonts: TextFonts,
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
  text(
    value: string,
    options: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; indent?: number } = {},
  ) {
    const size = options.size ?? 9.5;
    const font = options.bold ? this.fonts.bold : this.fonts.regular;
    const indent = options.indent ?? 0;
    for (const line of wrap(value, font, size, this.width - indent)) {
      this.room(size * 1.45);
      this.y -= size * 1.45;
      this.page.drawText(line, {
        x: MARGIN + indent,
        y: this.y,
        size,
        font,
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
  pair(label: string, value: string, kind: "text" | "hash" = "text"): void {
    const labelSize = 9.5;
    const size = kind === "hash" ? 8 : labelSize;
    const labelWidth = 120;
    const lines = wrap(value, this.fonts.regular, size, this.width - labelWidth);
    lines.forEach((line, i) => {
      this.room(labelSize * 1.45);
      this.y -= labelSize * 1.45;
      if (i === 0)
        this.page.drawText(label, {
          x: MARGIN,
          y: this.y,
          size: labelSize,
          font: this.fonts.bold,
          color: GREY,
        });
      this.page.drawText(line, { x: MARGIN + labelWidth, y: this.y, size, font: this.fonts.regular });
    });
  }
}

/** Breaks text into lines no wider than `width`: at spaces where it can, anywhere where it must. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  const lines: string[] = [];
  for (const given of text.replace(/\p{Cc}+/gu, " ").split(" ")) {
    let word = given;
    const last = lines.length > 0 ? lines[lines.length - 1] : undefined;
    if (last !== undefined && fits(`${last} ${word}`)) {
      lines[lines.length - 1] = `${last} ${word}`;
      continue;
    }
    while (!fits(word)) {
      let cut = word.length - 1;
      while (cut > 1 && !fits(word.slice(0, cut))) cut--;
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
    }
    lines.push(word);
  }
  return lines;
}

/** A font that cannot write a character gets a question mark instead of failing the whole page. */
function writable(font: PDFFont, text: string): string {
  const has = new Set(font.getCharacterSet());
  return [...text].map((c) => (has.has(c.codePointAt(0) as number) || c === " " ? c : "?")).join("");
}

export function appendCertificate(doc: PDFDocument, facts: CertificateFacts, fonts: TextFonts): void {
  const w = new PageWriter(doc, fonts);
  const t = (s: string) => writable(fonts.regular, s);
  w.text("Certificate of completion", { size: 18, bold: true });
  w.gap(4);
  w.text(t(facts.title), { size: 12 });
  w.gap(6);
  w.pair("Request ID", facts.requestId);
  w.pair("Completed", when(facts.completedAt));
  w.pair("Sealed by", t(facts.sealedBy));
  w.rule();

  w.text("Documents", { size: 12, bold: true });
  for (const document of facts.documents) {
    w.pair(
      "Original",
      t(`${document.filename} (${document.pageCount} page${document.pageCount === 1 ? "" : "s"})`),
    );
    w.pair("SHA-256", document.sha256, "hash");
  }
  w.pair("Signed pages", "the originals with every value filled in, before this certificate");
  w.pair("SHA-256", facts.signedPagesSha256, "hash");
  w.rule();

  w.text("Recipients", { size: 12, bold: true });
  for (const r of facts.recipients) {
    w.gap(4);
    w.text(t(`${r.name} <${r.email}>`), { bold: true });
    w.pair("Role", t([r.kind === "cc" ? "copy recipient" : "signer", r.role].filter(Boolean).join(", ")));
    if (r.kind === "signer") {
      w.pair("Viewed", when(r.viewedAt));
      w.pair("Agreed to sign", when(r.consentedAt));
      w.pair("Signed", when(r.signedAt));
      w.pair("IP address", r.ip || "—");
      w.pair("User agent", t(r.userAgent || "—"));
    }
  }
  w.rule();

  w.text("Audit trail", { size: 12, bold: true });
  w.pair("Entries", String(facts.audit.entries));
  w.pair("Chain head", facts.audit.headHash, "hash");
  w.gap(8);
  w.text(
    "Each audit entry holds the SHA-256 of the one before; the chain head above is the hash of the last entry " +
      "before completion. The document is sealed with a digital signature over the whole file: any change " +
      "after sealing shows the signature as invalid.",
    { size: 8.5, color: GREY },
  );
}
