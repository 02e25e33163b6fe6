/**
 * Recent Errors and API Usage, built from the ApiCallRecorded events the gateway publishes (and
 * Recent Errors also from the requests service's CompletionAttemptFailed, one row each). Events
 * are gathered for a moment and written in one transaction, so a busy gateway costs a few upserts
 * per second instead of one insert per call. Failed calls are kept for 30 days; usage per day for
 * 400. Usage counts are at-least-once: a redelivered event after a crash may count twice, errors not.
 */
import { create } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate, timestampFromDate, timestampMs } from "@bufbuild/protobuf/wkt";
import {
  LATENCY_BUCKET_UPPER_BOUNDS_MS,
  latencyBucketOf,
  latencyQuantile,
  utcDayOf,
} from "@countersign/domain";
import {
  type ApiCallError,
  ApiCallErrorSchema,
  type CallerUsage,
  CallerUsageSchema,
  DailyUsageSchema,
  type GetApiUsageResponse,
  GetApiUsageResponseSchema,
  RouteUsageSchema,
  type UsageFigures,
  UsageFiguresSchema,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type {
  CompletionAttemptFailed,
  EmailDeliveryFailed,
} from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import type {
  ApiCallRecorded,
  ApiKeyUse,
  ApiUsageTotal,
} from "@countersign/gen/countersign/events/v1/gateway_events_pb.js";
import { type Database, isUuid, type Logger, type Queryable, validationError } from "@countersign/kit";
import { requireUuid } from "./validation.js";

const ERROR_RETENTION = "30 days";
const USAGE_RETENTION = "400 days";
const PRUNE_EVERY_MS = 3_600_000;

/** What the gateway reports: failed calls one by one, the others as totals (gateway_events.proto). */
export interface ApiCallReport {
  calls: readonly ApiCallRecorded[];
  usage?: readonly ApiUsageTotal[];
  keyUses?: readonly ApiKeyUse[];
}

/** Reports gathered for one write, and the one promise every one of them waits on. */
class Batch {
  readonly events: ApiCallRecorded[] = [];
  readonly usage: ApiUsageTotal[] = [];
  readonly keyUses: ApiKeyUse[] = [];
  readonly written: Promise<void>;
  settle!: (err?: unknown) => void;

  get size(): number {
    return this.events.length + this.usage.length + this.keyUses.length;
  }

  constructor() {
    this.written = new Promise<void>((resolve, reject) => {
      this.settle = (err) => (err === undefined ? resolve() : reject(err));
    });
    // Nobody may be waiting (a bus that does not ask); a failure is logged where it happens.
    this.written.catch(() => {});
  }
}

export interface ApiCallRecordsOptions {
  flushIntervalMs?: number;
  maxBatch?: number;
}

export class ApiCallRecords {
  private batch = new Batch();
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private lastPrune = 0;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: ApiCallRecordsOptions = {},
  ) {}

  /**
   * Resolves once the report is stored, so the bus acknowledges only what is safe. What could not
   * be stored (a workspace that is no id, a day that is no date) is passed over: it comes over the
   * bus, and one bad entry must not fail its batch again on every redelivery.
   */
  record({ calls, usage = [], keyUses = [] }: ApiCallReport): Promise<void> {
    const batch = this.batch;
    for (const call of calls) if (isUuid(call.workspaceId)) batch.events.push(call);
    for (const total of usage) if (isStorableTotal(total)) batch.usage.push(total);
    for (const use of keyUses) if (isUuid(use.keyId)) batch.keyUses.push(use);
    if (batch.size >= (this.options.maxBatch ?? 5000)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushIntervalMs ?? 1000);
    return batch.written;
  }

  /** Writes what has gathered; writes never overlap, and the promise covers the one in progress. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.batch;
    this.batch = new Batch();
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: Batch): Promise<void> {
    if (batch.size === 0) return batch.settle();
    try {
      await this.db.transaction((tx) => writeBatch(tx, batch));
      batch.settle();
    } catch (err) {
      this.logger.warn(
        { err, events: batch.size },
        "could not store API call records; the bus will redeliver",
      );
      batch.settle(err);
    }
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await this.prune().catch((err: unknown) =>
        this.logger.warn({ err }, "could not prune API call records"),
      );
    }
  }

  /** A failed attempt to seal a request, listed beside the failed calls; a redelivery is listed once. */
  async recordSealingFailure(event: CompletionAttemptFailed): Promise<void> {
    const last = !event.retryTime;
    await this.recordEventError(event, {
      source: "sealing",
      code: last ? "completion_failed" : "completion_delayed",
      detail: `${event.reason} (attempt ${event.attempt} of ${event.maxAttempts}; ${
        event.retryTime
          ? `the next at ${utcSecond(timestampDate(event.retryTime))}`
          : "it waits for its sender to resend or cancel the request"
      })`,
    });
  }

  /** A failed try to e-mail a recipient, listed beside the failed calls; a redelivery is listed once. */
  async recordEmailFailure(event: EmailDeliveryFailed): Promise<void> {
    if (!isUuid(event.recipientId)) return;
    await this.recordEventError(event, {
      source: "email",
      code: event.retryTime ? "email_delayed" : "email_failed",
      detail: `the ${event.kind} e-mail to recipient ${event.recipientId} was not sent: ${event.reason} (try ${
        event.attempt
      } of ${event.maxAttempts}; ${
        event.retryTime ? `the next at ${utcSecond(timestampDate(event.retryTime))}` : "given up"
      })`,
    });
  }

  private async recordEventError(
    event: { workspaceId: string; signatureRequestId: string; eventId: string; failTime?: Timestamp },
    row: { source: string; code: string; detail: string },
  ): Promise<void> {
    if (!isUuid(event.workspaceId) || !isUuid(event.signatureRequestId) || !isUuid(event.eventId)) return;
    await this.db.query(
      `INSERT INTO api_errors (workspace_id, request_id, occurred_at, method, path, status, code, source, detail)
       VALUES ($1, $2, $3, '', $4, 503, $5, $6, $7) ON CONFLICT DO NOTHING`,
      [
        event.workspaceId,
        event.eventId,
        event.failTime ? timestampDate(event.failTime) : new Date(),
        `/api/v1/signature-requests/${event.signatureRequestId}`,
        row.code,
        row.source,
        row.detail.slice(0, 2000),
      ],
    );
  }

  async recentErrors(workspaceId: string, limit: number): Promise<ApiCallError[]> {
    requireUuid(workspaceId, "workspace");
    const { rows } = await this.db.query<{
      request_id: string;
      occurred_at: Date;
      method: string;
      path: string;
      status: number;
      code: string;
      source: string;
      detail: string;
      key_name: string;
      problem: string;
    }>(
      `SELECT request_id, occurred_at, method, path, status, code, source, detail, key_name, problem FROM api_errors
       WHERE workspace_id = $1 ORDER BY occurred_at DESC, request_id LIMIT $2`,
      [workspaceId, Math.min(Math.max(limit || 100, 1), 500)],
    );
    return rows.map((row) =>
      create(ApiCallErrorSchema, {
        requestId: row.request_id,
        time: timestampFromDate(row.occurred_at),
        method: row.method,
        path: row.path,
        status: row.status,
        code: row.code,
        source: row.source,
        detail: row.detail,
        keyName: row.key_name,
        problem: row.problem,
      }),
    );
  }

  async usage(workspaceId: string, fromDay: string, toDay: string): Promise<GetApiUsageResponse> {
    requireUuid(workspaceId, "workspace");
    const range = dayRange(fromDay, toDay);
    const params = [workspaceId, range.from, range.to];
    const where = "workspace_id = $1 AND day BETWEEN $2::date AND $3::date";
    const counts = await this.db.query<{
      day: string;
      method: string;
      route: string;
      call_count: number;
      error_count: number;
    }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, method, route, call_count, error_count FROM api_usage WHERE ${where}`,
      params,
    );
    const latency = await this.db.query<{
      day: string;
      method: string;
      route: string;
      bucket: number;
      call_count: number;
    }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, method, route, bucket, call_count FROM api_usage_latency WHERE ${where}`,
      params,
    );
    const days = new Aggregate();
    const routes = new Aggregate();
    const total = new Aggregate();
    // Every row counts towards its day, its route and the total.
    const scopes = (row: { day: string; method: string; route: string }) =>
      [
        [days, row.day],
        [routes, `${row.method} ${row.route}`],
        [total, ""],
      ] as const;
    for (const row of counts.rows) {
      for (const [agg, key] of scopes(row)) agg.count(key, row.call_count, row.error_count);
    }
    for (const row of latency.rows) {
      for (const [agg, key] of scopes(row)) agg.latency(key, row.bucket, row.call_count);
    }
    return create(GetApiUsageResponseSchema, {
      fromDay: range.from,
      toDay: range.to,
      days: [...days.keys()]
        .sort()
        .map((day) => create(DailyUsageSchema, { day, figures: days.figures(day) })),
      routes: [...routes.keys()]
        .map((key) => {
          const [method = "", route = ""] = key.split(" ");
          return create(RouteUsageSchema, { method, route, figures: routes.figures(key) });
        })
        .sort(
          (a, b) =>
            Number((b.figures?.callCount ?? 0n) - (a.figures?.callCount ?? 0n)) ||
            a.route.localeCompare(b.route),
        ),
      total: total.figures(""),
      callers: await this.callerUsage(params),
    });
  }

  /** Each caller's calls over the range, named as it is now; busiest first. */
  private async callerUsage(params: unknown[]): Promise<CallerUsage[]> {
    const { rows } = await this.db.query<{
      caller_id: string;
      name: string | null;
      kind: string | null;
      call_count: string;
      error_count: string;
    }>(
      `SELECT u.caller_id, COALESCE(k.name, i.name) AS name,
              CASE WHEN k.id IS NOT NULL THEN 'api_key' WHEN i.id IS NOT NULL THEN 'integration' END AS kind,
              sum(u.call_count) AS call_count, sum(u.error_count) AS error_count
       FROM api_usage_callers u
       LEFT JOIN api_keys k ON k.id = u.caller_id AND k.workspace_id = u.workspace_id
       LEFT JOIN integrations i ON i.id = u.caller_id AND i.workspace_id = u.workspace_id
       WHERE u.workspace_id = $1 AND u.day BETWEEN $2::date AND $3::date
       GROUP BY u.caller_id, k.id, k.name, i.id, i.name
       ORDER BY sum(u.call_count) DESC, u.caller_id`,
      params,
    );
    return rows.map((row) =>
      create(CallerUsageSchema, {
        callerId: row.caller_id,
        name: row.name ?? "",
        kind: row.kind ?? "",
        callCount: BigInt(row.call_count),
        errorCount: BigInt(row.error_count),
      }),
    );
  }

  async stop(): Promise<void> {
    await this.flush();
  }

  private async prune(): Promise<void> {
    await this.db.query(`DELETE FROM api_errors WHERE occurred_at < now() - interval '${ERROR_RETENTION}'`);
    await this.db.query(`DELETE FROM api_usage WHERE day < current_date - interval '${USAGE_RETENTION}'`);
    await this.db.query(
      `DELETE FROM api_usage_latency WHERE day < current_date - interval '${USAGE_RETENTION}'`,
    );
    await this.db.query(
      `DELETE FROM api_usage_callers WHERE day < current_date - interval '${USAGE_RETENTION}'`,
    );
  }
}

