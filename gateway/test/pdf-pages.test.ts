import { PDFDocument, StandardFonts } from "pdf-lib";
import { composePdf } from "../src/restapi/pdf-pages.js";

async function numbered(pages: number, label: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++)
    pdf.addPage([200 + i, 300]).drawText(`${label}${i}`, { font, x: 10, y: 10 });
  return pdf.save();
}

test("parts are joined in order, each whole or cut to the pages asked for", async () => {
  const made = await PDFDocument.load(
    await composePdf([{ bytes: await numbered(3, "a") }, { bytes: await numbered(4, "b"), pages: [3, 1] }]),
  );
  // Page widths tell the pages apart: a0..a2 are 200..202 wide, b1 201 and b3 203.
  expect(made.getPages().map((p) => p.getWidth())).toEqual([200, 201, 202, 203, 201]);
});

test("the parts' own bytes stay usable: the process gets copies", async () => {
  const bytes = await numbered(2, "c");
  await composePdf([{ bytes }]);
  expect((await PDFDocument.load(bytes)).getPageCount()).toBe(2);
});

test("a thousand-page document is cut and joined while the caller's event loop keeps turning", async () => {
  const long = await numbered(1000, "p");
  const before = performance.eventLoopUtilization();
  const cut = await composePdf([{ bytes: long, pages: [0, 999] }, { bytes: long }]);
  const busy = performance.eventLoopUtilization(before).utilization;
  expect((await PDFDocument.load(cut)).getPageCount()).toBe(1002);
  // This process only waited (0.01 measured); pdf-lib working here kept its loop busy 0.62 of the time.
  expect(busy).toBeLessThan(0.2);
});
