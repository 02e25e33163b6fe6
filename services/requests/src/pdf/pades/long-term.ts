/**
 * Long-term validation (PAdES B-LT and B-LTA, ETSI EN 319 142-1): after the seal, a revision adds
 * the document security store (DSS) — the certificates of the seal's and the time-stamps' chains
 * and the OCSP responses and CRLs that say they were not revoked — and an empty document
 * time-stamp, which an authority's token then fills. The time-stamp covers the seal and the DSS,
 * so the evidence stays checkable after the certificates expire, and can be stamped again before
 * the time-stamp's own certificate does.
 */
import { PDFArray, PDFDict, type PDFDocument, PDFName } from "pdf-lib";
import { appendRevision } from "./incremental-update.js";
import { layTimestampRoom } from "./signature-room.js";

/** What a verifier needs besides the document to check its signatures years later, as DER. */
export interface ValidationData {
  certificates: Uint8Array[];
  ocspResponses: Uint8Array[];
  crls: Uint8Array[];
}

function streamsInto(doc: PDFDocument, dss: PDFDict, key: string, items: Uint8Array[]): void {
  if (items.length === 0) return;
  const name = PDFName.of(key);
  let list = dss.lookupMaybe(name, PDFArray);
  if (!list) {
    list = PDFArray.withContext(doc.context);
    dss.set(name, list);
  }
  for (const item of items) list.push(doc.context.register(doc.context.flateStream(item)));
}

/** The DSS of `doc`, made when it has none. */
function securityStore(doc: PDFDocument): PDFDict {
  const existing = doc.catalog.lookupMaybe(PDFName.of("DSS"), PDFDict);
  if (existing) return existing;
  const dss = doc.context.obj({ Type: "DSS" });
  doc.catalog.set(PDFName.of("DSS"), doc.context.register(dss));
  return dss;
}

/**
 * Appends the revision with the validation data and an empty document time-stamp of
 * `timestampBytes`; byte-range.ts opens it, the authority's token fills it.
 */
export function addValidationRevision(
  pdf: Uint8Array,
  data: ValidationData,
  timestampBytes: number,
): Promise<Uint8Array> {
  return appendRevision(pdf, (doc) => {
    const dss = securityStore(doc);
    streamsInto(doc, dss, "Certs", unique(data.certificates));
    streamsInto(doc, dss, "OCSPs", unique(data.ocspResponses));
    streamsInto(doc, dss, "CRLs", unique(data.crls));
    layTimestampRoom(doc, timestampBytes);
  });
}

function unique(items: Uint8Array[]): Uint8Array[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = Buffer.from(item).toString("base64");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
