/**
 * The one digital signature on a completed PDF: a CMS detached signature over the whole file
 * (subfilter ETSI.CAdES.detached), made with the configured seal certificate, so that standard
 * tools (poppler's pdfsig, Acrobat) show any later change as a broken signature.
 */

import { SignPdf } from "@signpdf/signpdf";
import { SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import type { PDFDocument } from "pdf-lib";
import { CadesSigner } from "./cades-signer.js";
import { identityOf, openSeal, type SealCredentials, type SealIdentity } from "./seal-certificate.js";

export class Seal {
  readonly identity: SealIdentity;
  private readonly signer: CadesSigner;

  /** Throws a sentence naming what is wrong with the certificate file; callers add which setting. */
  constructor(credentials: SealCredentials) {
    const opened = openSeal(credentials);
    this.identity = identityOf(opened);
    this.signer = new CadesSigner(opened);
  }

  /** The document saved and sealed; `reason` is what PDF readers show as the signature's reason. */
  async apply(doc: PDFDocument, reason: string, signingTime: Date): Promise<Buffer> {
    // Loaded with the document it seals (it loads pdf-lib), not at start.
    const { pdflibAddPlaceholder } = await import("@signpdf/placeholder-pdf-lib");
    pdflibAddPlaceholder({
      pdfDoc: doc,
      reason,
      contactInfo: "",
      name: this.identity.commonName,
      location: "",
      signingTime,
      // Room for the CMS structure (its certificates, the signature and attributes), in whole
      // 4 KiB: with an odd length the byte range signpdf writes misses the file's last byte.
      signatureLength: Math.ceil((this.identity.certificateBytes + 8192) / 4096) * 4096,
      subFilter: SUBFILTER_ETSI_CADES_DETACHED,
      appName: "Countersign",
    });
    // The placeholder's byte range is found by scanning; object streams would compress it away.
    const bytes = Buffer.from(await doc.save({ useObjectStreams: false }));
    return new SignPdf().sign(bytes, this.signer, signingTime);
  }
}
