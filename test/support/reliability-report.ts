/** What the chaos suite measured, per fault, as the table in docs/reliability.md. */
import type { Operation } from "./steady-load.js";

export interface FaultWindow {
  fault: string;
  /** When the fault was made, and when the next one began. */
  from: number;
  to: number;
}

export interface FaultRow {
  fault: string;
  operations: number;
  acknowledged: number;
  lost: number;
  /** Answers of 500 or above other than a 503 with Retry-After: faults of ours. */
  serverErrors: number;
  /** 503 with Retry-After, and 409 with Retry-After for a retry of a call still running. */
  retryLater: number;
  /** Attempts that got no answer (a gateway killed or restarting). */
  noAnswer: number;
  /** From the fault until the last attempt (of its operations) that did not succeed; 0 when none failed. */
  recoveryMs: number;
  /** Acknowledged operations whose effect happened twice (two requests, two invitations). */
  twice: number;
  /** The answers other than 201, by status and problem code (`503 unavailable ×3`). */
  answers: string;
}

export function rowFor(
  window: FaultWindow,
  operations: Operation[],
  lost: ReadonlySet<string>,
  twice: ReadonlySet<number>,
): FaultRow {
  const started = operations.filter((op) => op.startedAt >= window.from && op.startedAt < window.to);
  // Every attempt of the operations the window started, however late: a retry is the fault's doing.
  const attempts = started.flatMap((op) => op.attempts);
  const failed = attempts.filter((a) => a.status !== 201);
  const lastFailure = Math.max(window.from, ...failed.map((a) => a.startedAt));
  return {
    fault: window.fault,
    operations: started.length,
    acknowledged: started.filter((op) => op.id !== undefined).length,
    lost: started.filter((op) => op.id !== undefined && lost.has(op.id)).length,
    serverErrors: attempts.filter((a) => a.status >= 500 && !(a.status === 503 && a.retryAfter)).length,
    retryLater: attempts.filter((a) => (a.status === 503 || a.status === 409) && a.retryAfter).length,
    noAnswer: attempts.filter((a) => a.status === 0).length,
    recoveryMs: failed.length === 0 ? 0 : lastFailure - window.from,
    twice: started.filter((op) => twice.has(op.index)).length,
    answers: tally(failed.map((a) => (a.status === 0 ? "no answer" : `${a.status} ${a.code ?? ""}`.trim()))),
  };
}

function tally(labels: string[]): string {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts].map(([label, n]) => `${label} ×${n}`).join(", ") || "—";
}

export interface Totals {
  replicas: string;
  loadDescription: string;
  events: { expected: number; delivered: number; duplicated: number };
  emails: { expected: number; sent: number; duplicated: number };
  stuck: number;
  outboxLeft: number;
  /** 5xx answers other than 503 with Retry-After, by status and problem code. */
  serverErrors: string[];
  shares: Record<string, Record<string, number>>;
}

export function reliabilityMarkdown(rows: FaultRow[], totals: Totals, command: string): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const table = [
    "| fault | requests | acknowledged | lost | done twice | 5xx | 503/409 with Retry-After | no answer | recovery (s) | answers other than 201 |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.fault} | ${r.operations} | ${r.acknowledged} | ${r.lost} | ${r.twice} | ${r.serverErrors} | ${r.retryLater} | ${r.noAnswer} | ${seconds(r.recoveryMs)} | ${r.answers} |`,
    ),
  ];
  const shares = Object.entries(totals.shares).map(
    ([service, byReplica]) =>
      `- ${service}: ${Object.entries(byReplica)
        .map(([replica, share]) => `${replica} ${(share * 100).toFixed(0)} %`)
        .join(", ")}`,
  );
  return `# Reliability

Measured by \`${command}\` (test/chaos.test.ts) on ${new Date().toISOString().slice(0, 10)}: the local
distributed launcher with ${totals.replicas}, its own NATS JetStream server and S3 endpoint, and
${totals.loadDescription}. Each fault is made while the load runs; a row counts the operations that
started between that fault and the next, with every attempt each of them made.

- **requests**: operations started (create-and-send a signature request, or upload a PDF); each
  retries a 503 or 409 with Retry-After and a connection that fails, with its Idempotency-Key.
- **acknowledged**: answered 201. **lost**: acknowledged, but not found afterwards (or not sent).
  **done twice**: acknowledged, and its invitation e-mail went out twice.
- **5xx**: answers of 500 and up other than 503 with Retry-After. There must be none.
- **no answer**: attempts whose connection failed (a gateway killed or restarting); the client
  sends them to the other gateway, as an ingress does.
- **recovery**: from the fault to the last of those attempts that did not succeed. A gateway
  killed mid-request holds that request's Idempotency-Key for 60 s (the claim), and its retries
  get 409 with Retry-After until the claim runs out.

${table.join("\n")}

After the faults:
- events: ${totals.events.delivered} of ${totals.events.expected} \`signature_request.sent\` events delivered
  to the webhook endpoint (counted by request), ${totals.events.duplicated} with more than one event id;
- e-mails: ${totals.emails.sent} invitations for ${totals.emails.expected} acknowledged requests, ${totals.emails.duplicated} sent twice;
- requests stuck in a state they should have left: ${totals.stuck}; events left in the services' outboxes: ${totals.outboxLeft};
- answers of 5xx other than 503 with Retry-After: ${totals.serverErrors.length === 0 ? "none" : totals.serverErrors.join(", ")}.

Share of the calls each replica served while no fault was made (\`rpc_server_handled_total\`):
${shares.join("\n")}
`;
}
