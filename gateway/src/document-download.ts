/**
 * Streams a stored document to an HTTP client: its length, type, file name and SHA-256 ETag
 * first, then the bytes, never holding the whole file. Where the documents service names a place
 * the gateway can read them itself, they come from there, as a reverse proxy sends what the
 * application names: a presigned URL of an S3 store, or, in standalone mode, the stored file of the
 * filesystem store the gateway shares. Then they do not cross the RPC, whose copies and garbage
 * made a download through it run at a sixth to a third of the store's speed. Otherwise they come as
 * the service streams them. A current client copy (If-None-Match) gets a 304, and HEAD the headers
 * alone. `readDocument` holds one whole, for answers that carry it inside JSON (an MCP tool's).
 */
import { once } from "node:events";
import { open } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import { resolve } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import type { Client } from "@connectrpc/connect";
import type {
  DocumentsService,
  DownloadDocumentResponse,
  Document as StoredDocument,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { isDependencyOutage, STREAM_CHUNK_BYTES } from "@countersign/kit";
import { create as contentDisposition } from "content-disposition";
import type { Request, Response } from "express";
import isPathInside from "is-path-inside";
import { ApiProblem } from "./problems.js";

/** Kept-alive connections to the blob store, for the documents' direct URLs. */
const blobStoreAgents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

/**
 * What every answer carrying a customer's file sends besides its type (with X-Content-Type-Options:
 * nosniff, which every answer has): whatever the file holds, a browser that opens it runs no script,
 * plugin or form of it in our origin, and no page of another may frame it.
 */
export const CUSTOMER_FILE_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'";

export interface SendOptions {
  disposition?: "attachment" | "inline";
  /**
   * The directory of the documents service's filesystem blob store, where the gateway shares its
   * machine (standalone mode): the service may then name a stored file in it to read.
   */
  blobFiles?: string;
  /** The file the document was converted from (a Word document, an image) instead of its PDF. */
  source?: boolean;
}

export async function sendDocument(
  req: Request,
  res: Response,
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
  { disposition = "attachment", blobFiles, source = false }: SendOptions = {},
): Promise<void> {
  const { document: stored, messages } = await openDownload(documents, workspaceId, documentId, {
    acceptDirectUrl: true,
    acceptFileUrl: blobFiles !== undefined,
    source,
  });
  // The service answers NOT_FOUND for a source a document does not have.
  const document = source ? stored.source : stored;
  if (!document) throw new Error("the documents service answered a source download without the source");
  res.set({
    ETag: `"${document.sha256}"`,
    "Cache-Control": "private, no-cache",
    "Content-Type": document.contentType,
    "Content-Disposition": contentDisposition(document.filename, { type: disposition }),
    "Content-Security-Policy": CUSTOMER_FILE_POLICY,
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
    const body = await openDirect(next.value.part.value, blobFiles);
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
 * The bytes at a document's direct URL. A store that does not answer is an outage (503 with
 * Retry-After), as it is when the documents service reads it; an object that is not there was
 * deleted after the service looked it up (the row goes first); the URL is never put in an error.
 */
function openDirect(url: string, blobFiles: string | undefined): Promise<Readable> {
  return url.startsWith("file:") ? openBlobFile(url, blobFiles) : openBlobUrl(url);
}

/** A stored file, only inside the blob store's directory, whatever the URL names. */
async function openBlobFile(url: string, blobFiles: string | undefined): Promise<Readable> {
  const path = fileURLToPath(url);
  if (blobFiles === undefined || !isPathInside(path, resolve(blobFiles)))
    throw new Error("the documents service named a file outside the blob store the gateway reads");
  const file = await open(path).catch((err: unknown) => {
    throw (err as { code?: unknown }).code === "ENOENT" ? deletedDocument() : err;
  });
  return file.createReadStream({ highWaterMark: STREAM_CHUNK_BYTES });
}

function openBlobUrl(url: string): Promise<Readable> {
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
      const status = response.statusCode ?? 0;
      reject(
        status >= 500
          ? unavailableStore()
          : status === 404
            ? deletedDocument()
            : new Error(`the blob store answered ${status} for a document's direct URL`),
      );
    });
    request.on("error", (err) => reject(isDependencyOutage(err) ? unavailableStore() : err));
  });
}

function deletedDocument(): ApiProblem {
  return new ApiProblem("not_found", "the document was deleted while it was being read");
}

function unavailableStore(): ApiProblem {
  return new ApiProblem("unavailable", "the document store is not answering; try again shortly");
}

/** A download begun: the document's metadata, and the stream of its chunks that follows. */
async function openDownload(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
  accepts: { acceptDirectUrl?: boolean; acceptFileUrl?: boolean; source?: boolean } = {},
): Promise<{ document: StoredDocument; messages: AsyncIterator<DownloadDocumentResponse> }> {
  const messages = documents
    .downloadDocument({ workspaceId, documentId, ...accepts })
    [Symbol.asyncIterator]();
  const first = await messages.next();
  if (first.done || first.value.part.case !== "document")
    throw new Error("download stream began without metadata");
  return { document: first.value.part.value, messages };
}

/** A stored document (or the file it was made from) and its bytes as they come, one chunk at a time. */
export async function documentChunks(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
  { source = false }: { source?: boolean } = {},
): Promise<{ document: StoredDocument; chunks: AsyncGenerator<Uint8Array> }> {
  const { document, messages } = await openDownload(documents, workspaceId, documentId, { source });
  async function* chunks() {
    for (let next = await messages.next(); !next.done; next = await messages.next()) {
      if (next.value.part.case === "chunk") yield next.value.part.value;
    }
  }
  return { document, chunks: chunks() };
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
