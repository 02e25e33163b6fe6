/**
 * Background jobs as rows of a service's own tables: written in the transaction that makes them due,
 * claimed as due-rows.ts locks due rows (SKIP LOCKED) so that replicas share them, leased so that a job a dead replica held is
 * taken again, retried with exponential backoff, and parked after their last attempt. Keeping the
 * jobs in the domain's tables (not a library's) lets the API read a job's state where it reads the
 * rest: a recipient's e-mail delivery, a request's completion.
 *
 * A job table has, besides its own columns, a uuid key and:
 *   attempts int NOT NULL DEFAULT 0            claims so far; also the fence of a claim
 *   next_attempt_at timestamptz NOT NULL       due from then
 *   claimed_until timestamptz NOT NULL         leased to a worker until then ('-infinity': free)
 *   done_at timestamptz                        finished (unless done jobs are deleted)
 *   parked_at timestamptz                      given up after its last attempt; an operator's to look at
 *   last_error text                            why the last attempt failed
 *   created_at timestamptz NOT NULL            for the age of the oldest waiting job
 *
 * A table whose jobs belong to parties (workspaces) names the column that says whose each is, and
 * the parties take turns: a claim takes first the jobs of parties this worker has not served lately,
 * so one workspace's thousand queued completions hold another's one behind one of them, not all.
 *
 * Every queue of every service reports the same metrics, labelled with its name: jobs queued,
 * running and parked, the age of the oldest unfinished one, and attempts by outcome.
 */
import { Counter, Gauge } from "prom-client";
import type { Database, Queryable } from "./database.js";
import { DrainLoop } from "./drain-loop.js";
import { selectDue } from "./due-rows.js";
import type { Logger } from "./logger.js";
import { contextFrom, inSpan, SpanKind, tracingEnabled } from "./tracing.js";

/** The wait before attempt n + 1: `firstMs`, doubled after each failure, at most `maxMs`. */
export function exponentialBackoff(firstMs: number, maxMs: number): (attempts: number) => number {
  return (attempts) => Math.min(firstMs * 2 ** Math.max(0, attempts - 1), maxMs);
}

export interface JobTable {
  name: string;
  /** The key column, a uuid. */
  key: string;
  /** The job's own columns a claim returns, besides the key and attempts. */
  columns: readonly string[];
  /** The order jobs are claimed in; the key's unless given. */
  order?: string;
  /**
   * The column that says whose a job is (a workspace's id): a claim takes the jobs of the parties
   * this worker served least lately first, in `order` within a party, so no party's backlog holds
   * the others' jobs behind it.
   */
  party?: string;
  /**
   * Widens claimed jobs with other tables' columns: a SELECT over the claimed rows, named `claimed`
   * (no alias, no ORDER BY), e.g. `SELECT claimed.*, u.email FROM claimed JOIN users u ON u.id = claimed.user_id`.
   */
  widen?: string;
  /** A finished job is deleted rather than kept with its done_at (the table has no done_at). */
  deleteWhenDone?: boolean;
  /**
   * The table has a `traceparent` column, written with the job (tracing.ts `currentTraceparent`):
   * each attempt runs in a span of the trace of the call that queued it.
   */
  traced?: boolean;
}

/** What became of one attempt at a job. */
export type JobOutcome =
  /** Finished; `note` is kept as its last_error (why it was dropped, say), `set` are columns of its own. */
  | { kind: "done"; note?: string; set?: Readonly<Record<string, string | number | boolean | null>> }
  /** Failed: tried again after the backoff, or parked if this was the last attempt. */
  | { kind: "failed"; error: unknown }
  /** Not tried after all (the bus is away, the worker is stopping): free again, the claim not counted. */
  | { kind: "released" };

export interface JobState {
  /** The claim's number, 1 for the first attempt. */
  attempts: number;
}

/** A failed attempt, as a queue's `failed` hook sees it inside the transaction that records it. */
export interface JobFailure {
  error: unknown;
  /** The error's message, as stored in last_error. */
  message: string;
  attempts: number;
  maxAttempts: number;
  /** When it is tried again; absent when this was the last attempt and the job is parked. */
  retryAt?: Date;
}

