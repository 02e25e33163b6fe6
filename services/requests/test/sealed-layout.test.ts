/**
 * Where the sealed PDF puts what it writes, read back from the drawn file with poppler's
 * `pdftotext -bbox`: values in their boxes, dates in one form, the certificate's blocks on a page.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePdf } from "../../../test/support/pdfs.js";
import { drawSignerCopy } from "../src/completion/sealed-document.js";
import type { StoredValue } from "../src/field-values.js";
import type { StoredField } from "../src/store.js";

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
    ],
    [
      ["ar", { kind: "text", text: "شركة النور" }],
      ["ar-number", { kind: "text", text: "١٢٣ درهم" }],
      ["en", { kind: "text", text: "ACME شركة" }],
      ["mixed", { kind: "text", text: "123 محمد Ltd" }],
    ],
  );
  const line = (top: number) => words.filter((w) => w.yMin > top - 6 && w.yMin < top + 24);
  const right = (top: number) => Math.max(...line(top).map((w) => w.xMax));
  const left = (top: number) => Math.min(...line(top).map((w) => w.xMin));
  // The box runs from x 100 to 400; a value is set 2 points in from its edge.
  for (const top of [200, 260, 380]) {
    expect(line(top).length).toBeGreaterThan(0);
    expect(right(top)).toBeGreaterThan(395);
    expect(left(top)).toBeGreaterThan(150);
  }
  expect(left(320)).toBeLessThan(105);
  expect(right(320)).toBeLessThan(300);
});