/** The most of a failed call's answer kept: a problem with many field errors, not a document. */
const PROBLEM_LIMIT = 4096;

function isStorableTotal(total: ApiUsageTotal): boolean {
  return (
    isUuid(total.workspaceId) &&
    validDay(total.day) &&
    total.latency.every(
      ({ bucket, calls }) => bucket >= 0 && bucket < LATENCY_BUCKET_UPPER_BOUNDS_MS.length && calls > 0n,
    )
  );
}

/** What API Usage counts by. */
type UsageKey = [workspaceId: string, day: string, method: string, route: string];

/** Counts by workspace, day, method and route, and by latency bucket within them. */
class UsageCounts {
  readonly usage = new Map<string, { key: unknown[]; calls: number; errors: number }>();
  readonly latency = new Map<string, { key: unknown[]; calls: number }>();

  add(key: UsageKey, bucket: number, calls: number, errors: number): void {
    const id = key.join(" ");
    const entry = this.usage.get(id) ?? { key, calls: 0, errors: 0 };
    entry.calls += calls;
    entry.errors += errors;
    this.usage.set(id, entry);
    const bucketEntry = this.latency.get(`${id} ${bucket}`) ?? { key: [...key, bucket], calls: 0 };
    bucketEntry.calls += calls;
    this.latency.set(`${id} ${bucket}`, bucketEntry);
  }
}

