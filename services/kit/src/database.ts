/**
 * The Database port: parameterised SQL, transactions and multi-statement scripts, with two
 * adapters — PostgreSQL through `pg` (distributed mode, here), and one embedded PGlite shared by
 * every service of the standalone process (embedded-postgres.ts).
 */
import pg from "pg";
import { inSpan, inTrace, SpanKind, tracingEnabled } from "./tracing.js";

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** int8 (counts, sums) as a JavaScript number on both adapters; our counts stay far below 2^53. */
const INT8_OID = 20;
export const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The statement's first word, as OpenTelemetry names a database span: "SELECT", "INSERT". */
function operationOf(sql: string): string {
  return /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? "SQL";
}

function statementInSpan<T>(namespace: string, sql: string, run: () => Promise<T>): Promise<T> {
  const operation = operationOf(sql);
  return inSpan(
    `${operation} ${namespace}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        "db.system.name": "postgresql",
        "db.namespace": namespace,
        "db.operation.name": operation,
        // Statements are parameterised: their text holds no value from outside.
        "db.query.text": sql.length > 2000 ? `${sql.slice(0, 2000)}…` : sql,
      },
    },
    run,
  );
}

/**
 * The database with a span for each statement made within a trace; the database itself where this
 * process does not trace, so that not tracing costs nothing. `namespace` names the service's
 * database (or schema, in standalone).
 */
export function tracedDatabase(db: Database, namespace: string): Database {
  if (!tracingEnabled()) return db;
  // Outside a trace (polls, sweeps) a statement runs as it is, its span's attributes never built.
  const traced = (q: Queryable): Queryable => ({
    query: <R>(sql: string, params?: readonly unknown[]) =>
      inTrace() ? statementInSpan(namespace, sql, () => q.query<R>(sql, params)) : q.query<R>(sql, params),
    exec: (sql) => (inTrace() ? statementInSpan(namespace, sql, () => q.exec(sql)) : q.exec(sql)),
  });
  return {
    ...traced(db),
    transaction: (fn) => db.transaction((tx) => fn(traced(tx))),
    close: () => db.close(),
  };
}

export function createPostgresDatabase(connectionString: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, types: pgTypes });
  // An idle client's connection error must not crash the process; the pool replaces the client.
  pool.on("error", () => {});
  const wrap = (client: pg.Pool | pg.PoolClient): Queryable => ({
    async query<R>(sql: string, params?: readonly unknown[]) {
      const result = await client.query(sql, params as unknown[] | undefined);
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });
  const database: Database = {
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      // A checked-out connection the server cuts (a restart, pg_terminate_backend) emits 'error'
      // on the client, which would end the process unheard; the call fails instead, and the pool
      // throws the connection away rather than lend it again.
      let lost: Error | undefined;
      const onLost = (err: Error) => {
        lost = err;
      };
      client.on("error", onLost);
      try {
        await client.query("BEGIN");
        const result = await fn(wrap(client));
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.off("error", onLost);
        client.release(lost);
      }
    },
    close: () => pool.end(),
  };
  return tracedDatabase(
    database,
    decodeURIComponent(new URL(connectionString).pathname.slice(1)) || "postgres",
  );
}

/** Creates the database named in the URL when it does not exist yet (one database per service). */
export async function ensurePostgresDatabase(connectionString: string): Promise<void> {
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name) throw new Error("the database URL names no database");
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return;
    await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`).catch((err: { code?: string }) => {
      // Another replica created it between our check and our CREATE: Postgres says either
      // "duplicate_database" or, when both CREATEs ran at once, "unique_violation" on pg_database.
      if (err.code !== "42P04" && err.code !== "23505") throw err;
    });
  } finally {
    await client.end();
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Whether `err` is PostgreSQL refusing a second row under the unique index `constraint`. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const pgError = err as { code?: unknown; constraint?: unknown };
  return pgError.code === "23505" && pgError.constraint === constraint;
}
