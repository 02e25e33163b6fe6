/**
 * Documents over HTTP: uploads streamed from the request to the documents service (multipart field
 * `file`, or a raw PDF body with `?filename=`) without ever holding the whole file, downloads
 * streamed back with their length, type, safe file name and SHA-256 ETag, metadata, lists, deletes.
 */
import { Readable } from "node:stream";
import { create } from "@bufbuild/protobuf";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import {
  type DocumentsService,
  Kind,
  type Document as StoredDocument,
  type UploadDocumentRequest,
  UploadDocumentRequestSchema,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { STREAM_CHUNK_BYTES, spooledFileUrl, spoolUpload, UploadTooLargeError } from "@countersign/kit";
import type { z } from "zod";
import {
  Document,
  DocumentIdParams,
  DocumentPage,
  TextTagFields,
  UploadQuery,
  uploadContent,
} from "../contract/documents.js";
import { pageBody, pageQuery } from "../contract/values.js";
import { sendDocument } from "../document-download.js";
import { iso } from "../json-time.js";
import { ApiProblem } from "../problems.js";
import { noContent, ok, type PublicApi } from "../public-api.js";
import { taggedFields } from "../tagged-documents.js";
import { readUpload, type UploadedFile } from "../upload-body.js";

const KIND_NAMES: Record<Kind, z.infer<typeof Document>["kind"]> = {
  [Kind.UNSPECIFIED]: "original",
  [Kind.ORIGINAL]: "original",
  [Kind.SIGNED]: "signed",
  [Kind.CERTIFICATE]: "certificate",
  [Kind.SIGNER_ATTACHMENT]: "attachment",
};

export function documentJson(document: StoredDocument | undefined): z.infer<typeof Document> {
  if (!document) throw new Error("the documents service answered without a document");
  return {
    id: document.id,
    filename: document.filename,
    contentType: document.contentType,
    sizeBytes: Number(document.sizeBytes),
    sha256: document.sha256,
    pageCount: document.pageCount,
    kind: KIND_NAMES[document.kind],
    createdAt: iso(document.createTime),
    pages: document.pages.map(({ width, height }) => ({ width, height })),
    removed: document.removed,
    ...(document.source && {
      source: {
        filename: document.source.filename,
        contentType: document.source.contentType,
        sizeBytes: Number(document.source.sizeBytes),
        sha256: document.source.sha256,
      },
    }),
  };
}

function uploadHeader(
  workspaceId: string,
  file: UploadedFile,
  { spooledFileUrl = "", validateOnly = false }: { spooledFileUrl?: string; validateOnly?: boolean } = {},
): UploadDocumentRequest {
  return create(UploadDocumentRequestSchema, {
    part: {
      case: "header",
      value: {
        workspaceId,
        filename: file.filename,
        contentType: file.contentType,
        kind: Kind.ORIGINAL,
        spooledFileUrl,
        sizeBytes: BigInt(file.sizeBytes ?? 0),
        validateOnly,
      },
    },
  });
}

/**
 * The body's pieces as they arrive, each a chunk message (the larger cut to the contract's 1 MiB):
 * joined into 1 MiB messages first, every byte was copied once more, and a 25 MiB upload grew the
 * distributed gateway by 31–34 MiB instead of 24–25 (with the relay, which frames a piece without
 * copying it; the documents service took them as fast).
 */
async function* bodyPieces(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const piece of body) {
    for (let at = 0; at < piece.length; at += STREAM_CHUNK_BYTES) {
      yield piece.subarray(at, at + STREAM_CHUNK_BYTES);
    }
  }
}

async function* uploadMessages(
  workspaceId: string,
  file: UploadedFile,
  validateOnly = false,
): AsyncGenerator<UploadDocumentRequest> {
  yield uploadHeader(workspaceId, file, { validateOnly });
  try {
    for await (const chunk of bodyPieces(file.bytes)) {
      yield create(UploadDocumentRequestSchema, { part: { case: "chunk", value: chunk } });
    }
  } catch (err) {
    // The client's body failed: the upload is called off, which the service takes as the
    // caller's doing rather than a fault of its own.
    throw new ConnectError(err instanceof Error ? err.message : "the upload ended early", Code.Canceled);
  }
}

