/**
 * An incremental update keeps every byte of the revision before it and holds every object its
 * change uses, including those pdf-lib writes only when a document is saved (a font that drawn
 * text embeds): poppler reads the result without a syntax error and shows the new text.
 */
import { PDFDocument, PDFName } from "pdf-lib";
import { pdfText, qpdfCheck } from "../../../test/support/pdf-tools.js";
import { makePdf } from "../../../test/support/pdfs.js";
import { appendRevision } from "../src/pdf/pades/incremental-update.js";

test("a revision that draws text holds its font; the earlier revision is kept byte for byte", async () => {
  const original = await makePdf(1);
  const updated = await appendRevision(original, (doc) => {
    doc.getPage(0).drawText("Amended", { x: 60, y: 300, size: 18 });
  });

  expect(Buffer.from(updated.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
  const text = await pdfText(updated);
  expect(text).toContain("Amended");
  expect(text).not.toMatch(/Syntax Error|Internal Error/);
  expect(await qpdfCheck(updated)).toContain("No syntax or stream encoding errors");
  const fonts = (await PDFDocument.load(updated)).getPage(0).node.Resources()?.lookup(PDFName.of("Font"));
  expect(fonts?.toString()).toMatch(/Helvetica/);
});
