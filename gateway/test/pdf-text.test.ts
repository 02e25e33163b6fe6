import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { degrees, PDFDocument, StandardFonts } from "pdf-lib";
import { findAnchors, type TextBox } from "../src/pdf-text.js";

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
      if (!found) throw new Error("pdf.js could not read the PDF");
      return found[0] ?? [];
    },
  };
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

test("a file pdf.js cannot read has no places, rather than an exception", async () => {
  const unreadable = new TextEncoder().encode("%PDF-1.7\n1 0 obj\n%%EOF");
  expect(await findAnchors(unreadable, [{ text: "x", caseSensitive: false }], 10)).toBeUndefined();
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
  expect(found?.map((boxes) => boxes.length)).toEqual([501, 1, 0]);
  expect(found?.[1]?.[0]?.page).toBe(10);
});

function lastPage(pdf: PDFDocument) {
  return pdf.getPage(pdf.getPageCount() - 1);
}

test("pdf.js reads in a thread of its own: its core-js polyfills never replace the gateway's built-ins", async () => {
  // In a process of its own: Jest's module sandbox would hide a replaced built-in.
  const script = `
    import { PDFDocument, StandardFonts } from "pdf-lib";
    const builtIns = () => [Array.prototype.push, JSON.stringify, JSON.parse];
    const before = builtIns();
    const { findAnchors } = await import(${JSON.stringify(new URL("../src/pdf-text.ts", import.meta.url).href)});
    const pdf = await PDFDocument.create();
    pdf.addPage().drawText("/sig/", { font: await pdf.embedFont(StandardFonts.Helvetica) });
    const found = await findAnchors(await pdf.save(), [{ text: "/sig/", caseSensitive: true }], 10);
    const unchanged = builtIns().map((f, i) => f === before[i]);
    console.log(JSON.stringify({ found: found?.[0]?.length, unchanged }));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { cwd: fileURLToPath(new URL("..", import.meta.url)) },
  );
  expect(JSON.parse(stdout)).toEqual({ found: 1, unchanged: [true, true, true] });
});
