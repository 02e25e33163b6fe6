/**
 * VerifyDocument: the verifier run on a stranger's file in a drawing process (its time and memory
 * limits hold whatever the file is), then what only this service knows added — whether the request
 * the seal names was completed here, and whether the file is byte for byte the copy stored then.
 * Nothing is stored, and no workspace is needed: whoever holds the file may ask about it.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import {
  type VerificationReport as ReportMessage,
  Verdict,
  VerificationReportSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import {
  busyWhenFull,
  type Database,
  FairQueue,
  isUuid,
  problemError,
  validationError,
} from "@countersign/kit";
import { type AuditEntry, readAudit, verifyChain } from "../core/audit-trail.js";
import { findDocument } from "../core/stored-documents.js";
import { DrawingFailed, type DrawingProcess } from "../pdf/drawing-process.js";
import type { CertificateFacts } from "../pdf/verify/signature-checks.js";
import type { VerificationReport } from "../pdf/verify/verify-document.js";

/** The largest file verified: the largest upload, and room for what sealing adds. */
export const MAX_VERIFIED_BYTES = 32 * 1024 * 1024;

/**
 * The verifier's turns: one file at a time in its process, each party's (a workspace, or an address
 * on the public page) waiting in a queue of its own, taken in turn; a party with a file waiting
 * already is asked to come back, and no more than 3 wait in all.
 */
const TURNS = { concurrency: 1, waitingPerParty: 1, maxWaiting: 3, retryAfterSeconds: 5 };

const VERDICTS: Record<VerificationReport["verdict"], Verdict> = {
  intact: Verdict.INTACT,
  modified: Verdict.MODIFIED,
  invalid: Verdict.INVALID,
  unsigned: Verdict.UNSIGNED,
  unreadable: Verdict.UNREADABLE,
};

const certificate = (facts: CertificateFacts | undefined) =>
  facts && {
    ...facts,
    notBefore: timestampFromDate(new Date(facts.notBefore)),
    notAfter: timestampFromDate(new Date(facts.notAfter)),
  };

const time = (iso: string | undefined) => (iso ? timestampFromDate(new Date(iso)) : undefined);

export class DocumentVerification {
  private readonly turns = new FairQueue(TURNS);

  /**
   * `drawing` is the verifier's own: a stranger's file that takes its whole time limit holds no
   * completion up.
   */
  constructor(
    private readonly deps: {
      db: Database;
      documents: Client<typeof DocumentsService>;
      drawing: DrawingProcess;
    },
  ) {}

  /**
   * Verifies `pdf` for `party` (a workspace, or a client's network on the public page), in its turn;
   * a caller that goes away (`signal`) while it waits gives its place up.
   */
  async verify(pdf: Uint8Array, party: string, signal?: AbortSignal): Promise<ReportMessage> {
    if (pdf.length > MAX_VERIFIED_BYTES) {
      throw problemError(
        "payload_too_large",
        `a file to verify may have ${MAX_VERIFIED_BYTES / 1024 / 1024} MiB at most`,
        Code.ResourceExhausted,
      );
    }
    let report: VerificationReport;
    try {
      report = await this.turns
        .run(party, () => this.deps.drawing.verify(party, pdf, signal), signal)
        .catch(busyWhenFull("the verifier has as many files waiting as it takes (of yours, or of everyone)"));
    } catch (err) {
      if (err instanceof DrawingFailed) {
        throw validationError(
          [{ path: "file", message: err.message }],
          `the file could not be verified: ${err.message}`,
        );
      }
      throw err;
    }
    return create(VerificationReportSchema, {
      verdict: VERDICTS[report.verdict],
      summary: report.summary,
      level: report.level,
      levelReason: report.levelReason,
      sha256: report.sha256,
      requestId: report.requestId ?? "",
      test: report.test,
      signatures: report.signatures.map((s) => ({
        field: s.field,
        documentTimestamp: s.kind === "document-timestamp",
        valid: s.valid,
        problem: s.problem ?? "",
        signer: certificate(s.signer),
        claimedTime: time(s.claimedTime),
        timestampTime: time(s.timestampTime),
        timestampAuthority: s.timestampAuthority ?? "",
        coversWholeFile: s.coversWholeFile,
      })),
      changesAfterSeal: report.changesAfterSeal,
      validationData: report.validationData,
      stored: report.requestId ? await this.storedCopy(report.requestId, report.sha256) : undefined,
    });
  }

  /** This service's record of the request a seal names, when it completed it. */
  private async storedCopy(requestId: string, sha256: string) {
    if (!isUuid(requestId)) return undefined;
    const { rows } = await this.deps.db.query<{
      workspace_id: string;
      completed_at: Date;
      signed_document_id: string;
    }>(
      `SELECT workspace_id, completed_at, signed_document_id FROM signature_requests
        WHERE id = $1 AND status = 'completed' AND signed_document_id IS NOT NULL`,
      [requestId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const audit = await readAudit(this.deps.db, requestId);
    const storedSha256 =
      (await findDocument(this.deps.documents, row.workspace_id, row.signed_document_id))?.sha256 ??
      deletedSealSha256(audit);
    return {
      requestId,
      identical: storedSha256 === sha256,
      storedSha256: storedSha256 ?? "",
      completeTime: timestampFromDate(row.completed_at),
      auditChainHead: verifyChain(audit) ? (audit.at(-1)?.hash ?? "") : "",
    };
  }
}

/**
 * The sealed PDF's SHA-256 as the workspace's retention recorded it when it deleted the file: what a
 * copy is still compared with once the service no longer keeps one.
 */
function deletedSealSha256(audit: AuditEntry[]): string | undefined {
  const deletion = audit.findLast((entry) => entry.action === "documents_deleted");
  const documents = (deletion?.details.documents ?? []) as { role?: string; sha256?: string }[];
  return documents.find((d) => d.role === "sealed")?.sha256;
}