async function writeBatch(tx: Queryable, { events, usage: totals, keyUses }: Batch): Promise<void> {
  const errors = events.filter((e) => e.status >= 400);
  const counts = new UsageCounts();
  for (const event of events) {
    const key: UsageKey = [
      event.workspaceId,
      utcDayOf(event.time ? timestampMs(event.time) : Date.now()),
      event.method,
      event.route,
    ];
    counts.add(key, latencyBucketOf(event.durationMs), 1, event.status >= 400 ? 1 : 0);
  }
  for (const total of totals) {
    const key: UsageKey = [total.workspaceId, total.day, total.method, total.route];
    for (const { bucket, calls } of total.latency) counts.add(key, bucket, Number(calls), 0);
  }
  const { usage, latency } = counts;
  await countByCaller(tx, events, totals);
  if (errors.length > 0) {
    const rows = errors.map((e) => [
      e.workspaceId,
      e.requestId,
      e.time ? timestampDate(e.time) : new Date(),
      e.method,
      e.path.slice(0, 2000),
      e.status,
      e.code,
      e.keyName.slice(0, 200),
      e.problem.slice(0, PROBLEM_LIMIT),
    ]);
    await tx.query(
      `INSERT INTO api_errors (workspace_id, request_id, occurred_at, method, path, status, code, key_name, problem)
       VALUES ${placeholders(rows)} ON CONFLICT DO NOTHING`,
      rows.flat(),
    );
  }
  if (usage.size > 0) {
    const usageRows = [...usage.values()].map((u) => [...u.key, u.calls, u.errors]);
    await tx.query(
      `INSERT INTO api_usage (workspace_id, day, method, route, call_count, error_count) VALUES ${placeholders(usageRows)}
       ON CONFLICT (workspace_id, day, method, route) DO UPDATE SET
         call_count = api_usage.call_count + EXCLUDED.call_count,
         error_count = api_usage.error_count + EXCLUDED.error_count`,
      usageRows.flat(),
    );
    const latencyRows = [...latency.values()].map((l) => [...l.key, l.calls]);
    await tx.query(
      `INSERT INTO api_usage_latency (workspace_id, day, method, route, bucket, call_count) VALUES ${placeholders(latencyRows)}
       ON CONFLICT (workspace_id, day, method, route, bucket) DO UPDATE SET
         call_count = api_usage_latency.call_count + EXCLUDED.call_count`,
      latencyRows.flat(),
    );
  }
  // Each key's latest call in the batch; a batch reported late never moves a later use back.
  const lastUse = new Map<string, Date>();
  const used = (keyId: string, at: Date) => {
    const before = lastUse.get(keyId);
    if (!before || at > before) lastUse.set(keyId, at);
  };
  // Only a key's id can name a key; anything else in an event (it comes over the bus) is passed over.
  for (const event of events) {
    if (isUuid(event.keyId)) used(event.keyId, event.time ? timestampDate(event.time) : new Date());
  }
  for (const use of keyUses) used(use.keyId, use.time ? timestampDate(use.time) : new Date());
  if (lastUse.size > 0) {
    // A caller is a key or an integration (whose access tokens made the call): one of the two matches.
    for (const table of ["api_keys", "integrations"]) {
      await tx.query(
        `UPDATE ${table} k SET last_used_at = GREATEST(k.last_used_at, u.at)
           FROM unnest($1::uuid[], $2::timestamptz[]) AS u (id, at) WHERE k.id = u.id`,
        [[...lastUse.keys()], [...lastUse.values()]],
      );
    }
  }
}