export interface JobQueueOptions<Job extends JobState> {
  /** The queue's name in logs and metrics: "e-mail", "completion". */
  name: string;
  db: Database;
  logger: Logger;
  table: JobTable;
  /** How long a claim lasts: longer than one attempt (a batch's, when jobs are claimed in batches). */
  leaseSeconds: number;
  pollIntervalMs: number;
  maxAttempts: number;
  /** The wait after a failed attempt, by attempts so far. */
  backoff: (attempts: number) => number;
  /** Jobs per claim (1 unless given). */
  batchSize?: number;
  /**
   * Runs one job and answers its outcome; throwing fails the attempt. Jobs of a batch run one after
   * another, each settled as it ends. Give this or `runBatch`.
   */
  run?: (job: Job, stopping: AbortSignal) => Promise<JobOutcome>;
  /** Runs a claimed batch at once and answers each job's outcome, in order; settled together. */
  runBatch?: (jobs: readonly Job[]) => Promise<JobOutcome[]>;
  /** Records a failed attempt with the queue's own effects (an event, an audit entry), in its transaction. */
  failed?: (tx: Queryable, job: Job, failure: JobFailure) => Promise<void>;
  /** Called once a failed attempt is recorded (committed, with what the `failed` hook wrote). */
  afterFailed?: (job: Job, failure: JobFailure) => void;
  /** The only worker on its database (standalone): claims a killed process left are freed at start. */
  onlyReplica?: boolean;
  /** What names a job in the log lines of its failures, besides its key. */
  describe?: (job: Job) => Record<string, unknown>;
}

/** A queue the gauges read on each scrape: a JobQueue, or one that claims its own way. */
export interface ReportedQueue {
  readonly name: string;
  stats(): Promise<QueueStats>;
}

/** The queues working in this process. */
const working = new Set<ReportedQueue>();

/**
 * Reports a queue that claims its jobs its own way in the same gauges as the JobQueues (webhook
 * deliveries, whose attempts follow the endpoint's schedule); the answer ends the reporting.
 */
export function reportQueue(queue: ReportedQueue): () => void {
  working.add(queue);
  return () => working.delete(queue);
}

/** One read of every queue's table per scrape, shared by the gauges it sets. */
let lastRead: { at: number; stats: Promise<Map<string, QueueStats | undefined>> } | undefined;
function readQueues(): Promise<Map<string, QueueStats | undefined>> {
  if (!lastRead || Date.now() - lastRead.at > 1000) {
    const queues = [...working];
    lastRead = {
      at: Date.now(),
      stats: Promise.all(queues.map((queue) => queue.stats().catch(() => undefined))).then(
        (stats) => new Map(queues.map((queue, i) => [queue.name, stats[i]])),
      ),
    };
  }
  return lastRead.stats;
}

/** Jobs of every queue of this process, by queue and state: queued, running, parked. */
export const backgroundJobs = new Gauge({
  name: "background_jobs",
  help: "Unfinished background jobs, by queue and state: queued (waiting or due), running (claimed) or parked (given up after their last attempt).",
  labelNames: ["queue", "state"],
  registers: [],
  async collect() {
    this.reset();
    for (const [queue, stats] of await readQueues())
      for (const state of ["queued", "running", "parked"] as const)
        this.set({ queue, state }, stats ? stats[state] : Number.NaN);
  },
});

export const backgroundJobsOldest = new Gauge({
  name: "background_jobs_oldest_seconds",
  help: "Age of the oldest unfinished, unparked job, by queue: a queue that does not drain grows it.",
  labelNames: ["queue"],
  registers: [],
  async collect() {
    this.reset();
    for (const [queue, stats] of await readQueues())
      this.set({ queue }, stats ? stats.oldestSeconds : Number.NaN);
  },
});

export const backgroundJobAttempts = new Counter({
  name: "background_job_attempts_total",
  help: "Attempts at background jobs, by queue and outcome: done, retried, parked or released (not counted).",
  labelNames: ["queue", "outcome"],
  registers: [],
});

export interface QueueStats {
  queued: number;
  running: number;
  parked: number;
  oldestSeconds: number;
}

