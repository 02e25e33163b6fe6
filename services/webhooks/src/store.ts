/** The webhooks service's SQL, in one place: endpoints, messages and attempts. */

import type { WebhookFormat } from "@countersign/domain";
import {
  callIsTest,
  type DueRows,
  inCallMode,
  type Queryable,
  type QueueStats,
  selectDue,
  selectPage,
  workspaceRows,
} from "@countersign/kit";

export interface EndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  description: string;
  event_types: string[];
  format: WebhookFormat;
  secret_sealed: Uint8Array;
  previous_secret_sealed: Uint8Array | null;
  previous_secret_expires_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
  /** Registered with a test key: it gets test requests' events, and only test keys see it. */
  test: boolean;
}

export interface MessageRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: "pending" | "succeeded" | "failed";
  attempt_count: number;
  next_attempt_at: Date;
  claimed_until: Date;
  created_at: Date;
}

export interface AttemptRow {
  id: string;
  message_id: string;
  attempted_at: Date;
  status_code: number;
  duration_ms: number;
  response_headers: Record<string, string>;
  response_body: string;
  error: string;
  succeeded: boolean;
  trigger: string;
}

/** A message claimed for an attempt, with what the attempt needs of its endpoint. */
export interface DueMessage {
  id: string;
  claim_id: string;
  endpoint_id: string;
  event_type: string;
  payload: string;
  round_attempts: number;
  attempt_count: number;
  next_trigger: string;
  created_at: Date;
  url: string;
  format: WebhookFormat;
  secret_sealed: Uint8Array;
  previous_secret_sealed: Uint8Array | null;
  previous_secret_expires_at: Date | null;
  traceparent: string | null;
}

const MESSAGE_COLUMNS =
  "id, endpoint_id, event_id, event_type, payload, status, attempt_count, next_attempt_at, claimed_until, created_at";

/** Messages due an attempt, of endpoints not disabled, unclaimed or whose claim ran out: oldest due first. */
const DUE_MESSAGES: DueRows = {
  select: "m.id",
  from: "messages m JOIN endpoints e ON e.id = m.endpoint_id",
  where:
    "m.status = 'pending' AND m.next_attempt_at <= now() AND m.claimed_until < now() AND e.disabled_at IS NULL",
  order: "m.next_attempt_at",
  lock: "m",
  id: "m.id",
};

const endpointRows = workspaceRows<EndpointRow>("endpoints", "*", { modeColumn: "test" });

