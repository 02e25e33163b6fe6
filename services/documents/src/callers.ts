/**
 * Who may call documents, and what. The gateway serves the public API's documents; templates and
 * requests claim the documents they use (and release them), and requests reads and stores the
 * documents it seals. Nobody else reads a document.
 */
import { callersOf } from "@countersign/domain";

const CLAIMS = ["ClaimDocument", "ReleaseDocument", "ListClaims"];
const SEALING = ["GetDocument", "DownloadDocument", "UploadDocument", ...CLAIMS];

export const DOCUMENTS_CALLERS = callersOf({
  gateway: ["GetDocument", "ListDocuments", "UploadDocument", "DownloadDocument", "DeleteDocument"],
  templates: CLAIMS,
  requests: SEALING,
  "requests-sealer": SEALING,
  operator: "*",
});
