/**
 * PDFs that must not be signed as they are, as an attacker or a careless exporter makes them:
 * JavaScript run on opening, a launch action on a link, an embedded file, a filled form, an
 * incremental update, and an object kept aside that nothing uses (a shadow attack's hiding place);
 * and a signed PDF whose form names its one signature from many fields, for the verifier.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFString, StandardFonts } from "pdf-lib";
import { appendRevision } from "../../services/requests/src/pdf/pades/incremental-update.js";
import { makePdf } from "./pdfs.js";

/** JavaScript in the document's name tree and run when it opens. */
export async function makePdfWithJavaScript(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makePdf(1));
  const script = doc.context.register(
    doc.context.obj({ S: "JavaScript", JS: PDFString.of("app.alert('hi')") }),
  );
  doc.catalog.set(PDFName.of("OpenAction"), script);
  doc.catalog.set(
    PDFName.of("Names"),
    doc.context.obj({ JavaScript: { Names: [PDFString.of("greeting"), script] } }),
  );
  return doc.save();
}

/** A link that launches a program, beside one that opens a web page (which stays). */
export async function makePdfWithLinks(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makePdf(1));
  const page = doc.getPage(0);
  const launch = doc.context.obj({
    Type: "Annot",
    Subtype: "Link",
    Rect: [50, 50, 150, 80],
    A: { S: "Launch", F: PDFString.of("calc.exe") },
  });
  const web = doc.context.obj({
    Type: "Annot",
    Subtype: "Link",
    Rect: [200, 50, 300, 80],
    A: { S: "URI", URI: PDFString.of("https://example.com/terms") },
  });
  page.node.set(
    PDFName.of("Annots"),
    doc.context.obj([doc.context.register(launch), doc.context.register(web)]),
  );
  return doc.save();
}

/** A file attached to the page. */
export async function makePdfWithAttachment(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makePdf(1));
  await doc.attach(Buffer.from("MZ not a program"), "invoice.exe", { mimeType: "application/octet-stream" });
  return doc.save();
}

/** A form with a text field filled in ("Acme Corp") and a checked box. */
export async function makeFilledForm(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makePdf(1));
  const form = doc.getForm();
  const company = form.createTextField("company");
  company.setText("Acme Corp");
  company.addToPage(doc.getPage(0), {
    x: 60,
    y: 500,
    width: 200,
    height: 24,
    font: await doc.embedFont(StandardFonts.Helvetica),
  });
  const agree = form.createCheckBox("agree");
  agree.check();
  agree.addToPage(doc.getPage(0), { x: 60, y: 460, width: 14, height: 14 });
  return doc.save();
}

/** The document with a second revision that changes its first page's text. */
export async function makeUpdatedPdf(): Promise<Uint8Array> {
  return appendRevision(await makePdf(1), (doc) => {
    doc.getPage(0).drawText("Amended", { x: 60, y: 300, size: 18 });
  });
}

/** The document with an object nothing refers to: what a later update could bring in unseen. */
export async function makePdfWithUnusedObject(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makePdf(1));
  const overlay = doc.context.flateStream("BT /F1 48 Tf 100 400 Td (PAID IN FULL) Tj ET");
  doc.context.register(overlay);
  return doc.save();
}

/**
 * `signed` with a revision adding `fields` signature fields that all name its first signature's
 * dictionary (/V): a verifier that reads the covered bytes once per field reads them `fields` times.
 */
export async function makeFieldsShareSignature(signed: Uint8Array, fields: number): Promise<Uint8Array> {
  return appendRevision(signed, (doc) => {
    const form = doc.catalog.lookup(PDFName.of("AcroForm"), PDFDict);
    const list = form.lookup(PDFName.of("Fields"), PDFArray);
    const value = list
      .asArray()
      .map((field) => doc.context.lookup(field, PDFDict).get(PDFName.of("V")))
      .find((v) => v instanceof PDFRef);
    if (!value) throw new Error("the PDF has no signature field whose value is a reference");
    for (let i = 0; i < fields; i += 1) {
      list.push(doc.context.register(doc.context.obj({ FT: "Sig", T: PDFString.of(`Copy${i}`), V: value })));
    }
  });
}
