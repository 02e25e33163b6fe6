/**
 * Completion as its own step: a row in `completions`, written with the last signature, is worked
 * off here after commit and retried with backoff. Every stage can be repeated: the sealed document
 * is stored under an id chosen when the job was queued, so a crash after the upload and before the
 * final commit stores no second copy, and the final commit checks the request is still waiting for
 * it. After its last attempt a completion is parked, never retried for ever: the request says why
 * (its sender cancels it, or resends it once the cause is mended), the audit trail records it, and
 * the `completions_failed` gauge raises an alert.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import {
  type DocumentsService,
  Kind,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { CompletionAttemptFailedSchema } from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import {
  type Database,
  DrainLoop,
  enqueueEvent,
  type Logger,
  type Queryable,
  subjects,
  uuidv7,
} from "@countersign/kit";
import { Counter, Gauge, type Metric } from "prom-client";
import { type AuditActor, appendAudit, readAudit, SYSTEM } from "../audit-trail.js";
import { enqueueRequestEvent } from "../events.js";
import type { StoredValue } from "../field-values.js";
import { queueEmails } from "../notifications.js";
import { holderOf } from "../request-creation.js";
import { lockRequest } from "../request-transactions.js";
import type { SigningLinks } from "../signing-links.js";
import { type StoredField, store } from "../store.js";
import { readDocument } from "../stored-documents.js";
import type { SignatureMark } from "./certificate-page.js";
import { DrawingFailed, type DrawingProcess } from "./drawing-process.js";
import { RevocationError } from "./pades/revocation.js";
import { TimestampError } from "./pades/timestamp-client.js";
import type { Seal } from "./seal.js";
import type { Original } from "./sealed-document.js";

/** The largest sealed PDF that is e-mailed as an attachment; larger ones get a link. */
export const ATTACHMENT_LIMIT_BYTES = 10 * 1024 * 1024;

/** Queues the completion of a request every signer has signed; a second call changes nothing. */
export async function queueCompletion(tx: Queryable, request: { id: string; workspace_id: string }) {
  await tx.query(
    "INSERT INTO completions (request_id, workspace_id, document_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    [request.id, request.workspace_id, uuidv7()],
  );
}

/** Where a request's completion stands: none queued, queued (or running), or parked after its last attempt. */
export async function completionState(
  tx: Queryable,
  requestId: string,
): Promise<"none" | "queued" | "parked"> {
  const { rows } = await tx.query<{ failed_at: Date | null }>(
    "SELECT failed_at FROM completions WHERE request_id = $1 AND done_at IS NULL",
    [requestId],
  );
  const [row] = rows;
  return !row ? "none" : row.failed_at ? "parked" : "queued";
}

/** A parked completion queued again from its first attempt; the request no longer reports it failed. */
export async function retryParkedCompletion(tx: Queryable, requestId: string): Promise<void> {
  await tx.query(
    `UPDATE completions SET failed_at = NULL, attempts = 0, next_attempt_at = now(), claimed_until = '-infinity'
      WHERE request_id = $1 AND failed_at IS NOT NULL AND done_at IS NULL`,
    [requestId],
  );
  await store.setCompletionFailure(tx, requestId, null);
}

/** A parked completion abandoned: its request was cancelled. */
export async function abandonParkedCompletion(tx: Queryable, requestId: string): Promise<void> {
  await tx.query(
    "UPDATE completions SET done_at = now(), last_error = 'request cancelled' WHERE request_id = $1 AND done_at IS NULL",
    [requestId],
  );
}

/**
 * What a sender and the workspace's administrators read of a failure: the documents' own problem, or
 * which evidence provider failed (a time-stamping authority, a revocation source), in words; anything
 * else without internals.
 */
function reasonForSender(err: unknown): string {
  if (err instanceof DrawingFailed || err instanceof TimestampError || err instanceof RevocationError) {
    return err.message;
  }
  return "the sealed PDF could not be made or stored; the service's logs name the cause";
}

