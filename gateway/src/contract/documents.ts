/** Documents as the public API writes them, and the shapes of an upload (docs/design.md §4). */
import { z } from "zod";
import { TextCover } from "./templates.js";
import { id, page, text, timestamp } from "./values.js";
import { FieldType } from "./vocabulary.js";

export const Document = z
  .strictObject({
    id: z.uuid(),
    filename: z.string().meta({ description: "The uploaded name, made safe." }),
    contentType: z.string().meta({
      description:
        "application/pdf: every document is a PDF; one uploaded in another format is the PDF made of it (`source`).",
    }),
    sizeBytes: z.int().min(1),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    pageCount: z.int().min(1),
    kind: z.enum(["original", "signed", "certificate", "attachment"]).meta({
      description:
        "`original`: uploaded by a client; `signed`: a completed request's sealed PDF; `certificate`: a certificate of completion; `attachment`: a file a signer gave for an attachment field (an image given is kept as a one-page PDF).",
    }),
    createdAt: timestamp,
    pages: z.array(z.strictObject({ width: z.number(), height: z.number() })).meta({
      description: "Each page's visible size in PDF points (crop box, rotation applied), for placing fields.",
    }),
    removed: z.array(z.string()).meta({
      description:
        "What was taken out of the upload to make it safe to sign, in words (JavaScript, actions run on opening, embedded files, earlier revisions; form fields are flattened into the pages as they look). Empty when the file was stored as it was sent; otherwise sha256 and sizeBytes are the stored file's.",
    }),
    source: z
      .strictObject({
        filename: z.string(),
        contentType: z
          .string()
          .meta({ description: "The media type of the format the file is in, whatever was declared." }),
        sizeBytes: z.int().min(1),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      })
      .optional()
      .meta({
        description:
          "The file this PDF was made from, when it was uploaded as a Word document (DOCX), an OpenDocument text (ODT), RTF, or a PNG or JPEG image; kept as it was sent, at `GET /documents/{documentId}/source`. Absent for a PDF uploaded as one.",
      }),
  })
  .meta({ id: "Document" });

export const DocumentPage = page(Document, "DocumentPage");

export const DocumentIdParams = z.object({ documentId: id("The document's id.") });

export const UploadQuery = z.object({
  filename: text().optional().meta({ description: "The file's name, for a raw body (not multipart)." }),
});

/** The media types a raw upload body may have besides multipart: a PDF, or a file made into one. */
export const RAW_UPLOAD_TYPES = [
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.oasis.opendocument.text",
  "application/rtf",
  "text/rtf",
  "image/png",
  "image/jpeg",
  "application/octet-stream",
] as const;

/** What an upload's body is; the gateway streams it and never parses it as JSON. */
export const uploadContent = {
  "multipart/form-data": {
    schema: z.object({
      file: z
        .string()
        .meta({ format: "binary", description: "The PDF, Word (DOCX), ODT, RTF, PNG or JPEG file." }),
    }),
  },
  ...Object.fromEntries(
    RAW_UPLOAD_TYPES.map((type) => [type, { schema: z.string().meta({ format: "binary" }) }]),
  ),
};

export const TextTagFields = z
  .strictObject({
    fields: z.array(
      z.strictObject({
        type: FieldType,
        role: z.string().meta({ description: "The role the tag names, as it is written." }),
        label: z.string(),
        required: z.boolean(),
        page: z.int().min(1),
        x: z.number(),
        y: z.number(),
        width: z.number(),
        height: z.number(),
        cover: TextCover,
      }),
    ),
  })
  .meta({
    id: "TextTagFields",
    description:
      "The fields the document's text tags place, in page order, as `textTags: true` places them when a template or a request is made from the document.",
  });
