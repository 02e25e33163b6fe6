/**
 * An envelope's documents as DocuSign names them: `combined` (every document, then the certificate
 * of completion unless `certificate=false`), `certificate` alone, one document by the sender's id,
 * or `archive` (a ZIP of each document, and once completed the certificate and the sealed PDF).
 * Once a request is completed, the sealed PDF is all of its documents' pages followed by the
 * certificate's, so `combined` is that PDF as stored — the one whose seal verifies — and the other
 * views are its pages cut out by the documents' page counts. Before completion there is no
 * certificate, and the documents are the originals.
 */
import { promisify } from "node:util";
import type { Client } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type { SignatureRequest } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type AsyncZippable, zip } from "fflate";
import { readDocument } from "../document-download.js";
import { entryNames } from "../zip-names.js";
import { DocuSignError } from "./docusign-errors.js";
import { documentIdsOf } from "./envelope-json.js";
import { composePdf } from "./pdf-pages.js";

export interface EnvelopeFile {
  filename: string;
  bytes: Uint8Array;
}

/** fflate's zip, which checksums in a worker thread: an archive of large PDFs never holds the event loop. */
const zipped = promisify<AsyncZippable, { level: 0 }, Uint8Array>(zip);

/**
 * Every document of the envelope as the single-document view gives it, then, once completed, the
 * certificate of completion and the sealed PDF itself — the file whose seal verifies, which the
 * others are cut from (read once for all of them). Stored, not compressed: PDFs are compressed already.
 */
export async function envelopeArchive(
  documents: Client<typeof DocumentsService>,
  request: SignatureRequest,
): Promise<EnvelopeFile> {
  const ids = documentIdsOf(request);
  let parts: EnvelopeFile[];
  if (request.status === "completed") {
    const sealed = await readSealed(documents, request);
    parts = [
      ...(await Promise.all(ids.map((which, index) => documentOf(sealed, index, which)))),
      await certificateOf(sealed),
      { filename: `${request.id} (sealed).pdf`, bytes: sealed.file.bytes },
    ];
  } else {
    parts = await Promise.all(ids.map((which) => envelopeDocument(documents, request, which, false)));
  }
  const names = entryNames(parts.map((part) => part.filename));
  const bytes = await zipped(Object.fromEntries(parts.map((part, i) => [names[i], part.bytes])), {
    level: 0,
  });
  return { filename: `${request.id}.zip`, bytes };
}

/** A new PDF of the given pages (0-based) of `source`. */
function pagesOf(source: Uint8Array, pages: number[]): Promise<Uint8Array> {
  return composePdf([{ bytes: source, pages }]);
}

const range = (start: number, count: number) => Array.from({ length: count }, (_, i) => start + i);

/** A completed envelope's sealed PDF, and where its documents' pages lie in it. */
interface Sealed {
  file: Awaited<ReturnType<typeof readDocument>>;
  /** The originals' filenames and page counts, in the request's order. */
  filenames: (string | undefined)[];
  counts: number[];
  /** Pages of all documents together: the certificate's follow. */
  documentPages: number;
}

async function readSealed(
  documents: Client<typeof DocumentsService>,
  request: SignatureRequest,
): Promise<Sealed> {
  const { workspaceId } = request;
  const [file, originals] = await Promise.all([
    readDocument(documents, workspaceId, request.signedDocumentId),
    // The originals' metadata: their page counts cut the sealed PDF, and name a document.
    Promise.all(
      request.documentIds.map(
        async (documentId) => (await documents.getDocument({ workspaceId, documentId })).document,
      ),
    ),
  ]);
  const counts = originals.map((document) => document?.pageCount ?? 0);
  return {
    file,
    filenames: originals.map((document) => document?.filename),
    counts,
    documentPages: counts.reduce((sum, count) => sum + count, 0),
  };
}

async function documentOf(sealed: Sealed, index: number, which: string): Promise<EnvelopeFile> {
  const before = sealed.counts.slice(0, index).reduce((sum, count) => sum + count, 0);
  return {
    filename: sealed.filenames[index] ?? `${which}.pdf`,
    bytes: await pagesOf(sealed.file.bytes, range(before, sealed.counts[index] ?? 0)),
  };
}

async function certificateOf(sealed: Sealed): Promise<EnvelopeFile> {
  const total = sealed.file.document.pageCount;
  if (total <= sealed.documentPages)
    throw new Error(`sealed document ${sealed.file.document.id} has no certificate pages`);
  return {
    filename: "certificate.pdf",
    bytes: await pagesOf(sealed.file.bytes, range(sealed.documentPages, total - sealed.documentPages)),
  };
}

export async function envelopeDocument(
  documents: Client<typeof DocumentsService>,
  request: SignatureRequest,
  which: string,
  withCertificate: boolean,
): Promise<EnvelopeFile> {
  const { workspaceId, id } = request;
  const ids = documentIdsOf(request);
  const single = ids.indexOf(which);
  if (which !== "combined" && which !== "certificate" && single < 0) {
    throw new DocuSignError(400, "DOCUMENT_DOES_NOT_EXIST", `the envelope has no document ${which}`);
  }
  const read = (documentId: string) => readDocument(documents, workspaceId, documentId);

  if (request.status !== "completed") {
    if (which === "certificate") {
      throw new DocuSignError(
        400,
        "ENVELOPE_INVALID_STATUS",
        "the certificate of completion exists once the envelope is completed",
      );
    }
    if (single >= 0) {
      const { document, bytes } = await read(request.documentIds[single] as string);
      return { filename: document.filename, bytes };
    }
    const originals = await Promise.all(request.documentIds.map(read));
    if (originals.length === 1)
      return {
        filename: originals[0]?.document.filename ?? "combined.pdf",
        bytes: originals[0]?.bytes ?? new Uint8Array(),
      };
    return { filename: `${id}.pdf`, bytes: await composePdf(originals.map(({ bytes }) => ({ bytes }))) };
  }

  if (which === "combined" && withCertificate) {
    const whole = await read(request.signedDocumentId);
    return { filename: whole.document.filename, bytes: whole.bytes };
  }
  const sealed = await readSealed(documents, request);
  if (which === "combined")
    return { filename: `${id}.pdf`, bytes: await pagesOf(sealed.file.bytes, range(0, sealed.documentPages)) };
  if (which === "certificate") return certificateOf(sealed);
  return documentOf(sealed, single, which);
}
