/**
 * Works off due messages: claims them (locked as the kit's due-rows.ts locks due rows, so replicas
 * share the queue), posts each through the guarded client with fresh Standard Webhooks headers, logs
 * the attempt and schedules the next one or ends the round. Up to `concurrency` attempts run at once and each frees its slot when it
 * ends, so a slow answer holds one slot, not the queue.
 *
 * Unlike the services' other queues this is not a kit JobQueue, which runs a claimed batch's jobs
 * one after another: a delivery claims into free slots while others are in flight, follows the
 * endpoint's retry schedule and its Retry-After, records concurrent attempts in one statement
 * (attempt-log.ts) and counts failures against the endpoint. It reports in the same gauges.
 */
import {
  contextFrom,
  type Database,
  DrainLoop,
  injectTraceContext,
  inSpan,
  type Logger,
  reportQueue,
  type SecretBox,
  SpanKind,
  uuidv7,
} from "@countersign/kit";
import { signingSecrets } from "../signing-secrets.js";
import { type DueMessage, store } from "../store.js";
import { AttemptLog } from "./attempt-log.js";
import type { GuardedClient, PostOutcome } from "./guarded-client.js";
import type { DeliveryMetrics } from "./metrics.js";
import { nextDelayMs } from "./retry-schedule.js";
import { signedHeaders } from "./signature.js";

export interface DeliveriesOptions {
  db: Database;
  client: GuardedClient;
  secrets: SecretBox;
  logger: Logger;
  metrics: DeliveryMetrics;
  scheduleSeconds: readonly number[];
  /** Continuous failure after which an endpoint is disabled. */
  disableAfterMs: number;
  /** The attempt timeout; a claim lasts longer than it. */
  timeoutMs: number;
  pollIntervalMs?: number;
  /** Attempts at once. */
  concurrency: number;
  /** The only replica on its database (standalone): claims of a killed process are released at start. */
  onlyReplica?: boolean;
}

export class Deliveries {
  private readonly loop: DrainLoop;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly wakeUps = new Set<NodeJS.Timeout>();
  private claimsReleased = false;
  /** Ends this queue's reporting in the job queues' gauges. */
  private unreport: (() => void) | undefined;
  /** The last claim took as many messages as it could: more may be due. */
  private backlog = false;

  private readonly log: AttemptLog;

  constructor(private readonly options: DeliveriesOptions) {
    this.loop = new DrainLoop(() => this.drain(), options.pollIntervalMs ?? 1000, {
      work: "webhook deliveries",
      logger: options.logger,
    });
    this.log = new AttemptLog(options.db, options.logger, options.disableAfterMs);
  }

  start(): void {
    this.unreport ??= reportQueue({
      name: "webhook deliveries",
      stats: () => store.queueStats(this.options.db),
    });
    this.loop.start();
  }

  kick(): void {
    this.loop.kick();
  }

  /** Resolves when no attempt is running; tests wait on it. */
  async idle(): Promise<void> {
    for (;;) {
      await this.loop.idle();
      if (this.inFlight.size === 0) return;
      await Promise.allSettled([...this.inFlight]);
    }
  }

  async stop(): Promise<void> {
    this.unreport?.();
    this.unreport = undefined;
    for (const timer of this.wakeUps) clearTimeout(timer);
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
  }

  private async drain(): Promise<void> {
    const { db, logger } = this.options;
    try {
      if (this.options.onlyReplica && !this.claimsReleased) {
        await store.releaseClaims(db);
        this.claimsReleased = true;
      }
      const free = this.options.concurrency - this.inFlight.size;
      // With (nearly) every slot taken, attempts that end kick the loop again: claiming a few
      // slots at a time would cost a query per delivery.
      this.backlog = true;
      if (free <= 0 || (this.inFlight.size > 0 && free < this.options.concurrency / 4)) return;
      const due = await store.claimDue(db, free, this.options.timeoutMs + 45_000, uuidv7());
      this.backlog = due.length === free;
      for (const message of due) {
        const attempt: Promise<void> = this.attempt(message).finally(() => {
          this.inFlight.delete(attempt);
          if (this.backlog) this.kick();
        });
        this.inFlight.add(attempt);
      }
    } catch (err) {
      logger.warn({ err }, "cannot work the webhook queue; the next poll tries again");
    }
  }

