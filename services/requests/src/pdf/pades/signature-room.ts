/**
 * Empty signatures laid into a PDF, to be filled once its bytes are final: a signature dictionary
 * whose /ByteRange is a placeholder of fixed width and whose /Contents is a run of zeros long
 * enough for the CMS, with the field and the invisible widget that hold it. The seal is laid as a
 * certification signature (DocMDP, P 2): a reader shows any later change but form filling and
 * signing — which covers the long-term validation data and document time-stamps added after it.
 */
import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFRef,
  PDFString,
} from "pdf-lib";

/** Ten characters: the widest offset a placeholder takes, 9,999,999,999 bytes. */
const PLACEHOLDER = "**********";
/** The byte range's last three numbers as laid: byte-range.ts finds the newest room by them. */
export const BYTE_RANGE_PLACEHOLDER = `/${PLACEHOLDER} /${PLACEHOLDER} /${PLACEHOLDER}`;

export interface SealRoomOptions {
  /** What readers show as the signer and the reason. */
  name: string;
  reason: string;
  /** The time the seal claims (/M); a time-stamp, when there is one, is the proof. */
  signingTime: Date;
  /** Bytes the CMS may take. */
  contentsBytes: number;
  /** The request the document completes, kept in the signature so that a verifier can name it. */
  requestId: string;
  /** A test request's seal says so where the seal covers it, so that a verifier can tell. */
  test: boolean;
}

/** The seal dictionary's own key naming the request (a verifier reads it from the file alone). */
export const REQUEST_KEY = "CountersignRequest";
/** The seal dictionary's own key marking a test seal: output of a test key, not legally binding. */
export const TEST_KEY = "CountersignTest";

function byteRangePlaceholder(doc: PDFDocument): PDFArray {
  const range = PDFArray.withContext(doc.context);
  range.push(PDFNumber.of(0));
  for (let i = 0; i < 3; i += 1) range.push(PDFName.of(PLACEHOLDER));
  return range;
}

/**
 * A signature field on the last page (invisible: a reader lists it in its signature panel) holding
 * `signature`, added to the document's form.
 */
function addSignatureField(doc: PDFDocument, signature: PDFRef, title: string): void {
  const page = doc.getPage(doc.getPageCount() - 1);
  const widget = doc.context.register(
    doc.context.obj({
      Type: "Annot",
      Subtype: "Widget",
      FT: "Sig",
      T: PDFString.of(title),
      V: signature,
      Rect: [0, 0, 0, 0],
      // Print and Locked: nothing to see, nothing to move.
      F: 132,
      P: page.ref,
    }),
  );
  const annots = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray);
  if (annots) annots.push(widget);
  else page.node.set(PDFName.of("Annots"), doc.context.obj([widget]));
  const form = doc.catalog.lookupMaybe(PDFName.of("AcroForm"), PDFDict);
  if (form) {
    const fields = form.lookupMaybe(PDFName.of("Fields"), PDFArray);
    if (fields) fields.push(widget);
    else form.set(PDFName.of("Fields"), doc.context.obj([widget]));
    form.set(PDFName.of("SigFlags"), PDFNumber.of(3));
  } else {
    const created = doc.context.register(doc.context.obj({ Fields: [widget], SigFlags: 3 }));
    doc.catalog.set(PDFName.of("AcroForm"), created);
  }
}

/** Lays the seal's empty certification signature into `doc`. */
export function laySealRoom(doc: PDFDocument, options: SealRoomOptions): void {
  const { context } = doc;
  const signature = context.register(
    context.obj({
      Type: "Sig",
      Filter: "Adobe.PPKLite",
      SubFilter: "ETSI.CAdES.detached",
      ByteRange: byteRangePlaceholder(doc),
      Contents: PDFHexString.of("0".repeat(options.contentsBytes * 2)),
      Name: PDFHexString.fromText(options.name),
      Reason: PDFHexString.fromText(options.reason),
      M: PDFString.fromDate(options.signingTime),
      Reference: [
        {
          Type: "SigRef",
          TransformMethod: "DocMDP",
          TransformParams: { Type: "TransformParams", P: 2, V: "1.2" },
        },
      ],
      Prop_Build: { App: { Name: "Countersign" } },
      [REQUEST_KEY]: PDFString.of(options.requestId),
      ...(options.test ? { [TEST_KEY]: true } : {}),
    }),
  );
  addSignatureField(doc, signature, "Countersign seal");
  doc.catalog.set(PDFName.of("Perms"), context.obj({ DocMDP: signature }));
}

/** Lays an empty document time-stamp (ETSI.RFC3161) into `doc`, for a revision of its own. */
export function layTimestampRoom(doc: PDFDocument, contentsBytes: number): void {
  const signature = doc.context.register(
    doc.context.obj({
      Type: "DocTimeStamp",
      Filter: "Adobe.PPKLite",
      SubFilter: "ETSI.RFC3161",
      ByteRange: byteRangePlaceholder(doc),
      Contents: PDFHexString.of("0".repeat(contentsBytes * 2)),
    }),
  );
  addSignatureField(doc, signature, `Countersign time-stamp ${signature.objectNumber}`);
}
