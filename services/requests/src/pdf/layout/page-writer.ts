/**
 * Lays out the pages this service writes itself — the certificate of completion, the audit trail's
 * report — on A4, top to bottom: wrapped text, label and value pairs, rules and signatures, a new
 * page when one is full, and blocks kept whole on one page. Text is set by the Typesetter, so every
 * script a name may be in is drawn.
 */
import { type PDFDocument, type PDFPage, rgb } from "pdf-lib";
import type { StackName } from "../../core/font-stacks.js";
import type { Typesetter } from "./typesetter.js";

/** A signer's signature as it was sealed: typed in the handwriting face, or drawn. */
export type SignatureMark = { kind: "typed"; text: string } | { kind: "drawn"; png: string };

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
export const GREY = rgb(0.35, 0.35, 0.4);
const BLACK = rgb(0, 0, 0);
const INK = rgb(0.07, 0.13, 0.36);
const RULE = rgb(0.8, 0.82, 0.86);

export function when(date: Date | null): string {
  return date ? `${date.toISOString().replace("T", " ").slice(0, 19)} UTC` : "—";
}

/** Lays out lines top to bottom, starting a new page when one is full. */
export class PageWriter {
  private page!: PDFPage;
  private y = 0;
  /**
   * While a block is measured (`together`): lines move `y` down, nothing is drawn, no page is
   * added, and `lowest` is the lowest point a line asked room down to.
   */
  private measuring = false;
  private lowest = 0;
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
    if (this.measuring) this.lowest = Math.min(this.lowest, this.y - height);
    else if (this.y - height < MARGIN) this.newPage();
  }

  /**
   * Lays out what `block` writes on one page: measured first, on a new page when the rest of this
   * one is too short for it. A block taller than a whole page starts where it is and splits where
   * pages end, as any text does.
   */
  async together(block: () => Promise<void>): Promise<void> {
    if (this.measuring) return block();
    const top = this.y;
    this.measuring = true;
    this.lowest = top;
    try {
      await block();
    } finally {
      this.measuring = false;
    }
    const height = top - Math.min(this.y, this.lowest);
    this.y = top;
    if (top - height < MARGIN && height <= A4[1] - 2 * MARGIN) this.newPage();
    await block();
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
      if (this.measuring) continue;
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
    if (!this.measuring)
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
      if (this.measuring) continue;
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
    if (this.measuring) return;
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
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Writes a line at the foot of every page of `doc`, such as its number: `text(page, pages)`. */
export function footer(
  doc: PDFDocument,
  typesetter: Typesetter,
  text: (page: number, pages: number) => string,
): void {
  const pages = doc.getPages();
  for (const [i, page] of pages.entries()) {
    typesetter.draw(page, "text", text(i + 1, pages.length), {
      x: MARGIN,
      y: MARGIN / 2,
      size: 8,
      color: GREY,
    });
  }
}