/**
 * How many parties a queue remembers having served. Past it, the party served longest ago is as
 * good as new — with that many taking turns, it has waited its turn.
 */
const RECENT_PARTIES = 64;

export class JobQueue<Job extends JobState> implements ReportedQueue {
  readonly name: string;
  private readonly loop: DrainLoop;
  private claimsFreed = false;
  private readonly unfinished: string;
  /** The parties of this worker's last claims, the latest first: served lately, they go after the others. */
  private readonly served: string[] = [];

  constructor(private readonly config: JobQueueOptions<Job>) {
    if (!config.run === !config.runBatch) throw new Error(`queue ${config.name}: give run or runBatch`);
    this.name = config.name;
    this.unfinished = config.table.deleteWhenDone ? "true" : "done_at IS NULL";
    this.loop = new DrainLoop((stopping) => this.drainJobs(stopping), config.pollIntervalMs, {
      work: config.name,
      logger: config.logger,
    });
  }

  start(): void {
    working.add(this);
    this.loop.start();
  }

  /** Works off what is due now; called after a commit that queued jobs. */
  kick(): void {
    this.loop.kick();
  }

  /** Resolves when no job is being worked on. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  /** Waits for the job in hand; the rest of a claimed batch is freed. */
  async stop(): Promise<void> {
    working.delete(this);
    await this.loop.stop();
  }

  /**
   * Marks a job finished inside a transaction of the caller's, with what the job itself changed: once
   * committed, the queue's own marking after `run` resolves changes nothing.
   */
  async finish(tx: Queryable, key: string, note = ""): Promise<void> {
    const { name, key: keyColumn, deleteWhenDone } = this.config.table;
    await tx.query(
      deleteWhenDone
        ? `DELETE FROM ${name} WHERE ${keyColumn} = $1`
        : `UPDATE ${name} SET done_at = now(), claimed_until = '-infinity', last_error = $2
            WHERE ${keyColumn} = $1 AND done_at IS NULL`,
      deleteWhenDone ? [key] : [key, note],
    );
  }

  async stats(): Promise<QueueStats> {
    const { rows } = await this.config.db.query<QueueStats>(
      `SELECT count(*) FILTER (WHERE parked_at IS NULL AND claimed_until <= now())::int AS queued,
              count(*) FILTER (WHERE parked_at IS NULL AND claimed_until > now())::int AS running,
              count(*) FILTER (WHERE parked_at IS NOT NULL)::int AS parked,
              COALESCE(extract(epoch FROM now() - min(created_at) FILTER (WHERE parked_at IS NULL)), 0)::float8
                AS "oldestSeconds"
         FROM ${this.config.table.name} WHERE ${this.unfinished}`,
    );
    return rows[0] ?? { queued: 0, running: 0, parked: 0, oldestSeconds: 0 };
  }

  private async drainJobs(stopping: AbortSignal): Promise<void> {
    const batchSize = this.config.batchSize ?? 1;
    try {
      if (this.config.onlyReplica && !this.claimsFreed) {
        await this.config.db.query(
          `UPDATE ${this.config.table.name} SET claimed_until = '-infinity'
            WHERE ${this.unfinished} AND parked_at IS NULL AND claimed_until > now()`,
        );
        this.claimsFreed = true;
      }
      while (!stopping.aborted) {
        const jobs = await this.claimJobs(batchSize);
        const released = this.config.runBatch
          ? await this.runJobBatch(this.config.runBatch, jobs)
          : await this.runJobs(jobs, stopping);
        // Released jobs would be claimed again at once: they wait for the next poll or kick.
        if (released || jobs.length < batchSize) return;
      }
    } catch (err) {
      // The database is away: claimed jobs are taken again when their claim runs out.
      this.config.logger.warn({ err, queue: this.name }, "cannot work the queue; the next poll tries again");
    }
  }

