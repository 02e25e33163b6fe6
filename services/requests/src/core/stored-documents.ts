/**
 * Stored documents read whole from the documents service: for sealing, a signer's copy, and e-mail
 * attachments.
 */
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import type {
  Document,
  DocumentsService,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";

/** A request's document as it was sent, read whole to be sealed. */
export interface Original {
  id: string;
  filename: string;
  sha256: string;
  bytes: Uint8Array;
}

/** The documents service's name for a request's claim on a document it uses (its holder). */
export const REQUEST_HOLDER_PREFIX = "request:";

export function holderOf(requestId: string): string {
  return `${REQUEST_HOLDER_PREFIX}${requestId}`;
}

/** A stored document's metadata, or undefined when it is not there (deleted, or by retention). */
export function findDocument(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
): Promise<Document | undefined> {
  return documents.getDocument({ workspaceId, documentId }).then(
    ({ document }) => document,
    (err: unknown) => {
      if (ConnectError.from(err).code === Code.NotFound) return undefined;
      throw err;
    },
  );
}

export async function readDocument(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
): Promise<{ document: Document; bytes: Buffer }> {
  let document: Document | undefined;
  const chunks: Uint8Array[] = [];
  for await (const part of documents.downloadDocument({ workspaceId, documentId })) {
    if (part.part.case === "document") document = part.part.value;
    else if (part.part.case === "chunk") chunks.push(part.part.value);
  }
  if (!document) throw new Error(`document ${documentId} came without its metadata`);
  return { document, bytes: Buffer.concat(chunks) };
}

/** A request's originals, in its order, to draw on. */
export function readOriginals(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentIds: string[],
): Promise<Original[]> {
  return Promise.all(
    documentIds.map(async (id) => {
      const { document, bytes } = await readDocument(documents, workspaceId, id);
      return { id, filename: document.filename, sha256: document.sha256, bytes };
    }),
  );
}