/**
 * Where the gateway shares the documents service's machine (standalone mode): its spool directory,
 * in which uploads are written and handed over by name, and the size limit of an upload.
 */
export interface SharedSpool {
  spoolDir: string;
  maxUploadBytes: number;
}

/**
 * Streams an uploaded file to the documents service — or, with a shared spool, writes it there and
 * hands it over by name, so that its bytes do not cross the RPC; the stored document as the API
 * shows it.
 */
export async function storeDocument(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  file: UploadedFile,
  shared?: SharedSpool,
): Promise<z.infer<typeof Document>> {
  if (shared) return storeSpooled(documents, workspaceId, file, shared);
  // A body that failed on its way in is the client's fault, whatever the call made of it.
  const { document } = await documents
    .uploadDocument(uploadMessages(workspaceId, file))
    .catch((err: unknown) => Promise.reject(file.failure() ?? err));
  return documentJson(document);
}

async function storeSpooled(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  file: UploadedFile,
  { spoolDir, maxUploadBytes }: SharedSpool,
): Promise<z.infer<typeof Document>> {
  // The service hashes what it keeps itself: the digest is its record, not the caller's word.
  const spooled = await spoolUpload(file.bytes, maxUploadBytes, spoolDir, { hash: false }).catch(
    (err: unknown) => {
      // Too large first: the spool stops reading there, which the body then reports as ended early.
      if (err instanceof UploadTooLargeError) throw new ApiProblem("payload_too_large", err.message);
      throw file.failure() ?? err;
    },
  );
  try {
    const { document } = await documents.uploadDocument(
      (async function* () {
        yield uploadHeader(workspaceId, file, { spooledFileUrl: spooledFileUrl(spooled) });
      })(),
    );
    return documentJson(document);
  } finally {
    await spooled.discard();
  }
}

/**
 * A file already held whole (sent as base64 by an MCP tool or a DocuSign envelope), stored as an
 * upload: a PDF, or a file the documents service makes one of (it tells which by the bytes). A dry
 * run (`validateOnly`) is checked the same way and answers the document it would make.
 */
export async function storeFileBytes(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  filename: string,
  bytes: Uint8Array,
  { validateOnly = false }: { validateOnly?: boolean } = {},
): Promise<z.infer<typeof Document>> {
  const file: UploadedFile = {
    filename,
    contentType: /\.pdf$/i.test(filename) ? "application/pdf" : "application/octet-stream",
    bytes: Readable.from([bytes]),
    sizeBytes: bytes.length,
    failure: () => undefined,
  };
  const { document } = await documents.uploadDocument(uploadMessages(workspaceId, file, validateOnly));
  return documentJson(document);
}

const DOCUMENT_PROBLEMS = [400, 401, 403, 404, 429, 500, 503] as const;