  private async attempt(message: DueMessage): Promise<void> {
    const { client, secrets, metrics, logger } = this.options;
    const startedAt = new Date();
    let outcome: PostOutcome;
    let ours = false;
    try {
      const headers = signedHeaders(
        message.format,
        signingSecrets(secrets, message.endpoint_id, message, startedAt),
        message.id,
        startedAt,
        message.payload,
      );
      outcome = await inSpan(
        "POST",
        {
          kind: SpanKind.CLIENT,
          parent: contextFrom(message.traceparent),
          onlyInTrace: true,
          attributes: {
            "http.request.method": "POST",
            // The host alone: an endpoint's path or query may hold its owner's token.
            "server.address": new URL(message.url).host,
            "countersign.webhook.message_id": message.id,
            "countersign.webhook.attempt": message.attempt_count + 1,
          },
        },
        async (span) => {
          if (span) injectTraceContext({ set: (name, value) => (headers[name] = value) });
          const posted = await client.post(message.url, headers, message.payload, {
            endpointId: message.endpoint_id,
            messageId: message.id,
          });
          if (posted.kind === "response") span?.setAttribute("http.response.status_code", posted.status);
          else span?.setAttribute("error.type", posted.error);
          return posted;
        },
      );
    } catch (err) {
      // No request was made: the secret could not be opened (a changed COUNTERSIGN_WEBHOOK_SECRET_KEY).
      ours = true;
      logger.error({ err, endpointId: message.endpoint_id }, "cannot sign a webhook delivery");
      outcome = {
        kind: "error",
        error: `not sent: ${(err as Error).message}`,
        refused: false,
        durationMs: 0,
      };
    }
    metrics.attemptSeconds.observe(outcome.durationMs / 1000);
    const succeeded = outcome.kind === "response" && outcome.status >= 200 && outcome.status < 300;
    metrics.attempts.inc({
      outcome: succeeded ? "succeeded" : outcome.kind === "response" ? "failed" : "error",
    });
    // Only a message's first round: a replay of last week's messages is not a week of latency.
    if (succeeded && message.attempt_count === message.round_attempts) {
      metrics.latencySeconds.observe((Date.now() - message.created_at.getTime()) / 1000);
    }
    try {
      await this.record(message, startedAt, outcome, succeeded, ours);
    } catch (err) {
      // The claim runs out and the message is attempted again: a duplicate, never a loss.
      logger.warn({ err, messageId: message.id }, "cannot record a webhook attempt; it will be made again");
    }
  }

  private async record(
    message: DueMessage,
    at: Date,
    outcome: PostOutcome,
    succeeded: boolean,
    ours: boolean,
  ): Promise<void> {
    const answered = outcome.kind === "response" ? outcome : undefined;
    const delay = succeeded
      ? undefined
      : nextDelayMs(
          this.options.scheduleSeconds,
          message.round_attempts + 1,
          answered && { status: answered.status, retryAfter: answered.headers["retry-after"] },
        );
    await this.log.add({
      endpointId: message.endpoint_id,
      claimId: message.claim_id,
      attempt: {
        id: uuidv7(),
        message_id: message.id,
        attempted_at: at,
        status_code: answered?.status ?? 0,
        duration_ms: outcome.durationMs,
        response_headers: Object.fromEntries(
          Object.entries(answered?.headers ?? {}).map(([name, value]) => [storable(name), storable(value)]),
        ),
        response_body: storable(answered?.body ?? ""),
        error: outcome.kind === "error" ? storable(outcome.error) : "",
        succeeded,
        trigger: message.next_trigger,
      },
      messageStatus: succeeded ? "succeeded" : delay === undefined ? "failed" : "pending",
      nextDelayMs: delay,
      countsAgainstEndpoint: !ours,
    });
    if (!succeeded && delay === undefined) this.options.metrics.gaveUp.inc();
    if (delay !== undefined) this.wakeUpIn(delay);
  }

  /** A retry due before the next poll is attempted on time. */
  private wakeUpIn(delayMs: number): void {
    if (delayMs >= (this.options.pollIntervalMs ?? 1000)) return;
    const timer = setTimeout(() => {
      this.wakeUps.delete(timer);
      this.kick();
    }, delayMs + 5);
    timer.unref();
    this.wakeUps.add(timer);
  }
}

/** PostgreSQL text and jsonb cannot hold NUL; a receiver's answer may. */
function storable(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD");
}
