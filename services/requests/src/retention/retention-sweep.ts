/**
 * The workspace's retention: some days after a request ends, its documents are deleted — the sealed
 * PDF, the files signers gave, and the originals unless a template or another request still uses
 * them — and, where the workspace says so, its audit trail with them. What was deleted is audited:
 * with the trail kept, as its next entry (and a completed request's certificate of completion is kept
 * as a document of its own first); with the trail deleted, as the one entry a new chain starts with,
 * holding the last hash of the chain it replaces, so a copy of the old trail (an evidence package)
 * can still be tied to it. A request on legal hold is passed by.
 *
 * Every replica sweeps, one request at a time. A request is taken under a lease first (a token and
 * an expiry, in a transaction of its own), then its documents are deleted through the documents
 * service with no transaction open — an embedded database has one connection, which the documents
 * service needs too — the lease renewed before each, then the deletion is recorded if the lease is
 * still ours. A legal hold is refused while a lease lasts, and a renewal fails once one is placed;
 * a request whose replica died is taken up again once its lease has run out: a document already
 * gone counts as deleted.
 */
import { createHash } from "node:crypto";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import {
  type DocumentsService,
  Kind,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { type Database, DrainLoop, inDataMode, type Logger } from "@countersign/kit";
import { appendAudit, type ChainEnd, EMPTY_CHAIN, SYSTEM } from "../core/audit-trail.js";
import { lockRequest } from "../core/request-transactions.js";
import { requestStore } from "../core/store/request-store.js";
import type { RequestRow } from "../core/store/rows.js";
import { findDocument, holderOf, readDocument } from "../core/stored-documents.js";
import type { DrawingProcess } from "../pdf/drawing-process.js";
import { type RetentionDue, retentionStore } from "./retention-store.js";

export interface RetentionSweepDeps {
  db: Database;
  documents: Client<typeof DocumentsService>;
  /** Where the certificate's pages are taken from the sealed PDF. */
  drawing: DrawingProcess;
  logger: Logger;
  afterCommit: () => void;
  /** How often to look for requests due (ten minutes; retention is counted in days). */
  intervalMs?: number;
}

/** What became of each of a request's documents. */
interface Deleted {
  documentId: string;
  role: "original" | "sealed" | "attachment";
  filename?: string;
  sha256?: string;
  /** deleted; already gone; or kept because a template or another request still uses it. */
  outcome: "deleted" | "already_deleted" | "in_use";
}

/**
 * The certificate's id, made from the request's: a sweep repeated after a crash stores it under the
 * same id, which the documents service answers instead of storing it twice.
 */
export function certificateIdOf(requestId: string): string {
  const hex = createHash("sha256").update(`certificate of completion of ${requestId}`).digest("hex");
  // An RFC 9562 version 8 (custom) UUID.
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export class RetentionSweep {
  private readonly loop: DrainLoop;

  constructor(private readonly deps: RetentionSweepDeps) {
    this.loop = new DrainLoop(
      async (stopping) => {
        await this.sweep(stopping);
      },
      deps.intervalMs ?? 10 * 60_000,
      { work: "retention", logger: deps.logger },
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Deletes the documents of every request due now; how many requests' documents it deleted. */
  async sweep(stopping?: AbortSignal): Promise<number> {
    const { db, logger } = this.deps;
    let done = 0;
    const failed: string[] = [];
    while (!stopping?.aborted) {
      const due = await db.transaction((tx) => retentionStore.takeNextDue(tx, failed));
      if (!due) break;
      try {
        if (await this.deleteDocuments(due)) done += 1;
        this.deps.afterCommit();
      } catch (err) {
        // Let go, it is taken again by the next sweep; meanwhile a hold may be placed.
        failed.push(due.id);
        await retentionStore.releaseLease(db, due.id, due.lease).catch(() => {});
        logger.error(
          { err, signatureRequestId: due.id },
          "could not delete an ended request's documents under the workspace's retention; the others go on",
        );
      }
    }
    return done;
  }

  /**
   * Deletes the request's documents and records it; false when the lease was lost or a hold placed
   * before the last deletion (what went before is recorded by whoever deletes the rest).
   */
  private async deleteDocuments(due: RetentionDue): Promise<boolean> {
    const { db } = this.deps;
    const request = await requestStore.getRequest(db, due.workspace_id, due.id);
    if (!request) return false;
    const keepEvidence = !due.retention_deletes_evidence;
    const certificateDocumentId =
      keepEvidence && request.signed_document_id ? await this.keepCertificate(request) : undefined;
    const owned = [
      ...(request.signed_document_id
        ? [{ documentId: request.signed_document_id, role: "sealed" as const }]
        : []),
      ...[
        ...request.signer_attachments.map((a) => a.documentId),
        ...(await retentionStore.unsubmittedUploads(db, request.id)),
      ].map((documentId) => ({ documentId, role: "attachment" as const })),
      ...request.document_ids.map((documentId) => ({ documentId, role: "original" as const })),
    ];
    const deleted: Deleted[] = [];
    for (const { documentId, role } of unique(owned)) {
      // Renewed before each deletion: a hold placed meanwhile, or a lease lost, stops it here.
      if (!(await retentionStore.renewLease(db, request.id, due.lease))) return false;
      const { filename, ...outcome } = await this.deleteOne(request.workspace_id, request.id, documentId);
      // With the evidence deleted, names (which often name people) go too; the hashes stay.
      deleted.push({ documentId, role, ...outcome, ...(keepEvidence && filename ? { filename } : {}) });
    }
    const details = {
      retentionDays: due.retention_days,
      documents: deleted,
      auditTrail: keepEvidence ? "kept" : "deleted",
      ...(certificateDocumentId ? { certificateDocumentId } : {}),
    };
    return db.transaction(async (tx) => {
      await lockRequest(tx, request.workspace_id, request.id);
      if (keepEvidence) {
        const recorded = await retentionStore.recordDeletion(tx, request.id, due.lease, {
          certificateDocumentId,
          evidenceDeleted: false,
        });
        if (recorded) await appendAudit(tx, request.id, "documents_deleted", SYSTEM, details);
        return recorded;
      }
      const last = (
        await tx.query<ChainEnd>(
          "SELECT sequence, hash FROM audit_entries WHERE request_id = $1 ORDER BY sequence DESC LIMIT 1",
          [request.id],
        )
      ).rows[0];
      if (!(await retentionStore.recordDeletion(tx, request.id, due.lease, { evidenceDeleted: true })))
        return false;
      // The trail starts again, its one entry tied to the chain it replaces by that chain's last hash.
      await appendAudit(
        tx,
        request.id,
        "documents_deleted",
        SYSTEM,
        { ...details, deletedTrail: { entries: last?.sequence ?? 0, lastHash: last?.hash ?? "" } },
        EMPTY_CHAIN,
      );
      return true;
    });
  }

  /** Releases the request's claim and deletes the document unless something else still uses it. */
  private async deleteOne(
    workspaceId: string,
    requestId: string,
    documentId: string,
  ): Promise<Pick<Deleted, "filename" | "sha256" | "outcome">> {
    const { documents } = this.deps;
    const document = await findDocument(documents, workspaceId, documentId);
    if (!document) return { outcome: "already_deleted" };
    const facts = { filename: document.filename, sha256: document.sha256 };
    await documents.releaseDocument({ workspaceId, documentId, holder: holderOf(requestId) });
    try {
      await documents.deleteDocument({ workspaceId, documentId });
      return { ...facts, outcome: "deleted" };
    } catch (err) {
      const code = ConnectError.from(err).code;
      if (code === Code.NotFound) return { ...facts, outcome: "already_deleted" };
      // A template made from the document, or another request sent with it, still uses it.
      if (code === Code.FailedPrecondition) return { ...facts, outcome: "in_use" };
      throw err;
    }
  }

  /**
   * The sealed PDF's certificate pages, stored as a document of their own that the request holds
   * — before anything is deleted, so a deletion taken up again after a crash finds it made.
   */
  private async keepCertificate(request: RequestRow): Promise<string | undefined> {
    const { documents, drawing } = this.deps;
    const workspaceId = request.workspace_id;
    const documentId = certificateIdOf(request.id);
    if (await findDocument(documents, workspaceId, documentId)) {
      // Made by an attempt that may have died before it claimed it; claiming twice is claiming once.
      await documents.claimDocument({ workspaceId, documentId, holder: holderOf(request.id) });
      return documentId;
    }
    // Deleted by an earlier attempt that was to delete the evidence too: there is nothing to keep.
    if (!(await findDocument(documents, workspaceId, request.signed_document_id as string))) return undefined;
    const sealed = await readDocument(documents, workspaceId, request.signed_document_id as string);
    const originals = await Promise.all(
      request.document_ids.map(
        async (id) => (await documents.getDocument({ workspaceId, documentId: id })).document,
      ),
    );
    const documentPages = originals.reduce((sum, document) => sum + (document?.pageCount ?? 0), 0);
    const certificate = await drawing.pagesFrom(workspaceId, sealed.bytes, documentPages);
    // Of the request's mode, as its sealed PDF is.
    const { document } = await inDataMode(request.test ? "test" : "live", () =>
      documents.uploadDocument(
        (async function* () {
          yield {
            part: {
              case: "header" as const,
              value: {
                workspaceId,
                documentId,
                filename: "certificate of completion.pdf",
                contentType: "application/pdf",
                kind: Kind.CERTIFICATE,
              },
            },
          };
          yield { part: { case: "chunk" as const, value: certificate } };
        })(),
      ),
    );
    if (!document) throw new Error("the documents service stored the certificate but did not describe it");
    await documents.claimDocument({ workspaceId, documentId, holder: holderOf(request.id) });
    return documentId;
  }
}

function unique<T extends { documentId: string }>(items: T[]): T[] {
  return items.filter((item, i) => items.findIndex((other) => other.documentId === item.documentId) === i);
}
