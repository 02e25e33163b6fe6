/**
 * An incremental update (ISO 32000-1, 7.5.6): new and changed objects appended after the file's
 * end with a cross-reference section of their own, every byte before them kept, so a signature
 * over the earlier revision still verifies. pdf-lib reads the document and serialises the objects;
 * it has no incremental save of its own.
 */
import { PDFDocument, type PDFObject, PDFRawStream, type PDFRef } from "pdf-lib";

const latin1 = (text: string) => Buffer.from(text, "latin1");

/** Where the file's newest cross-reference section starts (the number after its last `startxref`). */
function lastXrefOffset(pdf: Uint8Array): number {
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.length - 2048))).toString("latin1");
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) throw new Error("the document does not end with startxref and %%EOF");
  return Number(match[1]);
}

function bytesOf(object: PDFObject): Buffer {
  const out = Buffer.alloc(object.sizeInBytes());
  object.copyBytesInto(out, 0);
  return out;
}

/**
 * Every object the file holds, by reference: serialised where a change may edit it in place, null
 * for streams (a change adds streams, it does not edit them).
 */
function snapshot(doc: PDFDocument): Map<string, Buffer | null> {
  const seen = new Map<string, Buffer | null>();
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    seen.set(ref.tag, object instanceof PDFRawStream ? null : bytesOf(object));
  }
  return seen;
}

/**
 * Appends a revision to `pdf`: `change` edits the document read from it, and every object it adds
 * or changes is written after the file's end.
 */
export async function appendRevision(
  pdf: Uint8Array,
  change: (doc: PDFDocument) => void | Promise<void>,
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const before = snapshot(doc);
  await change(doc);
  // Fonts, images and pages a change embeds are written into the document only when it is flushed.
  await doc.flush();
  const written: [PDFRef, Buffer][] = [];
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    const was = before.get(ref.tag);
    if (was === null) continue;
    const bytes = bytesOf(object);
    if (was === undefined || !was.equals(bytes)) written.push([ref, bytes]);
  }
  written.sort(([a], [b]) => a.objectNumber - b.objectNumber);

  const parts: Buffer[] = [Buffer.from(pdf)];
  let offset = pdf.length;
  const push = (bytes: Buffer) => {
    parts.push(bytes);
    offset += bytes.length;
  };
  if (pdf[pdf.length - 1] !== 0x0a) push(latin1("\n"));
  const offsets = new Map<number, { at: number; generation: number }>();
  for (const [ref, bytes] of written) {
    offsets.set(ref.objectNumber, { at: offset, generation: ref.generationNumber });
    push(latin1(`${ref.objectNumber} ${ref.generationNumber} obj\n`));
    push(bytes);
    push(latin1("\nendobj\n"));
  }
  const xrefAt = offset;
  let xref = "xref\n";
  const numbers = [...offsets.keys()];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === (numbers[j] as number) + 1) j += 1;
    xref += `${numbers[i]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k += 1) {
      const entry = offsets.get(numbers[k] as number) as { at: number; generation: number };
      xref += `${String(entry.at).padStart(10, "0")} ${String(entry.generation).padStart(5, "0")} n\r\n`;
    }
    i = j + 1;
  }
  const { Root, Info, ID } = doc.context.trailerInfo;
  const trailer = doc.context.obj({
    Size: doc.context.largestObjectNumber + 1,
    Root: Root as PDFObject,
    ...(Info ? { Info: Info as PDFObject } : {}),
    ...(ID ? { ID: ID as PDFObject } : {}),
    Prev: lastXrefOffset(pdf),
  });
  push(latin1(xref));
  push(Buffer.concat([latin1("trailer\n"), bytesOf(trailer), latin1(`\nstartxref\n${xrefAt}\n%%EOF\n`)]));
  return Buffer.concat(parts);
}
