// @ts-check
/**
 * Makes an uploaded PDF safe to sign, in the inspection thread (pdf-inspection-worker.mjs), so that
 * what a signer sees is what is sealed (pdf-insecurity.org): active content goes — JavaScript, the
 * actions run on opening or on events, launches and form submissions, embedded files, XFA, media —
 * form fields are flattened into the pages, and the file is written again as one revision holding
 * only the objects its document uses, which leaves a shadow attack nothing to hide in: no earlier
 * revision, no object kept aside for a later update to bring in. A file that needs none of this is
 * kept byte for byte. JavaScript, not TypeScript, like the thread that loads it.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream } from "pdf-lib";

/** Actions that run code, open or send elsewhere, or change the document; links (URI, GoTo) stay. */
const ACTIVE_ACTIONS = new Set([
  "JavaScript",
  "Launch",
  "SubmitForm",
  "ImportData",
  "ResetForm",
  "GoToE",
  "GoToR",
  "Rendition",
  "RichMediaExecute",
  "Hide",
  "SetOCGState",
  "Movie",
  "Sound",
]);

/** Annotations that carry files or media rather than marks on the page. */
const ACTIVE_ANNOTATIONS = new Set(["FileAttachment", "RichMedia", "Movie", "Sound", "Screen", "3D"]);

const name = (/** @type {PDFDict} */ dict, /** @type {string} */ key) =>
  dict.lookupMaybe(PDFName.of(key), PDFName)?.decodeText();

/** Whether `value` (an action dictionary, or a chain through /Next) holds an active action. */
function isActive(/** @type {PDFDocument} */ pdf, /** @type {unknown} */ value, depth = 0) {
  const action = value instanceof PDFRef ? pdf.context.lookup(value) : value;
  if (!(action instanceof PDFDict) || depth > 32) return false;
  if (ACTIVE_ACTIONS.has(name(action, "S") ?? "")) return true;
  const next = action.get(PDFName.of("Next"));
  const chain = next instanceof PDFArray ? next.asArray() : next ? [next] : [];
  return chain.some((item) => isActive(pdf, item, depth + 1));
}

/** Every object the trailer's root and info reach. */
function reachable(/** @type {PDFDocument} */ pdf) {
  /** @type {Set<string>} */
  const seen = new Set();
  /** @type {unknown[]} */
  const stack = [pdf.context.trailerInfo.Root, pdf.context.trailerInfo.Info];
  while (stack.length > 0) {
    const object = stack.pop();
    if (object instanceof PDFRef) {
      if (seen.has(object.tag)) continue;
      seen.add(object.tag);
      stack.push(pdf.context.lookup(object));
    } else if (object instanceof PDFDict) {
      for (const [, value] of object.entries()) stack.push(value);
    } else if (object instanceof PDFArray) {
      stack.push(...object.asArray());
    } else if (object instanceof PDFStream) {
      for (const [, value] of object.dict.entries()) stack.push(value);
    }
  }
  return seen;
}

/**
 * Removes from `pdf` (read from `bytes`) what must not be signed, and says what it removed; when it
 * says nothing, `bytes` are fine as they are. Throws a sentence when the form cannot be flattened.
 * @param {PDFDocument} pdf @param {Uint8Array} bytes
 * @returns {string[]}
 */
export function sanitize(pdf, bytes) {
  /** @type {Set<string>} */
  const removed = new Set();
  const { catalog } = pdf;
  // Counted before anything is removed: what the removals below leave unused is not the file's doing.
  const usedAsSent = reachable(pdf);
  let unusedAsSent = 0;
  for (const [ref] of pdf.context.enumerateIndirectObjects()) if (!usedAsSent.has(ref.tag)) unusedAsSent += 1;

  const openAction = catalog.lookup(PDFName.of("OpenAction"));
  if (openAction instanceof PDFDict) {
    catalog.delete(PDFName.of("OpenAction"));
    removed.add("the action run when the document opens");
  }
  if (catalog.has(PDFName.of("AA"))) {
    catalog.delete(PDFName.of("AA"));
    removed.add("actions run on document events");
  }
  const names = catalog.lookupMaybe(PDFName.of("Names"), PDFDict);
  for (const [key, what] of [
    ["JavaScript", "JavaScript"],
    ["EmbeddedFiles", "embedded files"],
  ]) {
    if (names?.has(PDFName.of(key))) {
      names.delete(PDFName.of(key));
      removed.add(what);
    }
  }

  for (const page of pdf.getPages()) {
    if (page.node.has(PDFName.of("AA"))) {
      page.node.delete(PDFName.of("AA"));
      removed.add("actions run on page events");
    }
    const annots = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray);
    if (!annots) continue;
    for (let i = annots.size() - 1; i >= 0; i -= 1) {
      const annot = annots.lookupMaybe(i, PDFDict);
      if (!annot) continue;
      if (ACTIVE_ANNOTATIONS.has(name(annot, "Subtype") ?? "")) {
        annots.remove(i);
        removed.add(name(annot, "Subtype") === "FileAttachment" ? "embedded files" : "media");
        continue;
      }
      if (annot.has(PDFName.of("AA"))) {
        annot.delete(PDFName.of("AA"));
        removed.add("actions run on annotation events");
      }
      if (isActive(pdf, annot.get(PDFName.of("A")))) {
        annot.delete(PDFName.of("A"));
        removed.add("actions that run code, open files or send data");
      }
    }
  }

  const form = catalog.lookupMaybe(PDFName.of("AcroForm"), PDFDict);
  if (form?.has(PDFName.of("XFA"))) {
    form.delete(PDFName.of("XFA"));
    removed.add("the XFA form");
  }
  const fields = form?.lookupMaybe(PDFName.of("Fields"), PDFArray);
  if (fields && fields.size() > 0) {
    try {
      pdf.getForm().flatten();
    } catch {
      throw new Error("its form fields cannot be flattened into the pages; print it to PDF and upload that");
    }
    catalog.delete(PDFName.of("AcroForm"));
    removed.add("form fields (flattened into the pages as they look)");
    // pdf-lib's flatten deletes a widget kept apart from its field yet leaves it in the page's list.
    for (const page of pdf.getPages()) {
      const annots = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray);
      for (let i = (annots?.size() ?? 0) - 1; i >= 0; i -= 1) {
        const annot = annots?.lookup(i);
        if (!(annot instanceof PDFDict) || name(annot, "Subtype") === "Widget") annots?.remove(i);
      }
    }
  }

  // Written again, the file is one revision; what its document does not use is left out.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  // A linearized file ends its first page's section with an %%EOF of its own.
  const linearized = /^[\s\S]{0,1024}?\/Linearized\b/.test(text.slice(0, 2048)) ? 1 : 0;
  if ((text.match(/%%EOF/g) ?? []).length - linearized > 1) removed.add("earlier revisions");
  if (unusedAsSent > 0) removed.add(`objects nothing in the document uses (${unusedAsSent})`);
  if (removed.size > 0) {
    const used = reachable(pdf);
    for (const [ref] of pdf.context.enumerateIndirectObjects())
      if (!used.has(ref.tag)) pdf.context.delete(ref);
  }
  return [...removed];
}
