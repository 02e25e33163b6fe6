/**
 * Documents: uploads checked and measured before they are kept (size, type, SHA-256, page count),
 * their bytes in the blob store and their metadata in the database, read back as streams.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { link, open, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type Document,
  DocumentSchema,
  Kind,
  type UploadHeader,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import {
  type BlobStore,
  type Database,
  isUuid,
  type Logger,
  notFound,
  problemError,
  type SpooledUpload,
  spoolUpload,
  takeSpooledUpload,
  UploadTooLargeError,
  uuidv7,
  validationError,
} from "@countersign/kit";
import { type DocumentConverter, madeTooLarge } from "./conversion/document-converter.js";
import {
  type KnownSourceFormat,
  pdfName,
  SNIFF_BYTES,
  SOURCE_FORMATS,
  sniff,
  UPLOADABLE_IN_WORDS,
  UPLOADABLE_TYPES,
} from "./conversion/source-formats.js";
import type { PdfInspector } from "./pdf-inspection.js";
import { type ClaimRow, type DocumentRow, store } from "./store.js";
import { storeAsReceived } from "./store-as-received.js";

export interface DocumentsDeps {
  db: Database;
  blobs: BlobStore;
  logger: Logger;
  maxUploadBytes: number;
  /** Where uploads are received before they are checked and stored. */
  spoolDir: string;
  /** Reads uploaded PDFs off the event loop. */
  inspector: PdfInspector;
  /** Makes PDFs of originals uploaded in other formats. */
  converter: DocumentConverter;
  /** The most pages a document may have (the inspector refuses more; a conversion stops past it). */
  maxPages: number;
}

const KINDS: Record<DocumentRow["kind"], Kind> = {
  original: Kind.ORIGINAL,
  signed: Kind.SIGNED,
  certificate: Kind.CERTIFICATE,
  attachment: Kind.SIGNER_ATTACHMENT,
};

/** The stored name of an upload's kind; uploads that name none are originals. */
function kindName(kind: Kind): DocumentRow["kind"] {
  return (
    (Object.entries(KINDS) as [DocumentRow["kind"], Kind][]).find(([, k]) => k === kind)?.[0] ?? "original"
  );
}

export function toDocument(row: DocumentRow): Document {
  return create(DocumentSchema, {
    id: row.id,
    workspaceId: row.workspace_id,
    filename: row.filename,
    contentType: row.content_type,
    sizeBytes: BigInt(row.size_bytes),
    sha256: row.sha256,
    pageCount: row.page_count,
    kind: KINDS[row.kind],
    createTime: timestampFromDate(row.created_at),
    pages: (row.page_sizes ?? []).map(([width, height]) => ({ width, height })),
    removed: row.removed,
    source:
      row.source_filename === null
        ? undefined
        : {
            filename: row.source_filename,
            contentType: row.source_content_type ?? "",
            sizeBytes: BigInt(row.source_size_bytes ?? 0),
            sha256: row.source_sha256 ?? "",
          },
  });
}

/** Where a page of claims ended: the holder and document id in a page token. */
function positionOf(token: string): { holder: string; documentId: string } | undefined {
  const [holder, documentId, ...rest] = Buffer.from(token, "base64url").toString("utf8").split("\n");
  if (rest.length > 0 || !holder || !documentId || !isUuid(documentId)) return undefined;
  return { holder, documentId };
}

/** A claim's holder: "template:<id>", "request:<id>" — printable, short. */
const HOLDER = /^[\x21-\x7e]{1,200}$/;

/** A name that is safe in a path, a header and a log: no directories, control characters or quotes. */
export function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}"<>|:*?]/gu, "")
    .trim()
    .slice(0, 200);
  return cleaned && cleaned !== "." && cleaned !== ".." ? cleaned : "document.pdf";
}

/** Declared types under which an upload is stored as it arrives, before it is known to be a PDF. */
const PDF_TYPES = new Set(["application/pdf", "application/x-pdf", ""]);

/** What a converted original was made from: its facts, and where its bytes were received. */
interface ConvertedSource {
  format: KnownSourceFormat;
  filename: string;
  path: string;
  sizeBytes: number;
  sha256: string;
}

