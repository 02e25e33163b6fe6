/**
 * The Database port: parameterised SQL, transactions and multi-statement scripts, with two
 * adapters — PostgreSQL through `pg` (distributed mode), and one embedded PGlite shared by every
 * service of the standalone process, where each service is confined to a schema of its own.
 */
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { openEmbeddedCluster } from "./embedded-cluster.js";

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
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

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
  return {
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

/**
 * One PGlite (one embedded Postgres, about 260 MiB) for the whole standalone process. PGlite has a
 * single connection, so the schema switch and the work it is for must not interleave with another
 * service's: a lock serialises them, and the search path is set only when the schema changes.
 */
export class EmbeddedPostgres {
  private currentSchema = "";
  /** Schemas known to exist: switching to one is then a single statement. */
  private readonly schemas = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly pglite: PGlite) {}

  /** dataDir undefined keeps everything in memory (tests). */
  static async open(dataDir?: string): Promise<EmbeddedPostgres> {
    return new EmbeddedPostgres(await (dataDir ? openEmbeddedCluster(dataDir) : PGlite.create()));
  }

  database(schema: string): Database {
    const run = <T>(work: (db: PGlite) => Promise<T>) => this.exclusive(schema, work);
    const onConnection = (db: Pick<PGlite, "query" | "exec">): Queryable => ({
      async query<R>(sql: string, params?: readonly unknown[]) {
        const result = await db.query<R>(sql, params as unknown[] | undefined);
        // Like pg's rowCount: rows returned for a statement that returns rows, else rows affected.
        return {
          rows: result.rows,
          rowCount: result.fields.length > 0 ? result.rows.length : (result.affectedRows ?? 0),
        };
      },
      async exec(sql: string) {
        await db.exec(sql);
      },
    });
    return {
      query: (sql, params) => run((db) => onConnection(db).query(sql, params)),
      exec: (sql) => run((db) => onConnection(db).exec(sql)),
      transaction: (fn) => run((db) => db.transaction((tx) => fn(onConnection(tx)))),
      // The PGlite outlives each service's handle; EmbeddedPostgres.close ends it.
      close: async () => {},
    };
  }

  close(): Promise<void> {
    return this.pglite.close();
  }

  private exclusive<T>(schema: string, work: (db: PGlite) => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      // PGlite runs a statement synchronously and resolves its promise without a turn of the event
      // loop, so without this a request's whole chain of statements was one long task: sockets were
      // read between requests, not between statements, and under load some callers waited seconds
      // while others passed. A turn before each statement lets the event loop read every socket.
      await yieldToEventLoop();
      if (this.currentSchema !== schema) {
        if (!this.schemas.has(schema)) {
          await this.pglite.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
          this.schemas.add(schema);
        }
        await this.pglite.exec(`SET search_path TO ${quoteIdentifier(schema)}`);
        this.currentSchema = schema;
      }
      return work(this.pglite);
    });
    this.queue = result.catch(() => {});
    return result;
  }
}
