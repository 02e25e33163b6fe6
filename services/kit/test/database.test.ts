import pg from "pg";
import { createPostgresDatabase, type Database, ensurePostgresDatabase } from "../src/database.js";
import { EmbeddedPostgres } from "../src/embedded-postgres.js";
import { available, POSTGRES_URL, uniqueName } from "./infra.js";

describe("EmbeddedPostgres", () => {
  let embedded: EmbeddedPostgres;
  beforeAll(async () => {
    embedded = await EmbeddedPostgres.open();
  });
  afterAll(() => embedded.close());

  test("each service's handle sees only its own schema", async () => {
    const a = embedded.database("svc_a");
    const b = embedded.database("svc_b");
    await a.exec("CREATE TABLE things (name text)");
    await b.exec("CREATE TABLE things (name text)");
    await a.query("INSERT INTO things VALUES ($1)", ["from a"]);
    await b.query("INSERT INTO things VALUES ($1), ($2)", ["from b", "again b"]);
    expect((await a.query("SELECT name FROM things")).rows).toEqual([{ name: "from a" }]);
    expect((await b.query("SELECT count(*) AS n FROM things")).rows).toEqual([{ n: 2 }]);
  });

  test("interleaved work of two services never runs in the other's schema", async () => {
    const a = embedded.database("inter_a");
    const b = embedded.database("inter_b");
    await a.exec("CREATE TABLE t (v int)");
    await b.exec("CREATE TABLE t (v int)");
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).query("INSERT INTO t VALUES ($1)", [i % 2])),
    );
    expect((await a.query("SELECT DISTINCT v FROM t")).rows).toEqual([{ v: 1 }]);
    expect((await b.query("SELECT DISTINCT v FROM t")).rows).toEqual([{ v: 0 }]);
  });

  test("a transaction that throws leaves nothing behind", async () => {
    const db = embedded.database("tx");
    await db.exec("CREATE TABLE t (v int)");
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO t VALUES (1)");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect((await db.query("SELECT count(*) AS n FROM t")).rows[0]).toEqual({ n: 0 });
  });

  test("rowCount is rows returned for a query and rows affected for a change, as with pg", async () => {
    const db = embedded.database("counts");
    await db.exec("CREATE TABLE t (v int); INSERT INTO t VALUES (1), (2), (3)");
    expect((await db.query("SELECT * FROM t WHERE v > 1")).rowCount).toBe(2);
    expect((await db.query("UPDATE t SET v = v + 1")).rowCount).toBe(3);
    expect((await db.query("DELETE FROM t WHERE v = 99")).rowCount).toBe(0);
  });

  test("a long chain of statements lets the event loop turn all along, not only at its end", async () => {
    const db = embedded.database("turns");
    const turns: number[] = [];
    let chainDone = false;
    const tick = () => {
      turns.push(performance.now());
      if (!chainDone) setImmediate(tick);
    };
    const started = performance.now();
    setImmediate(tick);
    // A chain of 200 ms, however fast the machine runs one statement.
    let statements = 0;
    while (performance.now() - started < 200) {
      await db.query("SELECT 1");
      statements += 1;
    }
    chainDone = true;
    const ended = performance.now();
    const marks = [started, ...turns.filter((at) => at <= ended), ended];
    const longestGap = Math.max(...marks.slice(1).map((at, i) => at - (marks[i] as number)));
    // Without the turns the loop waits out the whole chain: the gap would be all of it. The bound is
    // a share of the chain, not milliseconds, so that a loaded machine (a GC pause, a busy core)
    // stretches both alike.
    const chain = ended - started;
    expect(statements).toBeGreaterThan(100);
    expect(turns.filter((at) => at <= ended).length).toBeGreaterThan(20);
    expect(longestGap).toBeLessThan(chain / 4);
  });

  test("values go in and come out as they do through pg", async () => {
    await expectValuesAsPg(embedded.database("values"));
  });

  test("an error carries Postgres's code and constraint, and the statements after it work", async () => {
    const db = embedded.database("errors");
    await db.exec("CREATE TABLE t (v int CONSTRAINT t_v UNIQUE)");
    const insert = "INSERT INTO t VALUES ($1)";
    await db.query(insert, [1]);
    await expect(db.query(insert, [1])).rejects.toMatchObject({ code: "23505", constraint: "t_v" });
    await expect(db.query("SELEC 1")).rejects.toMatchObject({ code: "42601" });
    await expect(db.query(insert, ["one"])).rejects.toMatchObject({ code: "22P02" });
    await expect(
      db.transaction(async (tx) => {
        await tx.query(insert, [2]);
        await tx.query(insert, [1]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    await db.query(insert, [3]);
    expect((await db.query("SELECT v FROM t ORDER BY v")).rows).toEqual([{ v: 1 }, { v: 3 }]);
  });

  test("statements past the prepared bound are closed, and run again when they come back", async () => {
    const db = embedded.database("bound");
    await db.exec("CREATE TABLE t (v int)");
    await db.query("INSERT INTO t VALUES ($1)", [7]);
    // Every text is a statement of its own: twice the bound pushes the first out.
    for (let i = 0; i < 4_000; i++) await db.query(`SELECT v + ${i} AS w FROM t`);
    const { rows } = await db.query<{ n: number }>("SELECT count(*) AS n FROM pg_prepared_statements");
    expect(rows[0]?.n).toBeLessThanOrEqual(2_000);
    expect((await db.query("SELECT v + 0 AS w FROM t")).rows).toEqual([{ w: 7 }]);
    expect((await db.query("INSERT INTO t VALUES ($1)", [8])).rowCount).toBe(1);
  });
});

/** The same values through either adapter read back the same: what the stores rely on in both modes. */
async function expectValuesAsPg(db: Database): Promise<void> {
  await db.exec(
    "CREATE TABLE IF NOT EXISTS vals (id uuid PRIMARY KEY, ids uuid[], doc jsonb, at timestamptz, data bytea, flag boolean, note text, n int8)",
  );
  await db.exec("DELETE FROM vals");
  const row = {
    id: "0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b",
    ids: ["0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6c", "0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6d"],
    doc: [{ name: "Signer", order: 1, note: 'a "quoted" \\ value, ünïcode' }],
    at: new Date("2026-11-24T10:11:12.345Z"),
    data: Buffer.from([0, 1, 2, 255]),
    flag: true,
    note: null,
    n: 2 ** 40,
  };
  const inserted = await db.query("INSERT INTO vals VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *", [
    row.id,
    row.ids,
    JSON.stringify(row.doc),
    row.at,
    row.data,
    row.flag,
    row.note,
    row.n,
  ]);
  expect(inserted).toEqual({ rows: [row], rowCount: 1 });
  const counted = await db.query("SELECT count(*) AS n FROM vals WHERE id = ANY($1::uuid[])", [[row.id]]);
  expect(counted.rows).toEqual([{ n: 1 }]);
}

const postgres = await available("Postgres", POSTGRES_URL);

(postgres ? describe : describe.skip)("Postgres adapter", () => {
  const name = uniqueName("kit_test_");
  const url = Object.assign(new URL(POSTGRES_URL), { pathname: `/${name}` }).toString();

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  test("creates the service's database when missing, even when replicas race to do it", async () => {
    await Promise.all([
      ensurePostgresDatabase(url),
      ensurePostgresDatabase(url),
      ensurePostgresDatabase(url),
    ]);
    await ensurePostgresDatabase(url);
    const db = createPostgresDatabase(url);
    try {
      expect((await db.query("SELECT current_database() AS db")).rows).toEqual([{ db: name }]);
    } finally {
      await db.close();
    }
  });

  test("values go in and come out as they do through the embedded adapter", async () => {
    await ensurePostgresDatabase(url);
    const db = createPostgresDatabase(url);
    try {
      await expectValuesAsPg(db);
    } finally {
      await db.close();
    }
  });

  test("transactions commit or roll back, and counts come back as numbers", async () => {
    const db = createPostgresDatabase(url);
    try {
      await db.exec("CREATE TABLE IF NOT EXISTS t (v int)");
      await db.transaction(async (tx) => {
        await tx.query("INSERT INTO t VALUES (1), (2)");
      });
      await db
        .transaction(async (tx) => {
          await tx.query("INSERT INTO t VALUES (3)");
          throw new Error("no");
        })
        .catch(() => {});
      expect((await db.query("SELECT count(*) AS n FROM t")).rows).toEqual([{ n: 2 }]);
    } finally {
      await db.close();
    }
  });

  test("a connection cut by the server mid-transaction fails the transaction, not the process", async () => {
    const db = createPostgresDatabase(url);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const failure = await db
        .transaction(async (tx) => {
          const { rows } = await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
          await admin.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
          // Idle in our code while the server cuts it, as a transaction waiting on another service is.
          await new Promise((resolve) => setTimeout(resolve, 200));
          await tx.query("SELECT 1");
        })
        .then(
          () => undefined,
          (err: unknown) => err,
        );
      expect(failure).toBeInstanceOf(Error);
      // The pool lends a working connection afterwards.
      expect((await db.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await db.close();
    }
  });
});