export const store = {
  endpoint: endpointRows.get,
  endpointsPage: endpointRows.page,

  async insertEndpoint(
    db: Queryable,
    row: Pick<
      EndpointRow,
      "id" | "workspace_id" | "url" | "description" | "event_types" | "format" | "secret_sealed"
    >,
  ) {
    const { rows } = await db.query<EndpointRow>(
      `INSERT INTO endpoints (id, workspace_id, url, description, event_types, format, secret_sealed, test)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
      [
        row.id,
        row.workspace_id,
        row.url,
        row.description,
        row.event_types,
        row.format,
        row.secret_sealed,
        callIsTest(),
      ],
    );
    return rows[0] as EndpointRow;
  },

  async updateEndpoint(db: Queryable, row: EndpointRow): Promise<EndpointRow> {
    const { rows } = await db.query<EndpointRow>(
      `UPDATE endpoints SET url = $2, description = $3, event_types = $4, disabled_at = $5, disabled_reason = $6,
              failing_since = $7, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [
        row.id,
        row.url,
        row.description,
        row.event_types,
        row.disabled_at,
        row.disabled_reason,
        row.failing_since,
      ],
    );
    return rows[0] as EndpointRow;
  },

  async deleteEndpoint(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
    const { rowCount } = await db.query(
      `DELETE FROM endpoints WHERE workspace_id = $1 AND id = $2${inCallMode("test")}`,
      [workspaceId, id],
    );
    return rowCount > 0;
  },

  async rotateSecret(db: Queryable, id: string, sealed: Uint8Array, previousExpiresAt: Date): Promise<void> {
    await db.query(
      `UPDATE endpoints SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = $3,
              secret_sealed = $2, updated_at = now()
        WHERE id = $1`,
      [id, sealed, previousExpiresAt],
    );
  },

  /** The enabled endpoints of the workspaces, with the types they subscribe to, their format and mode. */
  async subscribers(
    db: Queryable,
    workspaceIds: string[],
  ): Promise<Pick<EndpointRow, "id" | "workspace_id" | "event_types" | "format" | "test">[]> {
    const { rows } = await db.query<
      Pick<EndpointRow, "id" | "workspace_id" | "event_types" | "format" | "test">
    >(
      "SELECT id, workspace_id, event_types, format, test FROM endpoints WHERE workspace_id = ANY ($1::uuid[]) AND disabled_at IS NULL",
      [workspaceIds],
    );
    return rows;
  },

  /** Messages due after `firstDelayMs`; an event already fanned out to an endpoint makes nothing new. */
  async insertMessages(
    db: Queryable,
    messages: {
      id: string;
      endpointId: string;
      eventId: string;
      eventType: string;
      payload: string;
      /** The trace the event came in, which the message's attempts join. */
      traceparent: string | null;
    }[],
    firstDelayMs: number,
  ): Promise<number> {
    const column = <K extends keyof (typeof messages)[number]>(key: K) => messages.map((m) => m[key]);
    const { rowCount } = await db.query(
      `INSERT INTO messages (id, endpoint_id, event_id, event_type, payload, next_attempt_at, traceparent)
       SELECT m.id, m.endpoint_id, m.event_id, m.event_type, m.payload, now() + make_interval(secs => $6 / 1000.0),
              m.traceparent
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $7::text[])
              AS m (id, endpoint_id, event_id, event_type, payload, traceparent)
       ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      [
        column("id"),
        column("endpointId"),
        column("eventId"),
        column("eventType"),
        column("payload"),
        firstDelayMs,
        column("traceparent"),
      ],
    );
    return rowCount;
  },

  /**
   * Claims due messages of enabled endpoints for `leaseMs`; replicas skip each other's rows, and a
   * claim that runs out (its replica died mid-attempt) makes the message due again.
   */
  async claimDue(db: Queryable, limit: number, leaseMs: number, claimId: string): Promise<DueMessage[]> {
    const { rows } = await db.query<DueMessage>(
      `WITH claimed AS (
         UPDATE messages SET claimed_until = now() + make_interval(secs => $2 / 1000.0), claim_id = $3
          WHERE id IN (${selectDue(DUE_MESSAGES, "$1")})
         RETURNING id, claim_id, endpoint_id, event_type, payload, round_attempts, attempt_count, next_trigger, created_at,
                   traceparent)
       SELECT c.*, e.url, e.format, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at
         FROM claimed c JOIN endpoints e ON e.id = c.endpoint_id`,
      [limit, leaseMs, claimId],
    );
    return rows;
  },

  /** Makes claims of a killed process due again at once (standalone, the only replica). */
  async releaseClaims(db: Queryable): Promise<void> {
    await db.query(
      "UPDATE messages SET claimed_until = '-infinity', claim_id = NULL WHERE status = 'pending' AND claimed_until > now()",
    );
  },

  /** A test event as a finished message of the log, its one attempt made already. */
  async insertTestMessage(
    db: Queryable,
    message: { id: string; endpointId: string; eventType: string; payload: string },
    attempt: AttemptRow,
  ): Promise<void> {
    await db.query(
      `INSERT INTO messages (id, endpoint_id, event_id, event_type, payload, status, round_attempts, attempt_count,
                             test)
       SELECT $1::uuid, $2::uuid, $1::uuid, $3::text, $4::text, $5::text, 1, 1, true
        -- The endpoint may have been deleted while the test was posted.
        WHERE EXISTS (SELECT 1 FROM endpoints WHERE id = $2)`,
      [
        message.id,
        message.endpointId,
        message.eventType,
        message.payload,
        attempt.succeeded ? "succeeded" : "failed",
      ],
    );
    await store.insertAttempts(db, [attempt]);
  },

  async insertAttempts(db: Queryable, attempts: AttemptRow[]): Promise<void> {
    const column = <K extends keyof AttemptRow>(key: K) => attempts.map((a) => a[key]);
    await db.query(
      `INSERT INTO attempts (id, message_id, attempted_at, status_code, duration_ms, response_headers, response_body,
                             error, succeeded, trigger)
       SELECT a.* FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::int[], $5::float8[], $6::jsonb[],
                              $7::text[], $8::text[], $9::boolean[], $10::text[])
                       AS a (id, message_id, attempted_at, status_code, duration_ms, response_headers, response_body,
                             error, succeeded, trigger)
        -- The endpoint, and its messages with it, may have been deleted during the attempt.
        WHERE EXISTS (SELECT 1 FROM messages m WHERE m.id = a.message_id)`,
      [
        column("id"),
        column("message_id"),
        column("attempted_at"),
        column("status_code"),
        column("duration_ms"),
        attempts.map((a) => JSON.stringify(a.response_headers)),
        column("response_body"),
        column("error"),
        column("succeeded"),
        column("trigger"),
      ],
    );
  },

  /**
   * After attempts: `pending` makes the next due after `nextDelayMs`; the others end the round. A
   * result whose claim is no longer the message's (it ran out) leaves the message as it is.
   */
  async afterAttempts(
    db: Queryable,
    outcomes: {
      id: string;
      claimId: string;
      status: "succeeded" | "failed" | "pending";
      nextDelayMs: number;
    }[],
  ): Promise<void> {
    await db.query(
      `UPDATE messages m SET status = u.status, attempt_count = attempt_count + 1, round_attempts = round_attempts + 1,
              next_attempt_at = now() + make_interval(secs => u.delay / 1000.0), next_trigger = 'delivery',
              claimed_until = '-infinity', claim_id = NULL
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::float8[]) AS u (id, claim_id, status, delay)
        WHERE m.id = u.id AND m.claim_id = u.claim_id`,
      [
        outcomes.map((o) => o.id),
        outcomes.map((o) => o.claimId),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.nextDelayMs),
      ],
    );
  },

  async streaks(db: Queryable, ids: string[]): Promise<{ id: string; failing_since: Date | null }[]> {
    const { rows } = await db.query<{ id: string; failing_since: Date | null }>(
      "SELECT id, failing_since FROM endpoints WHERE id = ANY ($1::uuid[])",
      [ids],
    );
    return rows;
  },

  /** Locks the endpoints in id order, so that two replicas' batches cannot deadlock; returns their streaks. */
  async lockEndpoints(db: Queryable, ids: string[]): Promise<{ id: string; failing_since: Date | null }[]> {
    const { rows } = await db.query<{ id: string; failing_since: Date | null }>(
      "SELECT id, failing_since FROM endpoints WHERE id = ANY ($1::uuid[]) ORDER BY id FOR UPDATE",
      [[...ids].sort()],
    );
    return rows;
  },

  /** Sets or clears failing streaks; `since` null clears. */
  async setStreak(db: Queryable, id: string, since: Date | null): Promise<void> {
    await db.query("UPDATE endpoints SET failing_since = $2 WHERE id = $1", [id, since]);
  },

  async disableEndpoint(db: Queryable, id: string, reason: string): Promise<void> {
    await db.query(
      "UPDATE endpoints SET disabled_at = now(), disabled_reason = $2, updated_at = now() WHERE id = $1 AND disabled_at IS NULL",
      [id, reason],
    );
  },

  messagesPage(
    db: Queryable,
    endpointId: string,
    filter: { status: string; eventType: string },
    pageIndex: number,
    pageSize: number,
  ) {
    return selectPage<MessageRow>(
      db,
      {
        from: "messages",
        columns: MESSAGE_COLUMNS,
        where: "endpoint_id = $1 AND ($2 = '' OR status = $2) AND ($3 = '' OR event_type = $3)",
        orderBy: "id DESC",
        params: [endpointId, filter.status, filter.eventType],
        maxPageSize: 100,
      },
      pageIndex,
      pageSize,
    );
  },

  async message(
    db: Queryable,
    endpointId: string,
    id: string,
    lock = false,
  ): Promise<MessageRow | undefined> {
    const { rows } = await db.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE endpoint_id = $1 AND id = $2${lock ? " FOR UPDATE" : ""}`,
      [endpointId, id],
    );
    return rows[0];
  },

  /** The newest `perMessage` attempts of each message, newest first. */
  async attemptsOf(db: Queryable, messageIds: string[], perMessage: number): Promise<AttemptRow[]> {
    if (messageIds.length === 0) return [];
    const { rows } = await db.query<AttemptRow>(
      `SELECT id, message_id, attempted_at, status_code, duration_ms, response_headers, response_body, error,
              succeeded, trigger
         FROM (SELECT *, row_number() OVER (PARTITION BY message_id ORDER BY id DESC) AS n
                 FROM attempts WHERE message_id = ANY ($1::uuid[])) newest
        WHERE n <= $2 ORDER BY id DESC`,
      [messageIds, perMessage],
    );
    return rows;
  },

  /** Starts a new round for a message not being attempted: due now, its first attempt marked as `trigger`. */
  async reschedule(
    db: Queryable,
    endpointId: string,
    id: string,
    trigger: "retry" | "replay",
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      `UPDATE messages SET status = 'pending', round_attempts = 0, next_attempt_at = now(), next_trigger = $3,
              claim_id = NULL
        WHERE endpoint_id = $1 AND id = $2 AND claimed_until < now()`,
      [endpointId, id, trigger],
    );
    return rowCount > 0;
  },

  /** Schedules again the endpoint's messages made since the time, not in flight; returns how many. */
  async replay(db: Queryable, endpointId: string, since: Date, onlyFailed: boolean): Promise<number> {
    const { rowCount } = await db.query(
      `UPDATE messages SET status = 'pending', round_attempts = 0, next_attempt_at = now(), next_trigger = 'replay',
              claim_id = NULL
        WHERE endpoint_id = $1 AND created_at >= $2 AND claimed_until < now() AND NOT test
          AND (CASE WHEN $3 THEN status = 'failed' ELSE status <> 'pending' END)`,
      [endpointId, since, onlyFailed],
    );
    return rowCount;
  },

  /** Messages due now and waiting for an attempt (enabled endpoints, not claimed), for the queue-depth metric. */
  /**
   * The delivery queue as every job queue reports it: messages queued (waiting or due), being
   * attempted, and given up (parked until a replay), and the age of the oldest pending one.
   */
  async queueStats(db: Queryable): Promise<QueueStats> {
    const { rows } = await db.query<QueueStats>(
      `SELECT count(*) FILTER (WHERE status = 'pending' AND claimed_until <= now())::int AS queued,
              count(*) FILTER (WHERE status = 'pending' AND claimed_until > now())::int AS running,
              count(*) FILTER (WHERE status = 'failed' AND NOT test)::int AS parked,
              COALESCE(extract(epoch FROM now() - min(created_at) FILTER (WHERE status = 'pending')), 0)::float8
                AS "oldestSeconds"
         FROM messages WHERE status <> 'succeeded'`,
    );
    return rows[0] ?? { queued: 0, running: 0, parked: 0, oldestSeconds: 0 };
  },

  async dueCount(db: Queryable): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages m JOIN endpoints e ON e.id = m.endpoint_id
        WHERE m.status = 'pending' AND m.next_attempt_at <= now() AND m.claimed_until < now() AND e.disabled_at IS NULL`,
    );
    return rows[0]?.n ?? 0;
  },
};
