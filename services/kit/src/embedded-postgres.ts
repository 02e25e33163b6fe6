/**
 * The Database port on one embedded PGlite (one embedded Postgres, about 260 MiB) shared by every
 * service of the standalone process, each confined to a schema of its own.
 *
 * Statements go to PGlite as node-postgres would send them over a socket — values prepared by pg's
 * `prepareValue`, rows read by the pg adapter's type parsers, so both modes see the same values —
 * but through PGlite's raw protocol entry, one call per statement: each distinct statement is parsed
 * once per schema as a named prepared statement, then bound, described and executed with a Sync in
 * the same message. PGlite's own `query` made six calls into WebAssembly per statement, parsed and
 * planned it every time, and cost about 2.7 times as much.
 */
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { PGlite } from "@electric-sql/pglite";
import pgUtils from "pg/lib/utils.js";
import type {
  BackendMessage,
  CommandCompleteMessage,
  DataRowMessage,
  RowDescriptionMessage,
} from "pg-protocol/dist/messages.js";
import { Parser } from "pg-protocol/dist/parser.js";
import { serialize } from "pg-protocol/dist/serializer.js";
import {
  type Database,
  pgTypes,
  type Queryable,
  type QueryResult,
  quoteIdentifier,
  tracedDatabase,
} from "./database.js";
import { openEmbeddedCluster, openMemoryCluster } from "./embedded-cluster.js";

/**
 * Prepared statements kept per session. The statements of our stores are a fixed set of texts, a
 * few hundred over all schemas; the bound only matters for text built with a varying number of
 * placeholders, whose oldest statements are closed again.
 */
const MAX_PREPARED = 2_000;

/** Rows affected, from the command tag ("INSERT 0 3", "UPDATE 2", "SELECT 5"), as pg reads it. */
function rowCountOf(commandTag: string): number {
  const count = /(\d+)$/.exec(commandTag);
  return count ? Number(count[1]) : 0;
}

function rowOf(description: RowDescriptionMessage, data: DataRowMessage): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  description.fields.forEach((field, i) => {
    const text = data.fields[i];
    row[field.name] =
      text === null || text === undefined ? null : pgTypes.getTypeParser(field.dataTypeID, "text")(text);
  });
  return row;
}

/** One session of the wire protocol with PGlite: statements prepared once, results read as pg reads them. */
class WireSession {
  /** Statement names by schema and text. */
  private readonly prepared = new Map<string, string>();
  private named = 0;

  constructor(private readonly pglite: PGlite) {}

  async query<R>(schema: string, sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
    const key = `${schema}\u0000${sql}`;
    const known = this.prepared.get(key);
    const name = known ?? `s${++this.named}`;
    const messages: Buffer[] = [];
    if (!known) {
      messages.push(...this.evictions(), serialize.parse({ name, text: sql, types: [] }));
    }
    messages.push(
      serialize.bind({ statement: name, values: params.map((value) => pgUtils.prepareValue(value)) }),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
      serialize.sync(),
    );
    const replies = await this.exchange(Buffer.concat(messages));
    if (!known && replies.some((reply) => reply.name === "parseComplete")) this.prepared.set(key, name);
    let description: RowDescriptionMessage | undefined;
    const rows: R[] = [];
    let rowCount = 0;
    for (const reply of replies) {
      if (reply.name === "rowDescription") description = reply as RowDescriptionMessage;
      else if (reply.name === "dataRow" && description)
        rows.push(rowOf(description, reply as DataRowMessage) as R);
      else if (reply.name === "commandComplete")
        rowCount = rowCountOf((reply as CommandCompleteMessage).text);
    }
    return { rows, rowCount };
  }

  /** A script of statements without parameters, in the simple protocol (migrations, BEGIN, COMMIT). */
  async exec(sql: string): Promise<void> {
    await this.exchange(serialize.query(sql));
  }

  /** Sends messages that end in a Sync and reads every reply up to ReadyForQuery; throws the first error. */
  private async exchange(message: Buffer): Promise<BackendMessage[]> {
    const replies: BackendMessage[] = [];
    const parser = new Parser();
    // The stream form hands over the answer's bytes as they are written (a view into PGlite's memory,
    // copied here) without PGlite parsing every message itself first, as its other entries do.
    await this.pglite.execProtocolRawStream(message, {
      syncToFs: true,
      onRawData: (bytes) => parser.parse(Buffer.from(bytes), (reply) => replies.push(reply)),
    });
    const failure = replies.find((reply) => reply.name === "error");
    if (failure) throw failure;
    return replies;
  }

  /** Close messages for the oldest statements once too many are prepared. */
  private evictions(): Buffer[] {
    const closes: Buffer[] = [];
    for (const [key, name] of this.prepared) {
      if (this.prepared.size < MAX_PREPARED) break;
      this.prepared.delete(key);
      closes.push(serialize.close({ type: "S", name }));
    }
    return closes;
  }
}

/**
 * PGlite has a single connection, so the schema switch and the work it is for must not interleave
 * with another service's: a lock serialises them, and the search path is set only when the schema
 * changes.
 */
export class EmbeddedPostgres {
  private readonly session: WireSession;
  private currentSchema = "";
  /** Schemas known to exist: switching to one is then a single statement. */
  private readonly schemas = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly pglite: PGlite) {
    this.session = new WireSession(pglite);
  }

  /** dataDir undefined keeps everything in memory (tests). */
  static async open(dataDir?: string): Promise<EmbeddedPostgres> {
    return new EmbeddedPostgres(await (dataDir ? openEmbeddedCluster(dataDir) : openMemoryCluster()));
  }

  database(schema: string): Database {
    const session = this.session;
    const inSchema: Queryable = {
      query: (sql, params) => session.query(schema, sql, params),
      exec: (sql) => session.exec(sql),
    };
    const database: Database = {
      query: (sql, params) => this.exclusive(schema, () => inSchema.query(sql, params)),
      exec: (sql) => this.exclusive(schema, () => inSchema.exec(sql)),
      transaction: (fn) =>
        this.exclusive(schema, async () => {
          await session.exec("BEGIN");
          try {
            const result = await fn(inSchema);
            await session.exec("COMMIT");
            return result;
          } catch (err) {
            await session.exec("ROLLBACK").catch(() => {});
            throw err;
          }
        }),
      // The PGlite outlives each service's handle; EmbeddedPostgres.close ends it.
      close: async () => {},
    };
    return tracedDatabase(database, schema);
  }

  close(): Promise<void> {
    return this.pglite.close();
  }

  private exclusive<T>(schema: string, work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      // PGlite runs a statement synchronously and resolves its promise without a turn of the event
      // loop, so without this a request's whole chain of statements was one long task: sockets were
      // read between requests, not between statements, and under load some callers waited seconds
      // while others passed. A turn before each statement lets the event loop read every socket.
      await yieldToEventLoop();
      if (this.currentSchema !== schema) {
        if (!this.schemas.has(schema)) {
          await this.session.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
          this.schemas.add(schema);
        }
        await this.session.exec(`SET search_path TO ${quoteIdentifier(schema)}`);
        this.currentSchema = schema;
      }
      return work();
    });
    this.queue = result.catch(() => {});
    return result;
  }
}
