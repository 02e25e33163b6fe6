/**
 * What changed in a PDF after a revision, judged as PAdES allows a certified document to change:
 * validation data (the document security store) and further signatures and document time-stamps
 * — their dictionaries, fields and widgets — and nothing else. Every other object added or changed
 * after the sealed revision is reported in words: a page's content, an annotation, the catalog's
 * actions. Objects are compared by their serialisation in the sealed revision and in the file.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFObject, PDFRawStream, PDFRef } from "pdf-lib";

const bytesOf = (object: PDFObject) => {
  const out = Buffer.alloc(object.sizeInBytes());
  object.copyBytesInto(out, 0);
  return out;
};

const name = (dict: PDFDict, key: string) => dict.lookupMaybe(PDFName.of(key), PDFName)?.decodeText();

/** Whether `dict` is a signature's widget or field, or a signature or time-stamp dictionary. */
function isSignaturePart(dict: PDFDict): boolean {
  const type = name(dict, "Type");
  return name(dict, "FT") === "Sig" || type === "Sig" || type === "DocTimeStamp";
}

/** Keys that lead back up the document (a widget's page, a field's parent), not into a part. */
const UPWARD = new Set(["P", "Parent", "Data"]);

/** Every object reachable from `root` without going back up the document, the root included. */
function closure(doc: PDFDocument, root: PDFObject | undefined, into: Set<string>): void {
  const stack: PDFObject[] = root ? [root] : [];
  while (stack.length > 0) {
    const object = stack.pop() as PDFObject;
    if (object instanceof PDFRef) {
      if (into.has(object.tag)) continue;
      into.add(object.tag);
      const target = doc.context.lookup(object);
      if (target) stack.push(target);
    } else if (object instanceof PDFDict) {
      for (const [key, value] of object.entries()) if (!UPWARD.has(key.decodeText())) stack.push(value);
    } else if (object instanceof PDFArray) {
      stack.push(...object.asArray());
    } else if (object instanceof PDFRawStream) {
      for (const [, value] of object.dict.entries()) stack.push(value);
    }
  }
}

/** The entries of `key` in both dictionaries: the later must start with the earlier, and what it adds be signatures'. */
function onlySignaturesAppended(
  doc: PDFDocument,
  before: PDFArray | undefined,
  after: PDFArray | undefined,
): boolean {
  const old = before?.asArray().map(String) ?? [];
  const now = after?.asArray() ?? [];
  if (now.length < old.length || old.some((entry, i) => entry !== String(now[i]))) return false;
  return now.slice(old.length).every((entry) => {
    const dict = entry instanceof PDFRef ? doc.context.lookup(entry) : entry;
    return dict instanceof PDFDict && isSignaturePart(dict);
  });
}

/** `before` and `after` equal but for `keys`. */
function equalBut(before: PDFDict, after: PDFDict, keys: string[]): boolean {
  const strip = (dict: PDFDict) => {
    const copy = dict.clone();
    for (const key of keys) copy.delete(PDFName.of(key));
    return bytesOf(copy);
  };
  return strip(before).equals(strip(after));
}

/**
 * What changed in `doc` (the whole file) since the revision that ends at `revisionEnd` of `pdf`,
 * as sentences; empty when every change is one PAdES allows.
 */
export async function changesAfter(
  pdf: Uint8Array,
  revisionEnd: number,
  doc: PDFDocument,
): Promise<string[]> {
  const sealed = await PDFDocument.load(pdf.subarray(0, revisionEnd), { updateMetadata: false });
  const pages = new Map(doc.getPages().map((page, i) => [page.ref.tag, i + 1]));
  // The validation data may grow: new objects under the DSS, and the DSS and its lists themselves
  // (nothing that was there already besides, which a page might use too).
  const validationData = new Set<string>();
  closure(doc, doc.catalog.get(PDFName.of("DSS")), validationData);
  const validationLists = new Set<string>();
  const dss = doc.catalog.get(PDFName.of("DSS"));
  if (dss instanceof PDFRef) validationLists.add(dss.tag);
  const dssDict = doc.catalog.lookupMaybe(PDFName.of("DSS"), PDFDict);
  for (const key of ["Certs", "OCSPs", "CRLs", "VRI"]) {
    const list = dssDict?.get(PDFName.of(key));
    if (list instanceof PDFRef) validationLists.add(list.tag);
  }
  const newSignatures = new Set<string>();
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && isSignaturePart(object) && !sealed.context.lookup(ref)) {
      closure(doc, ref, newSignatures);
    }
  }
  const catalogRef = doc.context.trailerInfo.Root as PDFRef;
  const problems: string[] = [];
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    const was = sealed.context.lookup(ref);
    if (was && bytesOf(was).equals(bytesOf(object))) continue;
    if (validationData.has(ref.tag) && (!was || validationLists.has(ref.tag))) continue;
    if (!was && newSignatures.has(ref.tag)) continue;
    if (ref.tag === catalogRef.tag && was instanceof PDFDict && object instanceof PDFDict) {
      if (!equalBut(was, object, ["DSS", "AcroForm"]))
        problems.push("the document catalog changed after sealing");
      continue;
    }
    if (was instanceof PDFDict && object instanceof PDFDict && name(object, "Type") === "Page") {
      const annotations = onlySignaturesAppended(
        doc,
        was.lookupMaybe(PDFName.of("Annots"), PDFArray),
        object.lookupMaybe(PDFName.of("Annots"), PDFArray),
      );
      const page = pages.get(ref.tag);
      if (!equalBut(was, object, ["Annots"])) problems.push(`page ${page} changed after sealing`);
      else if (!annotations)
        problems.push(`an annotation was added to or removed from page ${page} after sealing`);
      continue;
    }
    if (was instanceof PDFDict && object instanceof PDFDict && object.has(PDFName.of("Fields"))) {
      const fields = onlySignaturesAppended(
        doc,
        was.lookupMaybe(PDFName.of("Fields"), PDFArray),
        object.lookupMaybe(PDFName.of("Fields"), PDFArray),
      );
      if (!fields || !equalBut(was, object, ["Fields", "SigFlags"]))
        problems.push("the form changed after sealing");
      continue;
    }
    if (was instanceof PDFArray && object instanceof PDFArray && onlySignaturesAppended(doc, was, object))
      continue;
    problems.push(
      `${was ? "object" : "a new object"} ${ref.objectNumber} (${describe(object, pages, ref)}) ${was ? "changed" : "was added"} after sealing`,
    );
  }
  return problems;
}

function describe(object: PDFObject, pages: Map<string, number>, ref: PDFRef): string {
  if (pages.has(ref.tag)) return `page ${pages.get(ref.tag)}`;
  if (object instanceof PDFRawStream) {
    const subtype = object.dict.lookupMaybe(PDFName.of("Subtype"), PDFName)?.decodeText();
    return subtype === "Image"
      ? "an image"
      : subtype === "Form"
        ? "a drawing"
        : "a stream, such as page content";
  }
  if (object instanceof PDFDict) {
    const type =
      name(object, "Type") ?? name(object, "Subtype") ?? (object.has(PDFName.of("S")) ? "action" : undefined);
    if (name(object, "Subtype") && name(object, "Type") === "Annot")
      return `a ${name(object, "Subtype")} annotation`;
    return type ? `a ${type} dictionary` : "a dictionary";
  }
  return object instanceof PDFArray ? "an array" : "a value";
}
