/**
 * Who may call documents, and what. The gateway serves the public API's documents; templates and
 * requests claim the documents they use (and release them), requests reads and stores the
 * documents it seals, and its API deletes those of requests the workspace's retention has passed.
 * The gateway also searches a document's text (FindText) for text tags and anchor strings. Nobody
 * else reads a document.
 */
import { callersOf } from "@countersign/domain";

const CLAIMS = ["ClaimDocument", "ReleaseDocument", "ListClaims"];
const SEALING = ["GetDocument", "DownloadDocument", "UploadDocument", ...CLAIMS];

export const DOCUMENTS_CALLERS = callersOf({
  gateway: [
    "GetDocument",
    "ListDocuments",
    "UploadDocument",
    "DownloadDocument",
    "DeleteDocument",
    "FindText",
  ],
  templates: CLAIMS,
  requests: [...SEALING, "DeleteDocument"],
  "requests-sealer": SEALING,
  operator: "*",
});
