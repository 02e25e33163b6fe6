/**
 * Streams a stored document to an HTTP client: its length, type, file name and SHA-256 ETag
 * first, then the bytes as the documents service sends them, never holding the whole file.
 * A current client copy (If-None-Match) gets a 304, and HEAD the headers alone.
 */
import { once } from "node:events";
import type { Client } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { create as contentDisposition } from "content-disposition";
import type { Request, Response } from "express";
import fresh from "fresh";

export async function sendDocument(
  req: Request,
  res: Response,
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
  disposition: "attachment" | "inline" = "attachment",
): Promise<void> {
  const messages = documents.downloadDocument({ workspaceId, documentId })[Symbol.asyncIterator]();
  const first = await messages.next();
  if (first.done || first.value.part.case !== "document")
    throw new Error("download stream began without metadata");
  const document = first.value.part.value;
  res.set({
    ETag: `"${document.sha256}"`,
    "Cache-Control": "private, no-cache",
    "Content-Type": document.contentType,
    "Content-Disposition": contentDisposition(document.filename, { type: disposition }),
  });
  const current = fresh(req.headers, { etag: res.get("ETag") });
  if (current || req.method === "HEAD") {
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
