/**
 * A request's evidence to take away: its audit trail as CSV or as a PDF report, and the whole
 * evidence package as one ZIP (evidence-package.ts). Downloads, in both route families and the
 * console; the MCP tools keep to the JSON audit trail.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { create as contentDisposition } from "content-disposition";
import type { Response } from "express";
import { auditCsv } from "../audit-csv.js";
import { AuditExportQuery, RequestIdParams } from "../contract/signature-requests.js";
import { CUSTOMER_FILE_POLICY } from "../document-download.js";
import { auditTrailJson, packageFiles, zippedPackage } from "../evidence-package.js";
import type { PublicApi } from "../public-api.js";
import { signatureRequestJson } from "./signature-request-json.js";

const PROBLEMS = [400, 401, 403, 404, 429, 500, 503] as const;

/** A file name from a request's title: no path, no more than a file system takes. */
function titled(title: string, suffix: string): string {
  return `${title.replace(/[\\/\p{Cc}]/gu, "-").slice(0, 150) || "request"} ${suffix}`;
}

function sendFile(res: Response, type: string, filename: string, bytes: Uint8Array): void {
  res.set({
    "Content-Type": type,
    "Content-Length": String(bytes.length),
    "Content-Disposition": contentDisposition(filename),
    "Cache-Control": "private, no-store",
    "Content-Security-Policy": CUSTOMER_FILE_POLICY,
  });
  res.end(bytes);
}

export function requestExportRoutes(
  api: PublicApi,
  requests: Client<typeof RequestsService>,
  documents: Client<typeof DocumentsService>,
): void {
  /** The audit trail's PDF report, drawn by the requests service. */
  async function auditReport(workspaceId: string, requestId: string) {
    const chunks: Uint8Array[] = [];
    let filename = "";
    for await (const { part } of requests.getAuditReport({ workspaceId, requestId })) {
      if (part.case === "report") filename = part.value.filename;
      else if (part.case === "chunk") chunks.push(part.value);
    }
    return { filename, bytes: Buffer.concat(chunks) };
  }

  api.streamRoute(
    "get",
    "/signature-requests/:requestId/audit-trail/export",
    {
      summary: "Export a request's audit trail",
      description:
        "The audit trail as a file to keep: `format=csv` gives one row per entry (RFC 4180, UTF-8 with a byte order mark; a cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading `'` so no spreadsheet runs it), `format=pdf` a report with the request, its recipients, every entry with its hash, and whether the chain holds.",
      tag: "Signature requests",
      scope: "requests:read",
      params: RequestIdParams,
      query: AuditExportQuery,
      answers: {
        200: {
          description: "The audit trail.",
          content: {
            "text/csv": { schema: { type: "string" } },
            "application/pdf": { schema: { type: "string", format: "binary" } },
          },
        },
      },
      problems: [...PROBLEMS],
    },
    async ({ res, workspaceId, params, query }) => {
      if (query.format === "pdf") {
        const report = await auditReport(workspaceId, params.requestId);
        sendFile(res, "application/pdf", report.filename, report.bytes);
        return;
      }
      const [{ signatureRequest }, trail] = await Promise.all([
        requests.getSignatureRequest({ workspaceId, requestId: params.requestId }),
        requests.getAuditTrail({ workspaceId, requestId: params.requestId }),
      ]);
      const csv = Buffer.from(auditCsv(trail.entries), "utf8");
      const title = titled(signatureRequest?.title ?? "", "(audit trail).csv");
      sendFile(res, "text/csv; charset=utf-8; header=present", title, csv);
    },
  );

  api.streamRoute(
    "get",
    "/signature-requests/:requestId/evidence-package",
    {
      summary: "Download a request's evidence package",
      description:
        "One ZIP with everything that proves what happened, checkable without this service: `request.json`, `originals/`, `attachments/` (files signers attached), `sealed/` (the sealed PDF, once completed), `audit-trail.json` (every entry with the content its hash is taken over), `audit-trail.csv`, `audit-trail.pdf`, a `README.txt` saying how to check each, and `SHA256SUMS` (`sha256sum -c SHA256SUMS`). Streamed: its length is not known in advance.",
      tag: "Signature requests",
      // The documents' bytes are in it: what reading documents needs, besides reading the request.
      scope: ["requests:read", "documents:read"],
      params: RequestIdParams,
      answers: {
        200: {
          description: "The evidence package.",
          content: { "application/zip": { schema: { type: "string", format: "binary" } } },
        },
      },
      problems: [...PROBLEMS],
    },
    async ({ res, workspaceId, params }) => {
      const { requestId } = params;
      const [{ signatureRequest: request }, trail, report] = await Promise.all([
        requests.getSignatureRequest({ workspaceId, requestId }),
        requests.getAuditTrail({ workspaceId, requestId }),
        auditReport(workspaceId, requestId),
      ]);
      if (!request) throw new Error("the requests service answered without a signature request");
      const ids = [...request.documentIds, ...request.signerAttachments.map((a) => a.documentId)];
      if (request.signedDocumentId) ids.push(request.signedDocumentId);
      if (request.certificateDocumentId) ids.push(request.certificateDocumentId);
      const stored = await Promise.all(
        ids.map(async (documentId) => {
          // One the workspace's retention deleted is not in the package; the README says so.
          const document = await documents.getDocument({ workspaceId, documentId }).then(
            (found) => found.document,
            (err: unknown) => {
              if (ConnectError.from(err).code === Code.NotFound && request.documentsDeleteTime)
                return undefined;
              throw err;
            },
          );
          return { documentId, document };
        }),
      );
      const names = new Map(
        stored.flatMap(({ documentId, document }) => (document ? [[documentId, document.filename]] : [])),
      );
      const sources = new Map(
        stored.flatMap(({ documentId, document }) =>
          document?.source ? [[documentId, document.source.filename]] : [],
        ),
      );
      const files = packageFiles(
        request,
        names,
        sources,
        {
          json: auditTrailJson(requestId, trail.entries, trail.verified),
          csv: auditCsv(trail.entries),
          pdf: report.bytes,
        },
        signatureRequestJson(request),
      );
      res.set({
        "Content-Type": "application/zip",
        "Content-Disposition": contentDisposition(titled(request.title, "(evidence).zip")),
        "Cache-Control": "private, no-store",
        "Content-Security-Policy": CUSTOMER_FILE_POLICY,
      });
      // A client that hangs up ends the package: nobody is left to answer, and nothing failed. A
      // document that cannot be read cuts the download (the answer's status is sent), so the client
      // sees a failed download rather than a complete-looking ZIP that lacks files.
      await pipeline(Readable.from(zippedPackage(documents, request, files, trail.verified)), res).catch(
        (err: unknown) => {
          if ((err as { code?: unknown }).code !== "ERR_STREAM_PREMATURE_CLOSE") throw err;
        },
      );
    },
  );
}