/** The failed attempt for the workspace's Recent Errors, in the transaction that records it. */
async function enqueueAttemptFailed(
  tx: Queryable,
  job: Job,
  maxAttempts: number,
  reason: string,
  retryAt?: Date,
): Promise<void> {
  await enqueueEvent(
    tx,
    subjects.completionAttemptFailed,
    CompletionAttemptFailedSchema,
    create(CompletionAttemptFailedSchema, {
      eventId: uuidv7(),
      workspaceId: job.workspace_id,
      signatureRequestId: job.request_id,
      attempt: job.attempts,
      maxAttempts,
      reason,
      retryTime: retryAt ? timestampFromDate(retryAt) : undefined,
      failTime: timestampFromDate(new Date()),
    }),
  );
}

/** Completion attempts by outcome, and the completions parked now (read on every scrape). */
export class CompletionMetrics {
  readonly attempts = new Counter({
    name: "completion_attempts_total",
    help: "Attempts to seal a fully signed request, by outcome: succeeded, failed (retried later) or gave_up (parked).",
    labelNames: ["outcome"],
    registers: [],
  });
  readonly parked: Gauge;

  constructor(parkedCount: () => Promise<number>) {
    this.parked = new Gauge({
      name: "completions_failed",
      help: "Fully signed requests whose sealing failed every attempt and waits for its sender.",
      registers: [],
      async collect() {
        this.set(await parkedCount().catch(() => Number.NaN));
      },
    });
  }

  all(): Metric[] {
    return [this.attempts, this.parked];
  }
}

export const DEFAULT_COMPLETION_ATTEMPTS = 10;

/** Who sent the request, from the actor of its first audit entry: a person by e-mail, a key by name. */
function sentBy(creator: AuditActor | undefined, senderName: string): string {
  if (creator?.type === "api_key") {
    const key = creator.name ? `API key “${creator.name}”` : "an API key";
    return senderName ? `${senderName}, through ${key}` : key;
  }
  return creator?.email || creator?.name || senderName;
}

/** A signer's first signature, or without one their first initials, as they gave it. */
function signatureOf(
  recipientId: string,
  fields: StoredField[],
  values: Map<string, StoredValue>,
): SignatureMark | undefined {
  for (const type of ["signature", "initials"]) {
    for (const field of fields) {
      if (field.recipientId !== recipientId || field.type !== type) continue;
      const value = values.get(field.id);
      if (value?.kind === "typed" || value?.kind === "drawn") return value;
    }
  }
  return undefined;
}

export interface CompletionsDeps {
  db: Database;
  documents: Client<typeof DocumentsService>;
  links: SigningLinks;
  seal: Seal;
  drawing: DrawingProcess;
  logger: Logger;
  afterCommit: () => void;
  pollIntervalMs?: number;
  /** Attempts before a completion is parked; DEFAULT_COMPLETION_ATTEMPTS unless given. */
  maxAttempts?: number;
  /** The wait after a first failure, doubled after each (up to 10 minutes); 5 s unless given. */
  retryBaseMs?: number;
  /** The only worker on its database (standalone): claims of a killed process are released at start. */
  onlyReplica?: boolean;
}

interface Job {
  request_id: string;
  workspace_id: string;
  document_id: string;
  attempts: number;
}

/** A claim outlives the slowest completion; a worker that dies leaves the job to another after it. */
const CLAIM = "5 minutes";

export class Completions {
  private readonly loop: DrainLoop;
  private claimsReleased = false;
  readonly metrics: CompletionMetrics;

