/**
 * Streams a stored document to an HTTP client: its length, type, file name and SHA-256 ETag
 * first, then the bytes, never holding the whole file. Where the documents service can hand out a
 * presigned URL of its blob store (S3), the bytes come straight from the store, as a reverse proxy
 * fetches what the application names: they do not cross the RPC, whose copies and garbage made a
 * download through it run at a third of the store's speed. Otherwise they come as the service
 * streams them. A current client copy (If-None-Match) gets a 304, and HEAD the headers alone.
 * `readDocument` holds one whole, for answers that carry it inside JSON (an MCP tool's).
 */
import { once } from "node:events";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { pipeline } from "node:stream/promises";
import type { Client } from "@connectrpc/connect";
import type {
  DocumentsService,
  DownloadDocumentResponse,
  Document as StoredDocument,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { isDependencyOutage } from "@countersign/kit";
import { create as contentDisposition } from "content-disposition";
import type { Request, Response } from "express";
import { ApiProblem } from "./problems.js";

/** Kept-alive connections to the blob store, for the documents' direct URLs. */
const blobStoreAgents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

export async function sendDocument(
  req: Request,
  res: Response,
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
  disposition: "attachment" | "inline" = "attachment",
): Promise<void> {
  const { document, messages } = await openDownload(documents, workspaceId, documentId, true);
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
  const next = await messages.next();
  if (!next.done && next.value.part.case === "directUrl") {
    await messages.return?.();
    const body = await openBlobUrl(next.value.part.value);
    res.set("Content-Length", String(document.sizeBytes));
    await pipeline(body, res).catch((err: unknown) => {
      // A client that hangs up mid-download ends it: nobody is left to answer, and nothing failed.
      if ((err as { code?: unknown }).code !== "ERR_STREAM_PREMATURE_CLOSE") throw err;
    });
    return;
  }
  res.set("Content-Length", String(document.sizeBytes));
  for (let message = next; !message.done; message = await messages.next()) {
    if (message.value.part.case === "chunk" && !res.write(message.value.part.value)) await once(res, "drain");
  }
  res.end();
}

/**
 * The body of a document's presigned URL. A store that does not answer is an outage (503 with
 * Retry-After), as it is when the documents service reads it; the URL is never put in an error.
 */
function openBlobUrl(url: string): Promise<IncomingMessage> {
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(target, { agent: blobStoreAgents[target.protocol as "http:" | "https:"] });
    request.on("response", (response) => {
      if (response.statusCode === 200) {
        resolve(response);
        return;
      }
      response.resume();
      reject(
        (response.statusCode ?? 0) >= 500
          ? unavailableStore()
          : new Error(`the blob store answered ${response.statusCode} for a document's direct URL`),
      );
    });
    request.on("error", (err) => reject(isDependencyOutage(err) ? unavailableStore() : err));
  });
}

function unavailableStore(): ApiProblem {
  return new ApiProblem("unavailable", "the document store is not answering; try again shortly");
}

/** A download begun: the document's metadata, and the stream of its chunks that follows. */
async function openDownload(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
  acceptDirectUrl = false,
): Promise<{ document: StoredDocument; messages: AsyncIterator<DownloadDocumentResponse> }> {
  const messages = documents
    .downloadDocument({ workspaceId, documentId, acceptDirectUrl })
    [Symbol.asyncIterator]();
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
