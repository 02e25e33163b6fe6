/**
 * The PDF text process: anchors and text tags found where a viewer shows them, each anchor at most
 * `limit` times; and a document from outside that it cannot or may not read — not a PDF, a page
 * tree naming millions of pages, more text than a reader takes — refused as unreadable, never a crash.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Code, ConnectError } from "@connectrpc/connect";
import { degrees, PDFDocument, StandardFonts } from "pdf-lib";
import { makePageCountBomb } from "../../../test/support/pdfs.js";
import { type Anchor, PdfTextReader, type TextBox } from "../src/pdf-text.js";

const reader = new PdfTextReader({ maxPages: 1000 });
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pdf-text-"));
});
afterAll(async () => {
  reader.close();
  await rm(dir, { recursive: true, force: true });
});

let files = 0;
/** The bytes as a file, which is what the process reads. */
async function fileOf(bytes: Uint8Array): Promise<string> {
  const path = join(dir, `${++files}.pdf`);
  await writeFile(path, bytes);
  return path;
}

async function findAnchors(bytes: Uint8Array, anchors: Anchor[], limit: number): Promise<TextBox[][]> {
  return reader.anchors(await fileOf(bytes), anchors, limit, "w");
}

async function pdfWith(
  draw: (page: import("pdf-lib").PDFPage, font: import("pdf-lib").PDFFont) => void,
  size: [number, number] = [612, 792],
) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  draw(pdf.addPage(size), font);
  pdf.addPage(size).drawText("second page /sig/", { x: 100, y: 100, size: 10, font });
  return readable(await pdf.save());
}

/** A document's anchors looked for one at a time, as the tests ask. */
interface Searchable {
  find(anchor: string, caseSensitive: boolean): Promise<TextBox[]>;
}

function readable(bytes: Uint8Array): Searchable {
  return {
    async find(anchor, caseSensitive) {
      const found = await findAnchors(bytes, [{ text: anchor, caseSensitive }], 1000);
      return found[0] ?? [];
    },
  };
}

/** The error a search of `bytes` fails with. */
async function refusal(bytes: Uint8Array, search = reader): Promise<ConnectError> {
  const failed = await search.tags(await fileOf(bytes), 10, "w").then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(failed instanceof ConnectError)) throw new Error(`expected a ConnectError, got ${String(failed)}`);
  return failed;
}

test("an anchor written as text of its own is found exactly, in the page's top-left coordinates", async () => {
  const text = await pdfWith((page, font) => page.drawText("/sig/", { x: 72, y: 300, size: 12, font }));
  const [box] = await text.find("/sig/", true);
  expect(box?.page).toBe(1);
  expect(box?.x).toBeCloseTo(72, 3);
  expect(box?.y).toBeCloseTo(792 - 300 - 12, 3);
  expect(box?.height).toBeCloseTo(12, 3);
  expect(box?.width).toBeGreaterThan(20);
});

test("every occurrence on every page is found; case is ignored unless asked for", async () => {
  const text = await pdfWith((page, font) => {
    page.drawText("Sign: /SIG/", { x: 72, y: 500, size: 12, font });
    page.drawText("/sig/ and /sig/", { x: 72, y: 400, size: 12, font });
  });
  expect((await text.find("/sig/", false)).map((b) => b.page)).toEqual([1, 1, 1, 2]);
  expect(await text.find("/sig/", true)).toHaveLength(3);
  expect(await text.find("/nowhere/", false)).toEqual([]);
  // Inside a run, the place is estimated along it: the second occurrence lies right of the first.
  const [first, second] = await text.find("/sig/", true);
  expect((second?.x ?? 0) - (first?.x ?? 0)).toBeGreaterThan(40);
});

test("a crop box and a rotated page are read as a viewer shows them", async () => {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const cropped = pdf.addPage([612, 792]);
  cropped.setCropBox(50, 50, 500, 700);
  cropped.drawText("/a/", { x: 100, y: 600, size: 12, font });
  const turned = pdf.addPage([612, 792]);
  turned.setRotation(degrees(90));
  turned.drawText("/b/", { x: 100, y: 600, size: 12, font });
  const text = readable(await pdf.save());
  const [a] = await text.find("/a/", true);
  // Relative to the crop box's top-left: (100 - 50, (50 + 700) - 600 - 12).
  expect(a?.x).toBeCloseTo(50, 3);
  expect(a?.y).toBeCloseTo(750 - 600 - 12, 3);
  const [b] = await text.find("/b/", true);
  // Turned a quarter clockwise, the page is 792 wide: the text's baseline origin moves to (600, 100).
  expect(b?.page).toBe(2);
  expect(b?.x).toBeCloseTo(600, 0);
  expect(b?.y).toBeCloseTo(100, 0);
});