export function documentRoutes(
  api: PublicApi,
  documents: Client<typeof DocumentsService>,
  {
    maxUploadBytes,
    blobFiles,
    uploadSpool,
  }: { maxUploadBytes: number; blobFiles?: string; uploadSpool?: string },
): void {
  const shared = uploadSpool === undefined ? undefined : { spoolDir: uploadSpool, maxUploadBytes };
  api.streamRoute(
    "post",
    "/documents/upload",
    {
      summary: "Upload a document",
      description:
        "A `multipart/form-data` body with the field `file`, or a raw body of its type with `?filename=`. Streamed, never held whole; checked for size, type, damage, encryption and whether it can be read in 20 s and 512 MiB. A Word document (DOCX), OpenDocument text (ODT) or RTF is made a PDF by LibreOffice, a PNG or JPEG image a one-page PDF, told by the file's bytes rather than its declared type; the file is kept beside the PDF (`source`). Without a converter an office document is a 415 that says how to enable one; one LibreOffice cannot open, or not within the time limit, a 422.",
      tag: "Documents",
      scope: "documents:write",
      query: UploadQuery,
      streamedBody: uploadContent,
      answers: {
        201: { description: "The stored document, with its SHA-256 and page sizes.", schema: Document },
      },
      problems: [400, 401, 403, 409, 413, 415, 422, 429, 500, 503],
    },
    async ({ req, res, workspaceId, query }) => {
      const file = await readUpload(req, res, maxUploadBytes, query.filename);
      res.status(201).json(await storeDocument(documents, workspaceId, file, shared));
    },
  );

  api.route(
    "get",
    "/documents",
    {
      summary: "List documents, newest first",
      tag: "Documents",
      scope: "documents:read",
      query: pageQuery,
      answers: { 200: { description: "One page of documents.", schema: DocumentPage } },
      problems: [...DOCUMENT_PROBLEMS],
    },
    async ({ workspaceId, query }) => {
      const listed = await documents.listDocuments({ workspaceId, ...query });
      return ok(pageBody(listed.documents.map(documentJson), query, listed.totalCount));
    },
  );

  api.route(
    "get",
    "/documents/:documentId/text-tags",
    {
      summary: "Read a document's text tags",
      description:
        "The fields its text tags (`{{signature:Client}}`, docs/api.md) would place, to show before a template or a request is made with `textTags: true`. A tag that cannot be read is a 422 naming its page and the tag.",
      tag: "Documents",
      scope: "documents:read",
      params: DocumentIdParams,
      answers: { 200: { description: "The fields, in page order.", schema: TextTagFields } },
      problems: [...DOCUMENT_PROBLEMS, 422],
    },
    async ({ workspaceId, params }) => {
      const fields = await taggedFields(documents, workspaceId, [params.documentId], "any");
      return ok({ fields: fields.map(({ documentId: _, ...field }) => field) });
    },
  );

  api.route(
    "get",
    "/documents/:documentId",
    {
      summary: "Get a document's metadata",
      tag: "Documents",
      scope: "documents:read",
      params: DocumentIdParams,
      answers: { 200: { description: "The document.", schema: Document } },
      problems: [...DOCUMENT_PROBLEMS],
    },
    async ({ workspaceId, params }) => {
      const { document } = await documents.getDocument({ workspaceId, documentId: params.documentId });
      return ok(documentJson(document));
    },
  );

  api.route(
    "delete",
    "/documents/:documentId",
    {
      summary: "Delete a document",
      description: "Refused (409) while a template or a signature request uses it.",
      tag: "Documents",
      scope: "documents:write",
      params: DocumentIdParams,
      answers: { 204: { description: "Deleted." } },
      problems: [...DOCUMENT_PROBLEMS, 409],
    },
    async ({ workspaceId, params }) => {
      await documents.deleteDocument({ workspaceId, documentId: params.documentId });
      return noContent();
    },
  );

  api.streamRoute(
    "get",
    "/documents/:documentId/download",
    {
      summary: "Download a document",
      description:
        "The bytes with `Content-Type`, `Content-Length`, `Content-Disposition` and an `ETag` (the SHA-256); `If-None-Match` answers 304, and HEAD the headers alone.",
      tag: "Documents",
      scope: "documents:read",
      params: DocumentIdParams,
      answers: {
        200: {
          description: "The PDF.",
          content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
        },
        304: { description: "The client's copy (If-None-Match) is current." },
      },
      problems: [...DOCUMENT_PROBLEMS],
    },
    ({ req, res, workspaceId, params }) =>
      sendDocument(req, res, documents, workspaceId, params.documentId, { blobFiles }),
  );

  api.streamRoute(
    "get",
    "/documents/:documentId/source",
    {
      summary: "Download the file a document was made from",
      description:
        "The Word document, ODT, RTF or image the document's PDF was made from, as it was uploaded, with the headers of a download (its own type, name and SHA-256 ETag). 404 for a document uploaded as a PDF.",
      tag: "Documents",
      scope: "documents:read",
      params: DocumentIdParams,
      answers: {
        200: {
          description: "The file.",
          content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
        },
        304: { description: "The client's copy (If-None-Match) is current." },
      },
      problems: [...DOCUMENT_PROBLEMS],
    },
    ({ req, res, workspaceId, params }) =>
      sendDocument(req, res, documents, workspaceId, params.documentId, { blobFiles, source: true }),
  );
}
