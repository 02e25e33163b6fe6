/**
 * A request's audit trail drawn as a PDF report when asked, in the API's drawing process (a trail
 * of thousands of entries is pages of text to set), from what is stored; nothing is kept.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { type Database, isUuid, notFound } from "@countersign/kit";
import { readAudit, verifyChain } from "./audit-trail.js";
import type { AuditReportFacts } from "./completion/audit-report.js";
import type { DrawingProcess } from "./completion/drawing-process.js";
import { store } from "./store.js";

/** Reports drawn or waiting at once in one process; more are asked to come back in a moment. */
const MAX_WAITING = 4;

export interface AuditReportFile {
  filename: string;
  bytes: Uint8Array;
}

export class AuditReports {
  private waiting = 0;

  constructor(private readonly deps: { db: Database; drawing: DrawingProcess }) {}

  async draw(workspaceId: string, requestId: string): Promise<AuditReportFile> {
    const { db, drawing } = this.deps;
    const request = isUuid(requestId) ? await store.getRequest(db, workspaceId, requestId) : undefined;
    if (!request) throw notFound("signature request");
    const entries = await readAudit(db, requestId);
    if (this.waiting >= MAX_WAITING) {
      throw new ConnectError(
        "audit reports are being drawn for others; try again in a few seconds",
        Code.Unavailable,
      );
    }
    this.waiting += 1;
    try {
      const facts: AuditReportFacts = {
        requestId,
        title: request.title,
        status: request.status,
        createdAt: request.created_at,
        recipients: (await store.recipientsOf(db, [requestId])).map((r) => ({
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
      return { filename: `${title} (audit trail).pdf`, bytes: await drawing.auditReport(facts) };
    } finally {
      this.waiting -= 1;
    }
  }
}
