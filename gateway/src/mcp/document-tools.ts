/**
 * Documents in and out of an assistant's conversation, where there is no stream to read or write:
 * an upload arrives as base64 inside the tool call and goes to the documents service exactly as an
 * HTTP upload does (storeDocument: the same checks for type, damage and encryption), and a download
 * comes back whole, as an MCP embedded resource, with its metadata as the structured result.
 */
import type { Client } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { formatBytes } from "@countersign/kit";
import { z } from "zod";
import { base64Text } from "../contract/base64.js";
import { Document, DocumentIdParams } from "../contract/documents.js";
import { text } from "../contract/values.js";
import { readDocument } from "../document-download.js";
import { ApiProblem } from "../problems.js";
import { RESOURCE_BASE } from "../public-api.js";
import { documentJson, storeFileBytes } from "../routes/documents.js";
import { readArgumentsAs } from "./tool-arguments.js";
import { jsonSchemaOf } from "./tool-schemas.js";
import type { Tool } from "./tools.js";

const UploadArguments = z.strictObject({
  filename: text()
    .min(1)
    .max(255)
    .meta({ description: "The file name recipients see, such as `lease.pdf` or `lease.docx`." }),
  contentBase64: base64Text().meta({
    description:
      "The file's bytes in standard base64 (RFC 4648 §4, with padding): a PDF, or a Word document (DOCX), ODT, RTF, PNG or JPEG, which is made a PDF.",
    contentEncoding: "base64",
  }),
});

const DownloadArguments = z.strictObject(DocumentIdParams.shape);

export function documentTools(
  documents: Client<typeof DocumentsService>,
  maxUploadBytes: number,
  publicUrl: string,
): Tool[] {
  const limit = formatBytes(maxUploadBytes);
  return [
    {
      name: "upload_document",
      title: "Upload a document",
      description: `Upload a PDF, base64-encoded, of at most ${limit}; a Word document (DOCX), ODT or RTF is made a PDF (where the service has LibreOffice) and a PNG or JPEG image a one-page PDF, and the answer's \`source\` names the file it was made from. The answer has the document's id for create_signature_request (\`documentIds\`), its page count and each page's size in PDF points for placing fields. Damaged and password-protected PDFs are refused.`,
      annotations: {
        title: "Upload a document",
        readOnlyHint: false,
        destructiveHint: false,
        openWorldHint: false,
      },
      needs: { scope: "documents:write" },
      inputSchema: jsonSchemaOf(UploadArguments, "input"),
      outputSchema: jsonSchemaOf(Document, "output"),
      async run(args, { workspaceId, dryRun }) {
        const { filename, contentBase64 } = readArgumentsAs(UploadArguments, args);
        if (Buffer.byteLength(contentBase64, "base64") > maxUploadBytes) {
          throw new ApiProblem("payload_too_large", `the file is larger than ${limit}`);
        }
        const bytes = Buffer.from(contentBase64, "base64");
        const document = await storeFileBytes(documents, workspaceId, filename, bytes, {
          validateOnly: dryRun,
        });
        return { status: 201, body: document };
      },
    },
    {
      name: "download_document",
      title: "Download a document",
      description:
        "Download a document: an upload, or a completed request's signed PDF (`signedDocumentId` in get_signature_request), sealed and carrying its certificate of completion. The PDF comes back as an embedded resource (base64), with its metadata and SHA-256 as the result.",
      annotations: { title: "Download a document", readOnlyHint: true, openWorldHint: false },
      needs: { scope: "documents:read" },
      inputSchema: jsonSchemaOf(DownloadArguments, "input"),
      outputSchema: jsonSchemaOf(Document, "output"),
      async run(args, { workspaceId }) {
        const { documentId } = readArgumentsAs(DownloadArguments, args);
        const { document, bytes } = await readDocument(documents, workspaceId, documentId);
        return {
          status: 200,
          body: documentJson(document),
          attachments: [
            {
              type: "resource",
              resource: {
                uri: `${publicUrl}${RESOURCE_BASE}/documents/${document.id}/download`,
                mimeType: document.contentType,
                blob: bytes.toString("base64"),
              },
            },
          ],
        };
      },
    },
  ];
}
