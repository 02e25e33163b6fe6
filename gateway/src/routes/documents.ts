/**
 * Documents over HTTP: uploads streamed from the request to the documents service (multipart field
 * `file`, or a raw PDF body with `?filename=`) without ever holding the whole file, downloads
 * streamed back with their length, type, safe file name and SHA-256 ETag, metadata, lists, deletes.
 */
import { once } from "node:events";
import type { Readable } from "node:stream";
import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import {
  type Document,
  type DocumentsService,
  Kind,
  type UploadDocumentRequest,
  UploadDocumentRequestSchema,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { inChunksOf } from "@countersign/kit";
import busboy from "busboy";
import type { Request, Response } from "express";
import { pageBody, pageOf } from "../pagination.js";
import { ApiProblem } from "../problems.js";
import type { PublicApi } from "../public-api.js";

const KIND_NAMES: Record<Kind, string> = {
  [Kind.UNSPECIFIED]: "original",
  [Kind.ORIGINAL]: "original",
  [Kind.SIGNED]: "signed",
  [Kind.CERTIFICATE]: "certificate",
};

export function documentJson(document: Document | undefined) {
  if (!document) throw new Error("the documents service answered without a document");
  return {
    id: document.id,
    filename: document.filename,
    contentType: document.contentType,
    sizeBytes: Number(document.sizeBytes),
    sha256: document.sha256,
    pageCount: document.pageCount,
    kind: KIND_NAMES[document.kind],
    createdAt: document.createTime ? timestampDate(document.createTime).toISOString() : undefined,
    pages: document.pages.map(({ width, height }) => ({ width, height })),
  };
}

interface IncomingFile {
  filename: string;
  contentType: string;
  bytes: Readable;
}

/** Room for multipart boundaries and headers on top of the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

function incomingFile(req: Request, res: Response, maxUploadBytes: number): Promise<IncomingFile> {
  const declared = Number(req.get("content-length") ?? Number.NaN);
  if (declared > maxUploadBytes + MULTIPART_OVERHEAD_BYTES) {
    throw new ApiProblem(
      "payload_too_large",
      `the file is larger than ${maxUploadBytes / (1024 * 1024)} MiB`,
    );
  }
  res.locals.bodyStreaming = true;
  if (req.is("application/pdf")) {
    const filename = typeof req.query.filename === "string" ? req.query.filename : "document.pdf";
    return Promise.resolve({ filename, contentType: "application/pdf", bytes: req });
  }
  if (!req.is("multipart/form-data")) {
    throw new ApiProblem(
      "unsupported_media_type",
      'upload a PDF as multipart/form-data (field "file") or as a raw application/pdf body with ?filename=',
    );
  }
  return new Promise((resolve, reject) => {
    const form = busboy({
      headers: req.headers,
      defParamCharset: "utf8",
      limits: { files: 1, fields: 20, fieldSize: 1024 },
    });
    let found = false;
    form.on("file", (field, bytes, info) => {
      if (field !== "file" || found) {
        bytes.resume();
        return;
      }
      found = true;
      resolve({
        filename: browserFilename(info.filename) || "document.pdf",
        contentType: info.mimeType,
        bytes,
      });
    });
    form.on("error", () => reject(new ApiProblem("invalid_request", "the multipart body is malformed")));
    form.on("close", () => {
      if (!found) {
        reject(
          new ApiProblem("validation_failed", "no file in the upload", [
            { path: "file", message: "is required" },
          ]),
        );
      }
    });
    req.pipe(form);
  });
}

/** Browsers (and fetch's FormData) send `"`, CR and LF in a multipart file name as %22, %0D, %0A. */
function browserFilename(name: string | undefined): string {
  return (name ?? "").replace(/%22/g, '"').replace(/%0D/gi, "\r").replace(/%0A/gi, "\n");
}

async function* uploadMessages(
  workspaceId: string,
  file: IncomingFile,
): AsyncGenerator<UploadDocumentRequest> {
  yield create(UploadDocumentRequestSchema, {
    part: {
      case: "header",
      value: { workspaceId, filename: file.filename, contentType: file.contentType, kind: Kind.ORIGINAL },
    },
  });
  for await (const chunk of inChunksOf(file.bytes)) {
    yield create(UploadDocumentRequestSchema, { part: { case: "chunk", value: chunk } });
  }
}

/** `attachment; filename="…"` with an ASCII fallback and the exact name in RFC 5987 form. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim().replace(/^W\//, "");
    return value === etag || value === "*";
  });
}

export function documentRoutes(
  api: PublicApi,
  documents: Client<typeof DocumentsService>,
  maxUploadBytes: number,
): void {
  api.route(
    "post",
    "/documents/upload",
    async (req, res, workspaceId) => {
      const file = await incomingFile(req, res, maxUploadBytes);
      const { document } = await documents.uploadDocument(uploadMessages(workspaceId, file));
      res.status(201).json(documentJson(document));
    },
    { body: "stream" },
  );

  api.route("get", "/documents", async (req, res, workspaceId) => {
    const page = pageOf(req);
    const listed = await documents.listDocuments({ workspaceId, ...page });
    res.json(pageBody(listed.documents.map(documentJson), page, listed.totalCount));
  });

  api.route("get", "/documents/:documentId", async (req, res, workspaceId) => {
    const { document } = await documents.getDocument({
      workspaceId,
      documentId: req.params.documentId as string,
    });
    res.json(documentJson(document));
  });

  api.route("delete", "/documents/:documentId", async (req, res, workspaceId) => {
    await documents.deleteDocument({ workspaceId, documentId: req.params.documentId as string });
    res.status(204).end();
  });

  api.route("get", "/documents/:documentId/download", async (req, res, workspaceId) => {
    const stream = documents.downloadDocument({ workspaceId, documentId: req.params.documentId as string });
    const messages = stream[Symbol.asyncIterator]();
    const first = await messages.next();
    if (first.done || first.value.part.case !== "document")
      throw new Error("download stream began without metadata");
    const document = first.value.part.value;
    const etag = `"${document.sha256}"`;
    res.set({
      ETag: etag,
      "Cache-Control": "private, no-cache",
      "Content-Type": document.contentType,
      "Content-Disposition": contentDisposition(document.filename),
    });
    if (matchesEtag(req.get("if-none-match"), etag) || req.method === "HEAD") {
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
  });
}
