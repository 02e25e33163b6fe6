/**
 * The one digital signature on a completed PDF: a CMS detached signature over the whole file
 * (subfilter ETSI.CAdES.detached), made with the configured seal certificate, so that standard
 * tools (poppler's pdfsig, Acrobat) show any later change as a broken signature. Made in two steps:
 * the room for the signature is laid into the document where it is drawn (a worker thread, which
 * needs only the seal's name and size), and the signature is written into that room here, where
 * the key is.
 */

import { SignPdf } from "@signpdf/signpdf";
import { SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import type { PDFDocument } from "pdf-lib";
import { CadesSigner } from "./cades-signer.js";
import { identityOf, openSeal, type SealCredentials, type SealIdentity } from "./seal-certificate.js";

/** What laying the signature's room needs to know of the seal: no key. */
export type SealRoom = Pick<SealIdentity, "commonName" | "certificateBytes">;

/**
 * Lays an empty signature into the document (`reason` is what PDF readers show as the signature's
 * reason) and saves it; `Seal.sign` fills it.
 */
export async function saveWithSealRoom(
  doc: PDFDocument,
  room: SealRoom,
  reason: string,
  signingTime: Date,
): Promise<Uint8Array> {
  // Loaded with the document it seals (it loads pdf-lib), not at start.
  const { pdflibAddPlaceholder } = await import("@signpdf/placeholder-pdf-lib");
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason,
    contactInfo: "",
    name: room.commonName,
    location: "",
    signingTime,
    // Room for the CMS structure (its certificates, the signature and attributes), in whole
    // 4 KiB: with an odd length the byte range signpdf writes misses the file's last byte.
    signatureLength: Math.ceil((room.certificateBytes + 8192) / 4096) * 4096,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: "Countersign",
  });
  // The placeholder's byte range is found by scanning; object streams would compress it away.
  return doc.save({ useObjectStreams: false });
}

export class Seal {
  readonly identity: SealIdentity;
  private readonly signer: CadesSigner;

  /** Throws a sentence naming what is wrong with the certificate file; callers add which setting. */
  constructor(credentials: SealCredentials) {
    const opened = openSeal(credentials);
    this.identity = identityOf(opened);
    this.signer = new CadesSigner(opened);
  }

  /** The document `saveWithSealRoom` saved, sealed. */
  sign(bytes: Uint8Array, signingTime: Date): Promise<Buffer> {
    return new SignPdf().sign(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
      this.signer,
      signingTime,
    );
  }
}
