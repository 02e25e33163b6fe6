/**
 * Streams a stored document to an HTTP client: its length, type, file name and SHA-256 ETag
 * first, then the bytes as the documents service sends them, never holding the whole file.
 * A current client copy (If-None-Match) gets a 304, and HEAD the headers alone. `readDocument`
 * holds one whole, for answers that carry it inside JSON (an MCP tool's).
 */
import { once } from "node:events";
import type { Client } from "@connectrpc/connect";
import type {
  DocumentsService,
  Document as StoredDocument,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { create as contentDisposition } from "content-disposition";
import type { Request, Response } from "express";

export async function sendDocument(
  req: Request,
  res: Response,
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
  disposition: "attachment" | "inline" = "attachment",
): Promise<void> {
  const { document, messages } = await openDownload(documents, workspaceId, documentId);
  res.set({
    ETag: `"${document.sha256}"`,
    "Cache-Control": "private, no-cache",
    "Content-Type": document.contentType,
    "Content-Disposition": contentDisposition(document.filename, { type: disposition }),
  });
  if (matchesEtag(req.get("if-none-match"), res.get("ETag") as string) || req.method === "HEAD") {
    await messages.return?.();
    if (req.method === "HEAD") res.set("Content-Length", String(document.sizeBytes));
    res.status(req.method === "HEAD" ? 200 : 304).end();
    return;
  }
  res.set("Content-Length", String(document.sizeBytes));
  for (let next = await messages.next(); !next.done; next = await messages.next()) {
    if (next.value.part.case === "chunk" && !res.write(next.value.part.value)) await once(res, "drain");
  }
  res.end();
}

/** A download begun: the document's metadata, and the stream of its chunks that follows. */
async function openDownload(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
) {
  const messages = documents.downloadDocument({ workspaceId, documentId })[Symbol.asyncIterator]();
  const first = await messages.next();
  if (first.done || first.value.part.case !== "document")
    throw new Error("download stream began without metadata");
  return { document: first.value.part.value, messages };
}

/** A stored document and all its bytes. */
export async function readDocument(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
): Promise<{ document: StoredDocument; bytes: Buffer }> {
  const { document, messages } = await openDownload(documents, workspaceId, documentId);
  const chunks: Uint8Array[] = [];
  for (let next = await messages.next(); !next.done; next = await messages.next()) {
    if (next.value.part.case === "chunk") chunks.push(next.value.part.value);
  }
  return { document, bytes: Buffer.concat(chunks) };
}

/**
 * If-None-Match evaluated as RFC 9110 §13.1.2 asks of an origin server: a weak comparison with
 * the ETag, whatever Cache-Control says. Not the fresh package (nor Express's req.fresh): it
 * answers "stale" to `Cache-Control: no-cache`, which fetch() adds to every conditional request.
 */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || weak(tag) === weak(etag));
}
