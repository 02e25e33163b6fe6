/**
 * A request's whole evidence as one ZIP, for an archive or a court, checkable without this
 * service: the request as the API answers it, the originals, the files signers attached, the sealed
 * PDF once completed, the audit trail as JSON (each entry with the content its hash is taken over),
 * CSV and a PDF report, a README saying how to check each, and SHA256SUMS over every other file.
 *
 * Streamed: each document goes into the archive as its chunks arrive, stored (PDFs are compressed
 * already), so a package of large documents costs one chunk of memory, not the package. What can
 * fail before the first byte (the request, its trail, the report) is read first, so those failures
 * are problems with a status; a document that cannot be read later ends the download cut short.
 */
import { createHash } from "node:crypto";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type {
  AuditEntry,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { Zip, ZipPassThrough } from "fflate";
import { documentChunks } from "./document-download.js";
import { entryNames } from "./zip-names.js";

/**
 * One file of the package: its bytes now, or a stored document's chunks as they come (with `source`,
 * those of the file it was made from).
 */
export type PackageFile =
  | { path: string; bytes: Uint8Array }
  | { path: string; documentId: string; source?: boolean };

/** The audit trail as a verifier reads it: each entry is its hashed content and its hash. */
export function auditTrailJson(requestId: string, entries: AuditEntry[], verified: boolean): string {
  return `${JSON.stringify(
    {
      requestId,
      verified,
      hashing:
        "each entry's hash is the SHA-256 (hex) of the entry without `hash`, as canonical JSON (RFC 8785); `previousHash` is the hash of the entry before (empty for the first)",
      entries: entries.map((entry) => ({ ...JSON.parse(entry.hashedContent), hash: entry.hash })),
    },
    null,
    2,
  )}\n`;
}

function readme(
  request: SignatureRequest,
  verified: boolean,
  madeAt: Date,
  { sealedPath, hasSources }: { sealedPath?: string; hasSources: boolean },
): string {
  return [
    `Evidence package of the signature request ${request.id}: "${request.title}"`,
    `Made by Countersign at ${madeAt.toISOString()}, while the request was ${request.status}.`,
    "",
    "What is here",
    "- request.json: the request as the API answers GET /signature-requests/{id}",
    "- originals/: the documents as they were signed (a PDF, or the PDF made of a file uploaded in another format)",
    ...(hasSources
      ? ["- sources/: the files uploaded as Word documents, ODT, RTF or images, as they were sent"]
      : []),
    ...(request.signerAttachments.length > 0 ? ["- attachments/: the files signers attached"] : []),
    ...(sealedPath ? [`- ${sealedPath}: the completed PDF with its certificate of completion, sealed`] : []),
    ...(request.documentsDeleteTime
      ? [
          `- No documents: the workspace's retention deleted them at ${timestampDate(request.documentsDeleteTime).toISOString()} (the audit trail says which, with their SHA-256)${request.certificateDocumentId ? "; certificate/ holds the certificate of completion it kept" : ""}`,
        ]
      : []),
    "- audit-trail.json: every entry of the audit trail, each with its hash",
    "- audit-trail.csv, audit-trail.pdf: the same trail for a spreadsheet and for reading",
    "- SHA256SUMS: the SHA-256 of every other file here",
    "",
    "How to check it without Countersign",
    "1. The files are as they were packed: sha256sum -c SHA256SUMS",
    ...(sealedPath
      ? [`2. The seal: pdfsig "${sealedPath}" (poppler), or a PDF reader's signature panel.`]
      : ["2. There is no seal yet: the request is not completed."]),
    "3. The audit trail: for each entry of audit-trail.json, take the entry without `hash`, write it",
    "   as canonical JSON (RFC 8785) and take its SHA-256: it is the entry's `hash`. Each entry's",
    "   `previousHash` is the `hash` of the entry before it (empty for the first).",
    verified
      ? "   When this package was made, every hash and link of the chain held."
      : "   When this package was made, the chain did NOT hold: an entry was changed after it was written.",
    "",
  ].join("\r\n");
}

/**
 * Every file of the package but the README and the sums, in the order they are packed.
 * `sourceNames`: the file each original converted from another format was made from, by its id.
 */
export function packageFiles(
  request: SignatureRequest,
  documentNames: Map<string, string>,
  sourceNames: Map<string, string>,
  trail: { json: string; csv: string; pdf: Uint8Array },
  requestJson: unknown,
): PackageFile[] {
  const encoder = new TextEncoder();
  /** The documents of `all` that are still kept (retention may have deleted them), in a folder. */
  const folder = (name: string, all: string[]) => {
    const ids = all.filter((id) => documentNames.has(id));
    return entryNames(ids.map((id) => documentNames.get(id) as string)).map((file, i) => ({
      path: `${name}/${file}`,
      documentId: ids[i] as string,
    }));
  };
  const converted = request.documentIds.filter((id) => sourceNames.has(id));
  return [
    { path: "request.json", bytes: encoder.encode(`${JSON.stringify(requestJson, null, 2)}\n`) },
    ...folder("originals", request.documentIds),
    ...entryNames(converted.map((id) => sourceNames.get(id) as string)).map((file, i) => ({
      path: `sources/${file}`,
      documentId: converted[i] as string,
      source: true,
    })),
    ...folder(
      "attachments",
      request.signerAttachments.map((a) => a.documentId),
    ),
    ...(request.signedDocumentId ? folder("sealed", [request.signedDocumentId]) : []),
    ...(request.certificateDocumentId ? folder("certificate", [request.certificateDocumentId]) : []),
    { path: "audit-trail.json", bytes: encoder.encode(trail.json) },
    { path: "audit-trail.csv", bytes: encoder.encode(trail.csv) },
    { path: "audit-trail.pdf", bytes: trail.pdf },
  ];
}

/** The package's bytes as they are made: the README, each file, then SHA256SUMS. */
export async function* zippedPackage(
  documents: Client<typeof DocumentsService>,
  request: SignatureRequest,
  files: PackageFile[],
  verified: boolean,
): AsyncGenerator<Uint8Array> {
  const made: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, data) => {
    if (err) failure = err;
    else made.push(data);
  });
  function* push(file: ZipPassThrough, bytes: Uint8Array, final: boolean) {
    file.push(bytes, final);
    if (failure) throw failure;
    yield* made.splice(0);
  }
  const sums: string[] = [];
  const sealedPath = files.find((f) => f.path.startsWith("sealed/"))?.path;
  const hasSources = files.some((f) => f.path.startsWith("sources/"));
  const entries: PackageFile[] = [
    {
      path: "README.txt",
      bytes: new TextEncoder().encode(readme(request, verified, new Date(), { sealedPath, hasSources })),
    },
    ...files,
  ];
  for (const entry of entries) {
    const file = new ZipPassThrough(entry.path);
    zip.add(file);
    const hash = createHash("sha256");
    if ("bytes" in entry) {
      hash.update(entry.bytes);
      yield* push(file, entry.bytes, true);
    } else {
      const { chunks } = await documentChunks(documents, request.workspaceId, entry.documentId, {
        source: entry.source,
      });
      for await (const chunk of chunks) {
        hash.update(chunk);
        yield* push(file, chunk, false);
      }
      yield* push(file, new Uint8Array(), true);
    }
    sums.push(`${hash.digest("hex")}  ${entry.path}\n`);
  }
  const file = new ZipPassThrough("SHA256SUMS");
  zip.add(file);
  yield* push(file, new TextEncoder().encode(sums.join("")), true);
  zip.end();
  if (failure) throw failure;
  yield* made.splice(0);
}
