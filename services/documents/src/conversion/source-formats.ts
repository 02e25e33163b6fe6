/**
 * The formats an upload may come in besides PDF, told by the file's first bytes. What a client
 * declares names nothing here: LibreOffice reads a file it does not recognise as plain text, so a
 * file of anything declared as a Word document became a PDF of its bytes.
 */
import { SourceFormat } from "@countersign/gen/countersign/documents/v1/converter_service_pb.js";

export interface SourceFormatFacts {
  /** In words, for messages: "a Word document (DOCX)". */
  name: string;
  /** The media type the source is kept and downloaded with. */
  mediaType: string;
  /** The file name extension LibreOffice and a downloader expect. */
  extension: string;
  /** Other extensions files of the format are named with. */
  otherExtensions?: string[];
}

export type KnownSourceFormat = Exclude<SourceFormat, SourceFormat.UNSPECIFIED>;

export const SOURCE_FORMATS: Record<KnownSourceFormat, SourceFormatFacts> = {
  [SourceFormat.DOCX]: {
    name: "a Word document (DOCX)",
    mediaType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    extension: "docx",
  },
  [SourceFormat.ODT]: {
    name: "an OpenDocument text (ODT)",
    mediaType: "application/vnd.oasis.opendocument.text",
    extension: "odt",
  },
  [SourceFormat.RTF]: {
    name: "a Rich Text Format document (RTF)",
    mediaType: "application/rtf",
    extension: "rtf",
  },
  [SourceFormat.PNG]: { name: "a PNG image", mediaType: "image/png", extension: "png" },
  [SourceFormat.JPEG]: {
    name: "a JPEG image",
    mediaType: "image/jpeg",
    extension: "jpg",
    otherExtensions: ["jpeg"],
  },
};

/** The formats LibreOffice converts; images become pages without it. */
export function isOfficeFormat(format: KnownSourceFormat): boolean {
  return format === SourceFormat.DOCX || format === SourceFormat.ODT || format === SourceFormat.RTF;
}

/** Media types an upload may declare: PDF, the source formats' own and their common aliases, or none. */
export const UPLOADABLE_TYPES = new Set([
  "",
  "application/pdf",
  "application/x-pdf",
  "application/octet-stream",
  "text/rtf",
  "image/jpg",
  "image/pjpeg",
  ...Object.values(SOURCE_FORMATS).map((facts) => facts.mediaType),
]);

/** What can be uploaded, in words, for the message refusing anything else. */
export const UPLOADABLE_IN_WORDS = "PDF, Word (DOCX), OpenDocument text (ODT), RTF, PNG and JPEG files";

/** How many of a file's first bytes `sniff` reads. */
export const SNIFF_BYTES = 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);
const ZIP_SIGNATURE = Buffer.from("PK\x03\x04", "latin1");
/** An OpenDocument file's first entry is `mimetype`, stored uncompressed, naming its kind. */
const ODF_MIMETYPE_ENTRY = Buffer.from("mimetype");
const ODT_MIMETYPE = Buffer.from("application/vnd.oasis.opendocument.text");

/**
 * "pdf" for a PDF (a header within the first kilobyte, as readers allow), the source format a file
 * is in, or undefined for anything else. A ZIP that is not an OpenDocument file is taken for a Word
 * document, which LibreOffice's Word reader then opens or refuses.
 */
export function sniff(head: Uint8Array): "pdf" | KnownSourceFormat | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, SNIFF_BYTES));
  if (bytes.includes("%PDF-")) return "pdf";
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return SourceFormat.PNG;
  if (bytes.subarray(0, 3).equals(JPEG_SIGNATURE)) return SourceFormat.JPEG;
  if (bytes.subarray(0, 5).toString("latin1") === "{\\rtf") return SourceFormat.RTF;
  if (bytes.length < 30 || !bytes.subarray(0, 4).equals(ZIP_SIGNATURE)) return undefined;
  const nameLength = bytes.readUInt16LE(26);
  const extraLength = bytes.readUInt16LE(28);
  const name = bytes.subarray(30, 30 + nameLength);
  if (!name.equals(ODF_MIMETYPE_ENTRY)) return SourceFormat.DOCX;
  const content = bytes.subarray(30 + nameLength + extraLength);
  return content.subarray(0, ODT_MIMETYPE.length).equals(ODT_MIMETYPE) &&
    // "application/vnd.oasis.opendocument.text-template" and "-master" are other kinds.
    (content.length === ODT_MIMETYPE.length || content[ODT_MIMETYPE.length] === 0x50)
    ? SourceFormat.ODT
    : undefined;
}

/** "contract.docx" → "contract.pdf": the name of the PDF made of a file. */
export function pdfName(filename: string): string {
  return `${filename.replace(/\.[A-Za-z0-9]{1,5}$/, "")}.pdf`;
}