  private async claimJobs(limit: number): Promise<Job[]> {
    const { name, key, order = key, widen, traced, party } = this.config.table;
    const columns = [
      ...new Set([
        ...this.config.table.columns,
        ...(traced ? ["traceparent"] : []),
        ...(party ? [party] : []),
      ]),
    ];
    // A party not served lately is NULL in the array and goes first; then the one served longest ago.
    // The order is computed over every due job (no index holds it): measured in docs/benchmarks.md.
    const fairly = party ? `array_position($3::text[], ${party}::text) DESC NULLS FIRST, ` : "";
    const due = selectDue(
      {
        select: key,
        from: name,
        where: `${this.unfinished} AND parked_at IS NULL AND next_attempt_at <= now() AND claimed_until < now()`,
        order: `${fairly}${order}`,
        lock: name,
        id: key,
      },
      "$1",
    );
    const { rows } = await this.config.db.query<Job>(
      `WITH claimed AS (
         UPDATE ${name} SET claimed_until = now() + make_interval(secs => $2), attempts = attempts + 1
          WHERE ${key} IN (${due})
         RETURNING ${[key, "attempts", ...columns].join(", ")})
       ${widen ?? "SELECT * FROM claimed"}
       ORDER BY claimed.${key}`,
      party ? [limit, this.config.leaseSeconds, this.served] : [limit, this.config.leaseSeconds],
    );
    if (party)
      for (const job of rows) this.servedNow(String((job as unknown as Record<string, unknown>)[party]));
    return rows;
  }

  /** Puts `party` first among those served lately; the list keeps the last RECENT_PARTIES. */
  private servedNow(party: string): void {
    const at = this.served.indexOf(party);
    if (at >= 0) this.served.splice(at, 1);
    this.served.unshift(party);
    this.served.length = Math.min(this.served.length, RECENT_PARTIES);
  }

  /** Runs jobs one after another, each settled as it ends; whether any was released. */
  private async runJobs(jobs: readonly Job[], stopping: AbortSignal): Promise<boolean> {
    const run = this.config.run as NonNullable<JobQueueOptions<Job>["run"]>;
    for (const [i, job] of jobs.entries()) {
      if (stopping.aborted) {
        await this.releaseJobs(jobs.slice(i));
        return true;
      }
      const outcome = await this.inJobSpan(job, () => run(job, stopping)).catch(
        (error: unknown): JobOutcome => ({ kind: "failed", error }),
      );
      if (outcome.kind === "released") {
        await this.releaseJobs(jobs.slice(i));
        return true;
      }
      await this.settleJob(job, outcome);
    }
    return false;
  }

  /** Runs a batch at once; finished jobs are marked in one statement. Whether any was released. */
  private async runJobBatch(
    runBatch: NonNullable<JobQueueOptions<Job>["runBatch"]>,
    jobs: readonly Job[],
  ): Promise<boolean> {
    if (jobs.length === 0) return false;
    const outcomes = await runBatch(jobs).catch((error: unknown) =>
      jobs.map(() => ({ kind: "failed", error }) as const),
    );
    const done = jobs.filter((_, i) => outcomes[i]?.kind === "done");
    if (done.length > 0) await this.finishAll(done);
    const released = jobs.filter((_, i) => outcomes[i]?.kind === "released");
    if (released.length > 0) await this.releaseJobs(released);
    for (const [i, job] of jobs.entries()) {
      const outcome = outcomes[i];
      if (outcome?.kind === "failed") await this.settleJob(job, outcome);
    }
    return released.length > 0;
  }

  /** An attempt at a traced table's job, in a span of the trace that queued it. */
  private inJobSpan<T>(job: Job, attempt: () => Promise<T>): Promise<T> {
    if (!this.config.table.traced || !tracingEnabled()) return attempt();
    const traceparent = (job as unknown as { traceparent?: string | null }).traceparent;
    return inSpan(
      `${this.name} job`,
      {
        kind: SpanKind.CONSUMER,
        parent: contextFrom(traceparent),
        onlyInTrace: true,
        attributes: { "countersign.queue": this.name, "countersign.job.attempt": job.attempts },
      },
      attempt,
    );
  }

  private keyOf(job: Job): string {
    return (job as unknown as Record<string, string>)[this.config.table.key] as string;
  }