/** The first bytes of a file, which tell its format. */
async function headOf(path: string): Promise<Uint8Array> {
  const file = await open(path, "r");
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The row's columns for a converted original's source; all null for a PDF uploaded as one. */
function sourceColumns(
  source: ConvertedSource | undefined,
  blobKey: string | undefined,
): Pick<
  DocumentRow,
  "source_filename" | "source_content_type" | "source_size_bytes" | "source_sha256" | "source_blob_key"
> {
  return {
    source_filename: source?.filename ?? null,
    source_content_type: source ? SOURCE_FORMATS[source.format].mediaType : null,
    source_size_bytes: source?.sizeBytes ?? null,
    source_sha256: source?.sha256 ?? null,
    source_blob_key: (source && blobKey) ?? null,
  };
}

/**
 * A source's name, ending in an extension of its format: "contract.docx" stays, "contract" and a
 * Word document sent as "contract.pdf" become "contract.docx".
 */
function sourceName(filename: string, format: KnownSourceFormat): string {
  const safe = safeFilename(filename);
  const { extension, otherExtensions = [] } = SOURCE_FORMATS[format];
  const own = [extension, ...otherExtensions].some((ext) => safe.toLowerCase().endsWith(`.${ext}`));
  return own ? safe : `${safe.replace(/\.[A-Za-z0-9]{1,5}$/, "")}.${extension}`;
}

/** How long a document's direct URL may be used: enough to start reading, not to keep. */
const DIRECT_URL_SECONDS = 60;

function tooLarge(err: UploadTooLargeError): ConnectError {
  return problemError("payload_too_large", err.message, Code.ResourceExhausted);
}

export class Documents {
  constructor(private readonly deps: DocumentsDeps) {}

  /**
   * `signal`: the call's. A caller that calls an upload off over HTTP/2 resets its stream, which
   * Node ends like a finished one, and says it was aborted only a moment later: what arrived is
   * then inspected as if whole, and is kept only if the call still stands when it is recorded.
   */
  async upload(
    header: UploadHeader | undefined,
    chunks: AsyncIterable<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<Document> {
    if (!header || !isUuid(header.workspaceId)) {
      throw validationError([
        { path: "header", message: "an upload starts with a header naming the workspace" },
      ]);
    }
    if (header.documentId) {
      if (!isUuid(header.documentId))
        throw validationError([{ path: "header.documentId", message: "must be a UUID" }]);
      // The id names one document for good: an upload retried after a lost answer is not stored twice.
      const existing = await store.get(this.deps.db, header.workspaceId, header.documentId);
      if (existing) return toDocument(existing);
    }
    const contentType = header.contentType.split(";")[0]?.trim().toLowerCase() ?? "";
    if (!UPLOADABLE_TYPES.has(contentType)) {
      throw problemError(
        "unsupported_media_type",
        `only ${UPLOADABLE_IN_WORDS} can be uploaded, not ${contentType}`,
        Code.InvalidArgument,
      );
    }
    const id = header.documentId || uuidv7();
    // Each upload has its own blob, so two uploads racing for one id never overwrite the kept bytes.
    const blobKey = `${header.workspaceId}/${header.documentId ? `${id}.${uuidv7()}` : id}.pdf`;
    const { blobs, maxUploadBytes } = this.deps;
    const announcedBytes = Number(header.sizeBytes);
    if (announcedBytes > maxUploadBytes) throw tooLarge(new UploadTooLargeError(maxUploadBytes));
    // A store on this machine takes the spooled file itself; one elsewhere gets a file of known
    // length while it arrives. Either way the bytes are inspected before the document exists.
    // A dry run (validateOnly) reads and checks the file the same way and stores nothing.
    const keep = !header.validateOnly;
    const early =
      keep && announcedBytes > 0 && !blobs.moveIn && !header.spooledFileUrl && PDF_TYPES.has(contentType)
        ? storeAsReceived(blobs, blobKey, announcedBytes, chunks)
        : undefined;
    // What the store was given is removed again unless it becomes a document.
    const discard = async (stored: Promise<unknown> | undefined) => {
      if (!stored) return;
      await stored.catch(() => {});
      await blobs.delete(blobKey).catch(() => {});
    };
    const spooled = await this.spooled(header, early?.chunks ?? chunks).catch(async (err: unknown) => {
      await discard(early?.stored);
      throw err instanceof UploadTooLargeError ? tooLarge(err) : err;
    });
    let stored = early?.stored;
    let sourceKey: string | undefined;
    try {
      if (spooled.sizeBytes === 0) throw validationError([{ path: "file", message: "the file is empty" }]);
      // Only what clients upload is converted; what the service seals or is given by a signer is a PDF.
      const convertible = header.kind === Kind.ORIGINAL || header.kind === Kind.UNSPECIFIED;
      const conversion = convertible
        ? await this.converted(spooled, header.workspaceId, header.filename, signal)
        : undefined;
      if (conversion && stored) {
        // A file declared a PDF that was not one went to the store as it arrived: the PDF takes its place.
        await discard(stored);
        stored = undefined;
      }
      // The PDF that is inspected and kept: what was received, or what was made of it.
      const file: { path: string; sizeBytes: number; sha256?: string } = conversion?.pdf ?? spooled;
      // The inspector reads the file through a link of its own, made first: a filesystem store can
      // then take the file (make it durable and move it into place) while it is read; a store
      // elsewhere that was not fed while the file arrived is sent the spooled file meanwhile. The
      // store is awaited below: until then its failure must not go unhandled, and what it was given
      // is removed again if the file is refused.
      const inspectorsCopy = `${file.path}.inspecting`;
      await link(file.path, inspectorsCopy);
      // Originals are made safe to sign; what the service seals itself is stored as it is.
      const original = header.kind !== Kind.SIGNED && header.kind !== Kind.CERTIFICATE;
      const inspected = this.deps.inspector
        .file(inspectorsCopy, {
          hash: file.sha256 === undefined,
          // Beside the spooled file, so that it goes with it however the upload ends.
          sanitizeTo: original ? `${file.path}.sanitized` : undefined,
          party: header.workspaceId,
          signal,
        })
        .finally(() => unlink(inspectorsCopy).catch(() => {}));
      if (keep) {
        stored ??= blobs.moveIn
          ? blobs.moveIn(blobKey, file.path)
          : blobs.put(blobKey, createReadStream(file.path), {
              contentType: "application/pdf",
              size: file.sizeBytes,
            });
        stored.catch(() => {});
      }
      const { sha256: received = file.sha256, inspection, sanitized } = await inspected;
      if (!inspection.ok) {
        if (inspection.reason === "not_pdf")
          throw problemError(
            "unsupported_media_type",
            convertible
              ? "the file is not a PDF, nor a Word document (DOCX), OpenDocument text (ODT), RTF, PNG or JPEG, the other files that can be uploaded"
              : inspection.message,
            Code.InvalidArgument,
          );
        throw validationError([{ path: "file", message: inspection.message }], inspection.message);
      }
      if (!received) throw new Error("the upload was neither hashed on its way in nor by the inspector");
      await stored;
      if (conversion && keep) {
        const { source } = conversion;
        sourceKey = blobKey.replace(/\.pdf$/, `.source.${SOURCE_FORMATS[source.format].extension}`);
        await (blobs.moveIn
          ? blobs.moveIn(sourceKey, source.path)
          : blobs.put(sourceKey, createReadStream(source.path), {
              contentType: SOURCE_FORMATS[source.format].mediaType,
              size: source.sizeBytes,
            }));
      }
      // The safe file takes the place of what was received, under the same key.
      if (sanitized && keep) {
        stored = blobs.moveIn
          ? blobs.moveIn(blobKey, sanitized.path)
          : blobs.put(blobKey, createReadStream(sanitized.path), {
              contentType: "application/pdf",
              size: sanitized.sizeBytes,
            });
        await stored;
      }
      const sha256 = sanitized?.sha256 ?? received;
      if (signal?.aborted) throw new ConnectError("the upload was called off by its caller", Code.Canceled);
      const made = {
        id,
        workspace_id: header.workspaceId,
        filename: conversion ? pdfName(conversion.source.filename) : safeFilename(header.filename),
        content_type: "application/pdf",
        size_bytes: sanitized?.sizeBytes ?? file.sizeBytes,
        sha256,
        page_count: inspection.pageCount,
        page_sizes: inspection.pageSizes,
        kind: kindName(header.kind),
        blob_key: blobKey,
        removed: sanitized?.removed ?? [],
        ...sourceColumns(conversion?.source, sourceKey),
      };
      if (!keep) return toDocument({ ...made, created_at: new Date() });
      const row = await store.insert(this.deps.db, made);
      if (row) return toDocument(row);
      await blobs.delete(blobKey).catch(() => {});
      if (sourceKey) await blobs.delete(sourceKey).catch(() => {});
      const winner = await store.get(this.deps.db, header.workspaceId, id);
      if (!winner) throw new ConnectError(`document id ${id} is taken`, Code.AlreadyExists);
      return toDocument(winner);
    } catch (err) {
      await discard(stored);
      if (sourceKey) await blobs.delete(sourceKey).catch(() => {});
      throw err;
    } finally {
      await spooled.discard();
    }
  }

  /**
   * An original in another format made into a PDF beside it in the spool (converted.pdf), with what it
   * was made from; undefined for a PDF, and for a file of no format the converter reads (which the
   * inspector then refuses).
   */
  private async converted(
    spooled: SpooledUpload,
    workspaceId: string,
    filename: string,
    signal?: AbortSignal,
  ): Promise<{ source: ConvertedSource; pdf: { path: string; sizeBytes: number } } | undefined> {
    const format = sniff(await headOf(spooled.path));
    if (format === undefined || format === "pdf") return undefined;
    const path = join(dirname(spooled.path), "converted.pdf");
    await this.deps.converter.convert(spooled.path, format, path, this.deps.maxPages, {
      party: workspaceId,
      signal,
    });
    const { size } = await stat(path);
    if (size > this.deps.maxUploadBytes) throw madeTooLarge(size, this.deps.maxUploadBytes);
    const source: ConvertedSource = {
      format,
      filename: sourceName(filename, format),
      path: spooled.path,
      sizeBytes: spooled.sizeBytes,
      sha256: spooled.sha256 ?? (await sha256Of(spooled.path)),
    };
    return { source, pdf: { path, sizeBytes: size } };
  }

  /** The upload's bytes in the spool: received from the chunks, or the file the caller spooled itself. */
  private async spooled(header: UploadHeader, chunks: AsyncIterable<Uint8Array>): Promise<SpooledUpload> {
    const { maxUploadBytes, spoolDir } = this.deps;
    if (!header.spooledFileUrl) return spoolUpload(chunks, maxUploadBytes, spoolDir);
    const taken = await takeSpooledUpload(header.spooledFileUrl, maxUploadBytes, spoolDir);
    for await (const _ of chunks) {
      await taken.discard();
      throw validationError([{ path: "chunk", message: "a spooled upload is sent without chunks" }]);
    }
    return taken;
  }

  async get(workspaceId: string, documentId: string): Promise<Document> {
    return toDocument(await this.row(workspaceId, documentId));
  }

  async list(
    workspaceId: string,
    pageIndex: number,
    pageSize: number,
  ): Promise<{ documents: Document[]; totalCount: number }> {
    if (!isUuid(workspaceId)) return { documents: [], totalCount: 0 };
    const { rows, totalCount } = await store.page(this.deps.db, workspaceId, pageIndex, pageSize);
    return { documents: rows.map(toDocument), totalCount };
  }

  /**
   * A document and where its bytes are: a stream, or a URL from which the caller reads them itself,
   * so that they go from the store to the caller without passing through here — a presigned URL
   * valid for a minute where the store can sign one (S3), the stored file's URL where the store is
   * a filesystem the caller shares.
   */
  async download(
    workspaceId: string,
    documentId: string,
    accepts: { url?: boolean; file?: boolean } = {},
    { source = false }: { source?: boolean } = {},
  ): Promise<{ document: Document; source: { bytes: Readable } | { url: string } }> {
    const row = await this.row(workspaceId, documentId);
    const key = source ? row.source_blob_key : row.blob_key;
    if (!key)
      throw new ConnectError("the document was uploaded as a PDF: it has no source file", Code.NotFound);
    const { blobs } = this.deps;
    const url =
      (accepts.file ? blobs.fileUrl?.(key) : undefined) ??
      (accepts.url ? await blobs.readUrl?.(key, DIRECT_URL_SECONDS) : undefined);
    return {
      document: toDocument(row),
      source: url ? { url } : { bytes: await this.deps.blobs.get(key) },
    };
  }

  async delete(workspaceId: string, documentId: string): Promise<void> {
    if (!isUuid(workspaceId) || !isUuid(documentId)) throw notFound("document");
    const row = await store.delete(this.deps.db, workspaceId, documentId);
    if (!row) throw notFound("document");
    if (row === "claimed") {
      const holders = await store.holders(this.deps.db, documentId);
      throw new ConnectError(
        `the document is in use (${holders.join(", ")}); delete what uses it first`,
        Code.FailedPrecondition,
      );
    }
    // The row goes first: a blob left by a failed delete is garbage, a row without its blob a broken document.
    for (const key of [row.blob_key, row.source_blob_key]) {
      if (!key) continue;
      await this.deps.blobs
        .delete(key)
        .catch((err: unknown) =>
          this.deps.logger.warn({ err, blob: key }, "document deleted, but its blob was not"),
        );
    }
  }

  /** Records that holder uses the document and returns it with its page sizes. */
  async claim(workspaceId: string, documentId: string, holder: string): Promise<Document> {
    if (!HOLDER.test(holder))
      throw validationError([{ path: "holder", message: "must be 1 to 200 printable characters" }]);
    const row = await this.withPageSizes(await this.row(workspaceId, documentId));
    if (!(await store.claim(this.deps.db, documentId, holder))) throw notFound("document");
    return toDocument(row);
  }

  async release(workspaceId: string, documentId: string, holder: string): Promise<void> {
    if (!isUuid(workspaceId) || !isUuid(documentId)) return;
    await store.release(this.deps.db, workspaceId, documentId, holder);
  }

  /** A page of claims by holder prefix, for holders reconciling what they claimed (ListClaims). */
  async claims(
    holderPrefix: string,
    before: Date,
    pageSize: number,
    pageToken: string,
  ): Promise<{ claims: ClaimRow[]; nextPageToken: string }> {
    const violations = [
      ...(holderPrefix && HOLDER.test(holderPrefix)
        ? []
        : [{ path: "holderPrefix", message: "must be 1 to 200 printable characters" }]),
      ...(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000
        ? []
        : [{ path: "pageSize", message: "must be from 1 to 1000" }]),
    ];
    const after = pageToken ? positionOf(pageToken) : undefined;
    if (pageToken && !after)
      violations.push({ path: "pageToken", message: "is not a token this service gave" });
    if (violations.length > 0) throw validationError(violations);
    const claims = await store.claimsPage(this.deps.db, holderPrefix, before, after, pageSize);
    const last = claims.at(-1);
    const nextPageToken =
      claims.length === pageSize && last
        ? Buffer.from(`${last.holder}\n${last.document_id}`).toString("base64url")
        : "";
    return { claims, nextPageToken };
  }

  /** Documents stored before page sizes were kept are measured from their bytes, once. */
  private async withPageSizes(row: DocumentRow): Promise<DocumentRow> {
    if (row.page_sizes) return row;
    const bytes = await buffer(await this.deps.blobs.get(row.blob_key));
    const inspection = await this.deps.inspector.bytes(bytes, row.workspace_id);
    if (!inspection.ok) throw new Error(`stored document ${row.id} no longer reads as a PDF`);
    await store.setPageSizes(this.deps.db, row.id, inspection.pageSizes);
    return { ...row, page_sizes: inspection.pageSizes };
  }

  private async row(workspaceId: string, documentId: string): Promise<DocumentRow> {
    const row =
      isUuid(workspaceId) && isUuid(documentId)
        ? await store.get(this.deps.db, workspaceId, documentId)
        : undefined;
    if (!row) throw notFound("document");
    return row;
  }
}