/** Each key's and integration's calls of the batch, per workspace and day. */
async function countByCaller(
  tx: Queryable,
  events: ApiCallRecorded[],
  totals: ApiUsageTotal[],
): Promise<void> {
  const counts = new Map<
    string,
    [workspaceId: string, day: string, callerId: string, calls: number, errors: number]
  >();
  const add = (workspaceId: string, day: string, callerId: string, calls: number, errors: number) => {
    // Only an id can name a caller; a total from a gateway older than callers has none.
    if (!isUuid(callerId)) return;
    const id = `${workspaceId} ${day} ${callerId}`;
    const entry = counts.get(id) ?? [workspaceId, day, callerId, 0, 0];
    entry[3] += calls;
    entry[4] += errors;
    counts.set(id, entry);
  };
  for (const event of events) {
    const day = utcDayOf(event.time ? timestampMs(event.time) : Date.now());
    add(event.workspaceId, day, event.keyId, 1, event.status >= 400 ? 1 : 0);
  }
  for (const total of totals) {
    const calls = total.latency.reduce((sum, { calls }) => sum + Number(calls), 0);
    add(total.workspaceId, total.day, total.keyId, calls, 0);
  }
  if (counts.size === 0) return;
  const rows = [...counts.values()];
  await tx.query(
    `INSERT INTO api_usage_callers (workspace_id, day, caller_id, call_count, error_count) VALUES ${placeholders(rows)}
     ON CONFLICT (workspace_id, day, caller_id) DO UPDATE SET
       call_count = api_usage_callers.call_count + EXCLUDED.call_count,
       error_count = api_usage_callers.error_count + EXCLUDED.error_count`,
    rows.flat(),
  );
}