test("text tags are every {{…}} of a run, and a {{ left open, in page order, at most `limit`", async () => {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const first = pdf.addPage([612, 792]);
  first.drawText("Sign here: {{signature:Client}} and {{date_signed:Client}}", {
    x: 72,
    y: 600,
    size: 11,
    font,
  });
  pdf.addPage([612, 792]).drawText("{{text:Client:Company", { x: 72, y: 500, size: 11, font });
  const path = await fileOf(await pdf.save());
  const tags = await reader.tags(path, 10, "w");
  expect(tags.map(({ text, page }) => [text, page])).toEqual([
    ["{{signature:Client}}", 1],
    ["{{date_signed:Client}}", 1],
    ["{{text:Client:Company", 2],
  ]);
  expect(tags[0]?.y).toBeCloseTo(792 - 600 - 11, 3);
  expect((tags[1]?.x ?? 0) - (tags[0]?.x ?? 0)).toBeGreaterThan(100);
  expect(await reader.tags(path, 2, "w")).toHaveLength(2);
});

test("a file pdf.js cannot read, or that is no PDF at all, is refused as unreadable text", async () => {
  for (const bytes of [
    new TextEncoder().encode("%PDF-1.7\n1 0 obj\n%%EOF"),
    new TextEncoder().encode("PK\u0003\u0004 a zip file, not a PDF"),
  ]) {
    const err = await refusal(bytes);
    expect({ code: err.code, message: err.rawMessage }).toEqual({
      code: Code.FailedPrecondition,
      message: "the document's text cannot be read: pdf.js cannot read it",
    });
  }
});

test("a page tree naming 2,000,000 pages is refused by its count, before any page is read", async () => {
  const err = await refusal(makePageCountBomb(2_000_000));
  expect({ code: err.code, message: err.rawMessage }).toEqual({
    code: Code.FailedPrecondition,
    message: "the document's text cannot be read: it has more than 1000 pages",
  });
});

test("more text than a reader takes is refused rather than read on; the process goes on reading others", async () => {
  const small = new PdfTextReader({ maxPages: 10, maxCharacters: 1000 });
  try {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([612, 792]);
    for (let line = 0; line < 20; line++)
      page.drawText("y".repeat(100), { x: 10, y: 770 - line * 18, size: 6, font });
    const err = await refusal(await pdf.save(), small);
    expect(err.rawMessage).toBe(
      "the document's text cannot be read: it holds more than 1000 characters of text",
    );
    const short = await PDFDocument.create();
    short
      .addPage()
      .drawText("{{signature:Client}}", { font: await short.embedFont(StandardFonts.Helvetica) });
    expect(await small.tags(await fileOf(await short.save()), 10, "w")).toHaveLength(1);
  } finally {
    small.close();
  }
});

test("several anchors are looked for in one reading, each found at most `limit` times", async () => {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < 10; p++) {
    const page = pdf.addPage([612, 792]);
    for (let line = 0; line < 40; line++) {
      page.drawText("x".repeat(120), { x: 10, y: 770 - line * 18, size: 6, font });
    }
  }
  lastPage(pdf).drawText("/sig/", { x: 72, y: 40, size: 12, font });
  const found = await findAnchors(
    await pdf.save(),
    [
      { text: "x", caseSensitive: false },
      { text: "/sig/", caseSensitive: true },
      { text: "/nowhere/", caseSensitive: false },
    ],
    501,
  );
  // 48,000 places of "x": the search stops at the limit rather than building them all.
  expect(found.map((boxes) => boxes.length)).toEqual([501, 1, 0]);
  expect(found[1]?.[0]?.page).toBe(10);
});

function lastPage(pdf: PDFDocument) {
  return pdf.getPage(pdf.getPageCount() - 1);
}

test("pdf.js reads in a process of its own: its core-js polyfills never replace the service's built-ins", async () => {
  // In a process of its own: Jest's module sandbox would hide a replaced built-in.
  const script = `
    import { writeFile } from "node:fs/promises";
    import { PDFDocument, StandardFonts } from "pdf-lib";
    const builtIns = () => [Array.prototype.push, JSON.stringify, JSON.parse];
    const before = builtIns();
    const { PdfTextReader } = await import(${JSON.stringify(new URL("../src/pdf-text.ts", import.meta.url).href)});
    const pdf = await PDFDocument.create();
    pdf.addPage().drawText("/sig/", { font: await pdf.embedFont(StandardFonts.Helvetica) });
    const path = ${JSON.stringify(join(dir, "polyfills.pdf"))};
    await writeFile(path, await pdf.save());
    const reader = new PdfTextReader({ maxPages: 10 });
    const found = await reader.anchors(path, [{ text: "/sig/", caseSensitive: true }], 10, "w");
    reader.close();
    const unchanged = builtIns().map((f, i) => f === before[i]);
    console.log(JSON.stringify({ found: found[0]?.length, unchanged }));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { cwd: fileURLToPath(new URL("..", import.meta.url)) },
  );
  expect(JSON.parse(stdout)).toEqual({ found: 1, unchanged: [true, true, true] });
});
