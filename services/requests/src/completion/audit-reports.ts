/**
 * A request's audit trail drawn as a PDF report when asked, in the API's drawing process in the
 * workspace's turn (a trail of thousands of entries is pages of text to set), from what is stored;
 * nothing is kept.
 */
import { type Database, isUuid, notFound } from "@countersign/kit";
import { readAudit, verifyChain } from "../core/audit-trail.js";
import { recipientStore } from "../core/store/recipient-store.js";
import { requestStore } from "../core/store/request-store.js";
import type { DrawingProcess } from "../pdf/drawing-process.js";
import type { AuditReportFacts } from "../pdf/layout/audit-report.js";

export interface AuditReportFile {
  filename: string;
  bytes: Uint8Array;
}

export class AuditReports {
  constructor(private readonly deps: { db: Database; drawing: DrawingProcess }) {}

  /** The report, drawn in the workspace's turn; a caller that goes away (`signal`) while it waits gives its place up. */
  async draw(workspaceId: string, requestId: string, signal?: AbortSignal): Promise<AuditReportFile> {
    const { db, drawing } = this.deps;
    const request = isUuid(requestId) ? await requestStore.getRequest(db, workspaceId, requestId) : undefined;
    if (!request) throw notFound("signature request");
    const entries = await readAudit(db, requestId);
    const facts: AuditReportFacts = {
      requestId,
      title: request.title,
      status: request.status,
      createdAt: request.created_at,
      recipients: (await recipientStore.recipientsOf(db, [requestId])).map((r) => ({
        name: r.name,
        email: r.email,
        kind: r.kind,
        status: r.status,
      })),
      entries: entries.map((entry) => ({
        sequence: entry.sequence,
        at: entry.at,
        action: entry.action,
        actor: entry.actor,
        details: JSON.stringify(entry.details),
        hash: entry.hash,
      })),
      verified: verifyChain(entries),
      drawnAt: new Date(),
    };
    const title = request.title.replace(/[\\/]/g, "-").slice(0, 150) || "request";
    return {
      filename: `${title} (audit trail).pdf`,
      bytes: await drawing.auditReport(workspaceId, facts, signal),
    };
  }
}