  private async settleJob(job: Job, outcome: Exclude<JobOutcome, { kind: "released" }>): Promise<void> {
    if (outcome.kind === "failed") {
      await this.recordFailure(job, outcome.error);
      return;
    }
    const { name, key, deleteWhenDone } = this.config.table;
    const set = Object.entries(outcome.set ?? {});
    // Fenced by the claim's attempts: a job whose claim ran out and was taken again is the other claim's.
    await this.config.db.query(
      deleteWhenDone
        ? `DELETE FROM ${name} WHERE ${key} = $1 AND attempts = $2`
        : `UPDATE ${name} SET done_at = now(), claimed_until = '-infinity', last_error = $3
                  ${set.map(([column], i) => `, ${column} = $${i + 4}`).join("")}
            WHERE ${key} = $1 AND attempts = $2 AND done_at IS NULL`,
      deleteWhenDone
        ? [this.keyOf(job), job.attempts]
        : [this.keyOf(job), job.attempts, outcome.note ?? "", ...set.map(([, value]) => value)],
    );
    backgroundJobAttempts.inc({ queue: this.name, outcome: "done" });
  }

  private async finishAll(jobs: readonly Job[]): Promise<void> {
    const { name, key, deleteWhenDone } = this.config.table;
    await this.config.db.query(
      deleteWhenDone
        ? `DELETE FROM ${name} t USING unnest($1::uuid[], $2::int[]) AS f(key, attempts)
            WHERE t.${key} = f.key AND t.attempts = f.attempts`
        : `UPDATE ${name} t SET done_at = now(), claimed_until = '-infinity', last_error = ''
             FROM unnest($1::uuid[], $2::int[]) AS f(key, attempts)
            WHERE t.${key} = f.key AND t.attempts = f.attempts AND t.done_at IS NULL`,
      [jobs.map((job) => this.keyOf(job)), jobs.map((job) => job.attempts)],
    );
    backgroundJobAttempts.inc({ queue: this.name, outcome: "done" }, jobs.length);
  }

  /** Frees claimed jobs this worker did not try, uncounted. */
  private async releaseJobs(jobs: readonly Job[]): Promise<void> {
    const { name, key } = this.config.table;
    await this.config.db.query(
      `UPDATE ${name} t SET claimed_until = '-infinity', attempts = t.attempts - 1
         FROM unnest($1::uuid[], $2::int[]) AS r(key, attempts)
        WHERE t.${key} = r.key AND t.attempts = r.attempts`,
      [jobs.map((job) => this.keyOf(job)), jobs.map((job) => job.attempts)],
    );
    backgroundJobAttempts.inc({ queue: this.name, outcome: "released" }, jobs.length);
  }

  /** A failed attempt: tried again after the backoff, or parked after the last, with the queue's hook. */
  private async recordFailure(job: Job, error: unknown): Promise<void> {
    const { db, logger, maxAttempts, table } = this.config;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    const parked = job.attempts >= maxAttempts;
    const delayMs = parked ? 0 : this.config.backoff(job.attempts);
    const failure: JobFailure = {
      error,
      message,
      attempts: job.attempts,
      maxAttempts,
      retryAt: parked ? undefined : new Date(Date.now() + delayMs),
    };
    const hook = this.config.failed;
    const recorded = await db.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        parked
          ? `UPDATE ${table.name} SET parked_at = now(), claimed_until = '-infinity', last_error = $3
              WHERE ${table.key} = $1 AND attempts = $2 AND parked_at IS NULL`
          : `UPDATE ${table.name} SET next_attempt_at = now() + make_interval(secs => $4 / 1000.0),
                    claimed_until = '-infinity', last_error = $3
              WHERE ${table.key} = $1 AND attempts = $2 AND parked_at IS NULL`,
        parked ? [this.keyOf(job), job.attempts, message] : [this.keyOf(job), job.attempts, message, delayMs],
      );
      if (!rowCount) return false;
      await hook?.(tx, job, failure);
      return true;
    });
    if (!recorded) return;
    this.config.afterFailed?.(job, failure);
    backgroundJobAttempts.inc({ queue: this.name, outcome: parked ? "parked" : "retried" });
    const details = {
      err: error,
      queue: this.name,
      job: this.keyOf(job),
      ...this.config.describe?.(job),
      attempts: job.attempts,
    };
    if (parked) logger.error(details, "background job parked after its last attempt");
    else logger.warn({ ...details, retryInMs: delayMs }, "background job failed; will retry");
  }
}
