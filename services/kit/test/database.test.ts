import pg from "pg";
import {
  createPostgresDatabase,
  type Database,
  EmbeddedPostgres,
  ensurePostgresDatabase,
  quoteIdentifier,
} from "../src/database.js";
import { available, POSTGRES_URL, postgresUrl, uniqueName } from "./infra.js";

/** Fails instead of hanging when a pool has lost its connections. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** What both adapters promise, run against each. */
function behavesAsADatabase(open: () => Database) {
  test("a transaction is committed when its function resolves and rolled back when it throws", async () => {
    const db = open();
    await db.exec("CREATE TABLE tx_t (v int)");
    expect(
      await db.transaction(async (tx) => (await tx.query("INSERT INTO tx_t VALUES (1), (2)")).rowCount),
    ).toBe(2);
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO tx_t VALUES (3)");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await db.query("SELECT v FROM tx_t ORDER BY v")).rows).toEqual([{ v: 1 }, { v: 2 }]);
  });

  test("int8 results such as count(*) and max() of a bigint come back as numbers", async () => {
    const db = open();
    await db.exec("CREATE TABLE int8_t (v bigint); INSERT INTO int8_t VALUES (40), (2)");
    const { rows } = await db.query<{ n: unknown; biggest: unknown }>(
      "SELECT count(*) AS n, max(v) AS biggest FROM int8_t",
    );
    expect(rows).toEqual([{ n: 2, biggest: 40 }]);
  });

  test("rowCount is rows returned for a query and rows affected for a change", async () => {
    const db = open();
    await db.exec("CREATE TABLE counts_t (v int); INSERT INTO counts_t VALUES (1), (2), (3)");
    expect((await db.query("SELECT * FROM counts_t WHERE v > $1", [1])).rowCount).toBe(2);
    expect((await db.query("UPDATE counts_t SET v = v + 1")).rowCount).toBe(3);
    expect((await db.query("DELETE FROM counts_t WHERE v = 99")).rowCount).toBe(0);
  });

  test("a failed statement leaves the database usable", async () => {
    const db = open();
    await expect(db.query("SELECT * FROM no_such_table")).rejects.toThrow(/no_such_table/);
    await expect(db.transaction((tx) => tx.query("SELEKT 1"))).rejects.toThrow();
    expect((await within(5000, db.query("SELECT 1 AS one"))).rows).toEqual([{ one: 1 }]);
  });
}

describe("EmbeddedPostgres (PGlite in memory)", () => {
  let embedded: EmbeddedPostgres;
  beforeAll(async () => {
    embedded = await EmbeddedPostgres.open();
  });
  afterAll(() => embedded.close());

  behavesAsADatabase(() => embedded.database(uniqueName("svc_")));

  test("a table of one name holds different rows in each service's schema", async () => {
    const a = embedded.database("svc_a");
    const b = embedded.database("svc_b");
    await a.exec("CREATE TABLE things (name text)");
    await b.exec("CREATE TABLE things (name text)");
    await a.query("INSERT INTO things VALUES ($1)", ["from a"]);
    await b.query("INSERT INTO things VALUES ($1), ($2)", ["from b", "again b"]);
    expect((await a.query("SELECT name FROM things")).rows).toEqual([{ name: "from a" }]);
    expect((await b.query("SELECT name FROM things ORDER BY name")).rows).toEqual([
      { name: "again b" },
      { name: "from b" },
    ]);
  });

  test("interleaved work of two services, transactions included, never runs in the other's schema", async () => {
    const a = embedded.database("inter_a");
    const b = embedded.database("inter_b");
    await a.exec("CREATE TABLE t (v int)");
    await b.exec("CREATE TABLE t (v int)");
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const [db, v] = i % 2 ? [a, 1] : [b, 0];
        return i % 3
          ? db.query("INSERT INTO t VALUES ($1)", [v])
          : db.transaction(async (tx) => {
              await tx.query("INSERT INTO t VALUES ($1)", [v]);
              await new Promise((resolve) => setTimeout(resolve, 1));
              await tx.query("INSERT INTO t VALUES ($1)", [v]);
            });
      }),
    );
    expect((await a.query("SELECT v, count(*) AS n FROM t GROUP BY v")).rows).toEqual([{ v: 1, n: 27 }]);
    expect((await b.query("SELECT v, count(*) AS n FROM t GROUP BY v")).rows).toEqual([{ v: 0, n: 27 }]);
  });
});

const postgres = await available("Postgres", POSTGRES_URL);

(postgres ? describe : describe.skip)("Postgres adapter", () => {
  const name = uniqueName("kit_test_");
  const url = postgresUrl(name);
  const pools: Database[] = [];
  const open = (options?: { max?: number }) => {
    const db = createPostgresDatabase(url, options);
    pools.push(db);
    return db;
  };

  beforeAll(() => ensurePostgresDatabase(url));

  afterAll(async () => {
    await Promise.all(pools.map((db) => db.close()));
    const admin = new pg.Client({ connectionString: postgresUrl("postgres") });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  });

  test("ensurePostgresDatabase creates a missing database once, even when replicas race to do it", async () => {
    const fresh = uniqueName("kit_test_race_");
    try {
      await Promise.all(Array.from({ length: 4 }, () => ensurePostgresDatabase(postgresUrl(fresh))));
      await ensurePostgresDatabase(postgresUrl(fresh));
      const db = createPostgresDatabase(postgresUrl(fresh));
      try {
        expect((await db.query("SELECT current_database() AS db")).rows).toEqual([{ db: fresh }]);
      } finally {
        await db.close();
      }
    } finally {
      const admin = new pg.Client({ connectionString: postgresUrl("postgres") });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(fresh)} WITH (FORCE)`);
      await admin.end();
    }
  });

  test("ensurePostgresDatabase refuses a URL that names no database", async () => {
    await expect(ensurePostgresDatabase("postgres://postgres@127.0.0.1:5432/")).rejects.toThrow(
      /names no database/,
    );
  });

  behavesAsADatabase(() => open());

  test("a transaction gives its connection back to the pool whether it commits or fails", async () => {
    const db = open({ max: 1 });
    await db.transaction(async (tx) => tx.query("SELECT 1"));
    await db.transaction(async () => Promise.reject(new Error("fails"))).catch(() => {});
    await db.transaction(async (tx) => tx.query("SELEKT")).catch(() => {});
    expect((await within(5000, db.query("SELECT 2 AS two"))).rows).toEqual([{ two: 2 }]);
  });
});
