/**
 * Completion as its own step: a row in `completions`, written with the last signature (core/completion-queue.ts), is worked
 * off here after commit and retried with backoff. Every stage can be repeated: the sealed document
 * is stored under an id chosen when the job was queued, so a crash after the upload and before the
 * final commit stores no second copy, and the final commit checks the request is still waiting for
 * it. After its last attempt a completion is parked, never retried for ever: the request says why
 * (its sender cancels it, or resends it once the cause is mended), the audit trail records it, and
 * the job queue's parked gauge (`background_jobs{queue="completion",state="parked"}`) raises an alert.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { subjects } from "@countersign/domain";
import {
  type DocumentsService,
  Kind,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { CompletionAttemptFailedSchema } from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import {
  type Database,
  enqueueEvent,
  exponentialBackoff,
  inDataMode,
  type JobFailure,
  JobQueue,
  type JobState,
  type Logger,
  type Queryable,
  uuidv7,
} from "@countersign/kit";
import { type AuditActor, appendAudit, readAudit, SYSTEM } from "../core/audit-trail.js";
import { enqueueRequestEvent } from "../core/events.js";
import { fieldValueStore } from "../core/field-value-store.js";
import type { StoredValue } from "../core/field-values.js";
import { queueEmails } from "../core/notice-queue.js";
import { lockRequest } from "../core/request-transactions.js";
import type { SigningLinks } from "../core/signing-links.js";
import { recipientStore } from "../core/store/recipient-store.js";
import { requestStore } from "../core/store/request-store.js";
import type { StoredField } from "../core/store/rows.js";
import { holderOf, readOriginals } from "../core/stored-documents.js";
import { DrawingFailed, type DrawingProcess } from "../pdf/drawing-process.js";
import type { SignatureMark } from "../pdf/layout/page-writer.js";
import { RevocationError } from "../pdf/pades/revocation.js";
import { TimestampError } from "../pdf/pades/timestamp-client.js";
import { type SealChoice, SealUnavailable } from "./seal-choice.js";
import { signerIdentity } from "./signer-identity.js";

/** The largest sealed PDF that is e-mailed as an attachment; larger ones get a link. */
export const ATTACHMENT_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * What a sender and the workspace's administrators read of a failure: the documents' own problem, or
 * which evidence provider failed (a time-stamping authority, a revocation source), in words; anything
 * else without internals.
 */
function reasonForSender(err: unknown): string {
  if (
    err instanceof DrawingFailed ||
    err instanceof TimestampError ||
    err instanceof RevocationError ||
    err instanceof SealUnavailable
  ) {
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
  /** The seal each workspace's documents are sealed with. */
  seals: SealChoice;
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

interface Job extends JobState {
  request_id: string;
  workspace_id: string;
  document_id: string;
}

export class Completions extends JobQueue<Job> {
  constructor(private readonly deps: CompletionsDeps) {
    super({
      name: "completion",
      db: deps.db,
      logger: deps.logger,
      table: {
        name: "completions",
        key: "request_id",
        traced: true,
        columns: ["workspace_id", "document_id"],
        order: "next_attempt_at",
        // A bulk send's completions wait behind their own workspace's, not in front of everyone else's.
        party: "workspace_id",
      },
      // Outlives the slowest completion; a worker that dies leaves the job to another after it.
      leaseSeconds: 300,
      pollIntervalMs: deps.pollIntervalMs ?? 10_000,
      maxAttempts: deps.maxAttempts ?? DEFAULT_COMPLETION_ATTEMPTS,
      backoff: exponentialBackoff(deps.retryBaseMs ?? 5000, 600_000),
      onlyReplica: deps.onlyReplica,
      describe: (job) => ({ signatureRequestId: job.request_id }),
      run: async (job) => {
        const started = performance.now();
        await this.complete(job);
        deps.logger.info(
          {
            signatureRequestId: job.request_id,
            documentId: job.document_id,
            ms: Math.round(performance.now() - started),
          },
          "request completed and sealed",
        );
        return { kind: "done" };
      },
      failed: (tx, job, failure) => this.failed(tx, job, failure),
      afterFailed: () => deps.afterCommit(),
    });
  }

  /**
   * A failed attempt, announced for the workspace's Recent Errors; after the last the job waits for
   * its sender, and the request and its trail say why.
   */
  private async failed(tx: Queryable, job: Job, failure: JobFailure): Promise<void> {
    const reason = reasonForSender(failure.error);
    if (!failure.retryAt) {
      await requestStore.setCompletionFailure(tx, job.request_id, {
        reason,
        attempts: job.attempts,
        failedAt: new Date().toISOString(),
      });
      await appendAudit(tx, job.request_id, "completion_failed", SYSTEM, { reason, attempts: job.attempts });
    }
    await enqueueAttemptFailed(tx, job, failure.maxAttempts, reason, failure.retryAt);
  }

  private async complete(job: Job): Promise<void> {
    const { db } = this.deps;
    const request = await requestStore.getRequest(db, job.workspace_id, job.request_id);
    if (request?.status !== "in_progress") {
      await this.finish(db, job.request_id, request ? `request is ${request.status}` : "request is gone");
      return;
    }
    const recipients = await recipientStore.recipientsOf(db, [request.id]);
    const audit = await readAudit(db, request.id);
    const completedAt = new Date();
    const values = await fieldValueStore.read(db, request.id);
    const seal = await this.deps.seals.forWorkspace(job.workspace_id);
    const drawn = await this.deps.drawing.draw(
      job.workspace_id,
      await readOriginals(this.deps.documents, job.workspace_id, request.document_ids),
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
          identity: signerIdentity(r, audit),
          signature: signatureOf(r.id, request.fields, values),
          attachments: request.signer_attachments.filter((a) => a.recipientId === r.id),
        })),
        sentBy: sentBy(audit[0]?.actor, request.sender_name),
        audit: { entries: audit.length, headHash: audit.at(-1)?.hash ?? "" },
        test: request.test,
      },
      seal.room,
    );
    const sealed = await seal.sign(drawn.bytes, (pdf, data, bytes) =>
      this.deps.drawing.addValidationRevision(job.workspace_id, pdf, data, bytes),
    );
    // The sealed PDF is of the request's mode, as what the request's caller made.
    const stored = await inDataMode(request.test ? "test" : "live", () =>
      this.store(job, request.title, sealed.bytes),
    );
    await db.transaction(async (tx) => {
      const locked = await lockRequest(tx, job.workspace_id, job.request_id);
      if (locked.request.status !== "in_progress") return;
      const after = await requestStore.complete(tx, request.id, stored.id, completedAt);
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
      await this.finish(tx, request.id);
    });
    this.deps.afterCommit();
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
}