  constructor(private readonly deps: CompletionsDeps) {
    this.loop = new DrainLoop((stopping) => this.drain(stopping), deps.pollIntervalMs ?? 10_000, {
      work: "completion",
      logger: deps.logger,
    });
    this.metrics = new CompletionMetrics(async () => {
      const { rows } = await deps.db.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM completions WHERE failed_at IS NOT NULL AND done_at IS NULL",
      );
      return rows[0]?.count ?? 0;
    });
  }

  start(): void {
    this.loop.start();
  }

  kick(): void {
    this.loop.kick();
  }

  idle(): Promise<void> {
    return this.loop.idle();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async drain(stopping: AbortSignal): Promise<void> {
    try {
      if (this.deps.onlyReplica && !this.claimsReleased) {
        await this.deps.db.query(
          "UPDATE completions SET claimed_until = '-infinity' WHERE done_at IS NULL AND claimed_until > now()",
        );
        this.claimsReleased = true;
      }
      while (!stopping.aborted) {
        const job = await this.claim();
        if (!job) return;
        await this.run(job);
      }
    } catch (err) {
      this.deps.logger.warn({ err }, "cannot work the completion queue; the next poll tries again");
    }
  }

  private async claim(): Promise<Job | undefined> {
    const { rows } = await this.deps.db.query<Job>(
      `UPDATE completions SET claimed_until = now() + interval '${CLAIM}', attempts = attempts + 1
        WHERE request_id = (SELECT request_id FROM completions
                             WHERE done_at IS NULL AND failed_at IS NULL
                               AND next_attempt_at <= now() AND claimed_until < now()
                             ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING request_id, workspace_id, document_id, attempts`,
    );
    return rows[0];
  }

  private async run(job: Job): Promise<void> {
    const started = performance.now();
    try {
      await this.complete(job);
      this.metrics.attempts.inc({ outcome: "succeeded" });
      this.deps.logger.info(
        {
          signatureRequestId: job.request_id,
          documentId: job.document_id,
          ms: Math.round(performance.now() - started),
        },
        "request completed and sealed",
      );
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      const maxAttempts = this.deps.maxAttempts ?? DEFAULT_COMPLETION_ATTEMPTS;
      if (job.attempts >= maxAttempts) {
        await this.park(job, err, message, maxAttempts);
        return;
      }
      this.metrics.attempts.inc({ outcome: "failed" });
      const delayMs = Math.min((this.deps.retryBaseMs ?? 5000) * 2 ** (job.attempts - 1), 600_000);
      this.deps.logger.warn(
        { err, signatureRequestId: job.request_id, attempts: job.attempts, retryInMs: delayMs },
        "completing a request failed; will retry",
      );
      await this.deps.db.transaction(async (tx) => {
        const { rowCount } = await tx.query(
          `UPDATE completions SET next_attempt_at = now() + make_interval(secs => $2), claimed_until = '-infinity',
                  last_error = $3 WHERE request_id = $1 AND done_at IS NULL`,
          [job.request_id, delayMs / 1000, message],
        );
        if (!rowCount) return;
        const retryAt = new Date(Date.now() + delayMs);
        await enqueueAttemptFailed(tx, job, maxAttempts, reasonForSender(err), retryAt);
      });
      this.deps.afterCommit();
    }
  }

  /** The last attempt failed: the job waits for the sender, and the request and its trail say why. */
  private async park(job: Job, err: unknown, message: string, maxAttempts: number): Promise<void> {
    this.metrics.attempts.inc({ outcome: "gave_up" });
    this.deps.logger.error(
      { err, signatureRequestId: job.request_id, attempts: job.attempts },
      "completing a request failed at its last attempt; it waits for its sender to cancel or resend it",
    );
    const reason = reasonForSender(err);
    await this.deps.db.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        `UPDATE completions SET failed_at = now(), claimed_until = '-infinity', last_error = $2
          WHERE request_id = $1 AND done_at IS NULL`,
        [job.request_id, message],
      );
      if (!rowCount) return;
      const failure = { reason, attempts: job.attempts, failedAt: new Date().toISOString() };
      await store.setCompletionFailure(tx, job.request_id, failure);
      await appendAudit(tx, job.request_id, "completion_failed", SYSTEM, { reason, attempts: job.attempts });
      await enqueueAttemptFailed(tx, job, maxAttempts, reason);
    });
    this.deps.afterCommit();
  }

  private async complete(job: Job): Promise<void> {
    const { db } = this.deps;
    const request = await store.getRequest(db, job.workspace_id, job.request_id);
    if (request?.status !== "in_progress") {
      await this.finish(db, job.request_id, request ? `request is ${request.status}` : "request is gone");
      return;
    }
    const recipients = await store.recipientsOf(db, [request.id]);
    const audit = await readAudit(db, request.id);
    const completedAt = new Date();
    const values = await store.fieldValues(db, request.id);
    const drawn = await this.deps.drawing.draw(
      await this.originals(job.workspace_id, request.document_ids),
      request.fields,
      values,
      {
        requestId: request.id,
        title: request.title,
        completedAt,
        recipients: recipients.map((r) => ({
          name: r.name,
          email: r.email,
          role: r.role,
          kind: r.kind,
          viewedAt: r.viewed_at,
          signedAt: r.signed_at,
          consentedAt: r.consented_at,
          ip: r.signed_ip || r.viewed_ip,
          userAgent: r.signed_user_agent || r.viewed_user_agent,
          signature: signatureOf(r.id, request.fields, values),
        })),
        sentBy: sentBy(audit[0]?.actor, request.sender_name),
        audit: { entries: audit.length, headHash: audit.at(-1)?.hash ?? "" },
      },
      this.deps.seal.room,
    );
    const sealed = await this.deps.seal.sign(drawn.bytes, (pdf, data, bytes) =>
      this.deps.drawing.addValidationRevision(pdf, data, bytes),
    );
    const stored = await this.store(job, request.title, sealed.bytes);
    await db.transaction(async (tx) => {
      const locked = await lockRequest(tx, job.workspace_id, job.request_id);
      if (locked.request.status !== "in_progress") return;
      const after = await store.complete(tx, request.id, stored.id, completedAt);
      await appendAudit(tx, request.id, "completed", SYSTEM, {
        signedDocumentId: stored.id,
        sha256: stored.sha256,
        signedPagesSha256: drawn.signedPagesSha256,
        originals: request.document_ids,
        padesLevel: sealed.level,
        ...(sealed.timestampedAt ? { timestampedAt: sealed.timestampedAt.toISOString() } : {}),
      });
      await enqueueRequestEvent(tx, "completed", after, locked.recipients);
      const attach = stored.sizeBytes <= ATTACHMENT_LIMIT_BYTES;
      // A PDF too large to attach is reached by a link instead.
      await queueEmails(tx, {
        requestId: request.id,
        recipientIds: locked.recipients.map((r) => r.id),
        kind: "completed",
        links: attach ? undefined : this.deps.links,
      });
      await this.finish(tx, request.id, "");
    });
    this.deps.afterCommit();
  }

  private originals(workspaceId: string, documentIds: string[]): Promise<Original[]> {
    return Promise.all(
      documentIds.map(async (id) => {
        const { document, bytes } = await readDocument(this.deps.documents, workspaceId, id);
        return { id, filename: document.filename, sha256: document.sha256, bytes };
      }),
    );
  }

  /** Stores the sealed PDF under the job's document id (a retry gets the first copy back) and claims it. */
  private async store(job: Job, title: string, sealed: Uint8Array) {
    const header = {
      workspaceId: job.workspace_id,
      filename: `${title.replace(/[\\/]/g, "-").slice(0, 150) || "document"} (signed).pdf`,
      contentType: "application/pdf",
      kind: Kind.SIGNED,
      documentId: job.document_id,
    };
    async function* upload() {
      yield { part: { case: "header" as const, value: header } };
      for (let at = 0; at < sealed.length; at += 1024 * 1024) {
        yield { part: { case: "chunk" as const, value: sealed.subarray(at, at + 1024 * 1024) } };
      }
    }
    const { document } = await this.deps.documents.uploadDocument(upload());
    if (!document) throw new Error("the documents service stored the sealed PDF but did not describe it");
    await this.deps.documents.claimDocument({
      workspaceId: job.workspace_id,
      documentId: document.id,
      holder: holderOf(job.request_id),
    });
    return { id: document.id, sha256: document.sha256, sizeBytes: Number(document.sizeBytes) };
  }

  private async finish(db: Queryable, requestId: string, note: string): Promise<void> {
    await db.query("UPDATE completions SET done_at = now(), last_error = $2 WHERE request_id = $1", [
      requestId,
      note,
    ]);
  }
}