/** "($1, $2), ($3, $4)" for rows of equal length. */
function placeholders(rows: unknown[][]): string {
  let n = 0;
  return rows.map((row) => `(${row.map(() => `$${++n}`).join(", ")})`).join(", ");
}

class Aggregate {
  private readonly calls = new Map<string, { calls: number; errors: number }>();
  private readonly histograms = new Map<string, Map<number, number>>();

  count(key: string, calls: number, errors: number): void {
    const entry = this.calls.get(key) ?? { calls: 0, errors: 0 };
    entry.calls += calls;
    entry.errors += errors;
    this.calls.set(key, entry);
  }

  latency(key: string, bucket: number, calls: number): void {
    const histogram = this.histograms.get(key) ?? new Map<number, number>();
    histogram.set(bucket, (histogram.get(bucket) ?? 0) + calls);
    this.histograms.set(key, histogram);
  }

  keys(): IterableIterator<string> {
    return this.calls.keys();
  }

  figures(key: string): UsageFigures {
    const counts = this.calls.get(key) ?? { calls: 0, errors: 0 };
    const histogram = this.histograms.get(key) ?? new Map();
    return create(UsageFiguresSchema, {
      callCount: BigInt(counts.calls),
      errorCount: BigInt(counts.errors),
      p50Ms: round(latencyQuantile(histogram, 0.5)),
      p95Ms: round(latencyQuantile(histogram, 0.95)),
    });
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_RANGE_DAYS = 400;

function dayRange(fromDay: string, toDay: string): { from: string; to: string } {
  const violations = [
    ...(fromDay && !validDay(fromDay) ? [{ path: "fromDay", message: DAY_RULE }] : []),
    ...(toDay && !validDay(toDay) ? [{ path: "toDay", message: DAY_RULE }] : []),
  ];
  if (violations.length > 0) throw validationError(violations);
  const to = toDay || new Date().toISOString().slice(0, 10);
  const monthBefore = new Date(Date.parse(to) - 29 * 86_400_000).toISOString().slice(0, 10);
  const from = fromDay || (monthBefore < EARLIEST_DAY ? EARLIEST_DAY : monthBefore);
  if (from > to) throw validationError([{ path: "fromDay", message: "must not be after toDay" }]);
  if (Date.parse(to) - Date.parse(from) > MAX_RANGE_DAYS * 86_400_000) {
    throw validationError([
      { path: "fromDay", message: `the range may span at most ${MAX_RANGE_DAYS} days` },
    ]);
  }
  return { from, to };
}

/** No call was made before the Unix epoch; days before it (year 0 and earlier) are not dates PostgreSQL keeps. */
const EARLIEST_DAY = "1970-01-01";
const DAY_RULE = "must be a date from 1970-01-01 to 9999-12-31, as YYYY-MM-DD";

function validDay(day: string): boolean {
  return (
    DAY.test(day) &&
    day >= EARLIEST_DAY &&
    !Number.isNaN(Date.parse(day)) &&
    new Date(day).toISOString().startsWith(day)
  );
}

/** A time as Recent Errors words it: "2026-11-26 13:05:09 UTC". */
function utcSecond(date: Date): string {
  return `${date.toISOString().replace("T", " ").slice(0, 19)} UTC`;
}
