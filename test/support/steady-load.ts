/**
 * Steady load through the gateways, as a careful client makes it: every POST carries an
 * Idempotency-Key, a 503 or 409 with Retry-After and a connection that fails are retried with the
 * same key (on the next gateway, as an ingress would send it), and everything that happened is kept
 * so that a test can say, per fault, what was acknowledged, what was lost and what clients saw.
 */
import { randomUUID } from "node:crypto";

export type OperationKind = "request" | "upload";

export interface Attempt {
  startedAt: number;
  /** The HTTP status, or 0 when no answer came (connection refused or cut). */
  status: number;
  retryAfter?: string;
  /** The problem's code, for an answer that is not a success. */
  code?: string;
}

export interface Operation {
  index: number;
  kind: OperationKind;
  startedAt: number;
  attempts: Attempt[];
  /** Set once a 201 acknowledged it. */
  id?: string;
  ackedAt?: number;
  /** The answer that ended it without an acknowledgement. */
  refused?: number;
}

export interface LoadOptions {
  gateways: string[];
  apiKey: string;
  documentId: string;
  pdf: Uint8Array;
  workers?: number;
  /** Pause of each worker between operations. */
  pauseMs?: number;
  /** Every n-th operation is an upload (S3); the others create and send a request. */
  uploadEvery?: number;
  /** How long an operation keeps retrying before it counts as not acknowledged. */
  giveUpMs?: number;
}

export function recipientEmail(index: number): string {
  return `chaos.${index}@example.com`;
}

/** Whether an answer asks to be retried: the service or a dependency is away for a moment. */
function retryable(attempt: Attempt): boolean {
  if (attempt.status === 0) return true;
  return (attempt.status === 503 || attempt.status === 409) && attempt.retryAfter !== undefined;
}

export class SteadyLoad {
  readonly operations: Operation[] = [];
  private running = false;
  private workers: Promise<void>[] = [];
  private nextGateway = 0;

  constructor(private readonly options: LoadOptions) {}

  start(): void {
    this.running = true;
    const count = this.options.workers ?? 4;
    this.workers = Array.from({ length: count }, () => this.work());
  }

  /** Stops starting operations and waits until every one started is acknowledged or given up. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  private async work(): Promise<void> {
    while (this.running) {
      const index = this.operations.length;
      const every = this.options.uploadEvery ?? 4;
      const operation: Operation = {
        index,
        kind: index % every === every - 1 ? "upload" : "request",
        startedAt: Date.now(),
        attempts: [],
      };
      this.operations.push(operation);
      await this.run(operation);
      await sleep(this.options.pauseMs ?? 100);
    }
  }

  private async run(operation: Operation): Promise<void> {
    const key = randomUUID();
    const giveUpAt = operation.startedAt + (this.options.giveUpMs ?? 120_000);
    for (;;) {
      const gateway = this.options.gateways[this.nextGateway++ % this.options.gateways.length] as string;
      const attempt: Attempt = { startedAt: Date.now(), status: 0 };
      operation.attempts.push(attempt);
      try {
        const res = await fetch(`${gateway}/api/v1${this.path(operation)}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${this.options.apiKey}`,
            "idempotency-key": key,
            "content-type": operation.kind === "upload" ? "application/pdf" : "application/json",
          },
          body: operation.kind === "upload" ? this.options.pdf : JSON.stringify(this.requestBody(operation)),
          signal: AbortSignal.timeout(60_000),
        });
        attempt.status = res.status;
        attempt.retryAfter = res.headers.get("retry-after") ?? undefined;
        const body = (await res.json().catch(() => ({}))) as { id?: string; code?: string };
        attempt.code = body.code;
        if (res.status === 201 && body.id) {
          operation.id = body.id;
          operation.ackedAt = Date.now();
          return;
        }
      } catch {
        // No answer: the gateway went away before or while it was asked.
      }
      if (!retryable(attempt) || Date.now() > giveUpAt) {
        operation.refused = attempt.status;
        return;
      }
      // A client told to wait seconds may come back sooner; this one waits at most one.
      const waitMs = Math.min(1000, Number(attempt.retryAfter ?? 0.2) * 1000);
      await sleep(waitMs);
    }
  }

  private path(operation: Operation): string {
    return operation.kind === "upload"
      ? `/documents/upload?filename=chaos-${operation.index}.pdf`
      : "/signature-requests";
  }

  private requestBody(operation: Operation) {
    return {
      title: `Chaos ${operation.index}`,
      documentIds: [this.options.documentId],
      fields: [{ type: "signature", role: "Signer", page: 1, x: 60, y: 600, width: 180, height: 40 }],
      recipients: [{ name: "Sam Signer", email: recipientEmail(operation.index), role: "Signer" }],
      send: true,
    };
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
