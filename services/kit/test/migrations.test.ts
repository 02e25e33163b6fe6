import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createPostgresDatabase, ensurePostgresDatabase } from "../src/database.js";
import { EmbeddedPostgres } from "../src/embedded-postgres.js";
import { migrate, outboxTrack } from "../src/migrations.js";
import { available, POSTGRES_URL, uniqueName } from "./infra.js";

let embedded: EmbeddedPostgres;
beforeAll(async () => {
  embedded = await EmbeddedPostgres.open();
});
afterAll(() => embedded.close());

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "migrations-"));
  for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
  return dir;
}

test("files apply once, in number order, and a second run applies nothing", async () => {
  const db = embedded.database("m1");
  const dir = await folder({
    "002_add.sql": "ALTER TABLE t ADD COLUMN b int;",
    "001_init.sql": "CREATE TABLE t (a int);",
    "README.md": "not a migration",
  });
  expect(await migrate(db, [{ name: "svc", dir }])).toEqual(["svc/001_init.sql", "svc/002_add.sql"]);
  expect(await migrate(db, [{ name: "svc", dir }])).toEqual([]);
  await db.query("INSERT INTO t (a, b) VALUES (1, 2)");
});

test("a new file is applied on the next start, tracks are independent", async () => {
  const db = embedded.database("m2");
  const dir = await folder({ "001_init.sql": "CREATE TABLE t (a int);" });
  await migrate(db, [outboxTrack, { name: "svc", dir }]);
  await writeFile(join(dir, "002_more.sql"), "CREATE TABLE u (a int);");
  expect(await migrate(db, [outboxTrack, { name: "svc", dir }])).toEqual(["svc/002_more.sql"]);
  expect((await db.query("SELECT count(*) AS n FROM outbox")).rows).toEqual([{ n: 0 }]);
});

test("a failing migration leaves no trace and stops the start", async () => {
  const db = embedded.database("m3");
  const dir = await folder({ "001_broken.sql": "CREATE TABLE ok (a int); CREATE TABLE broken (" });
  await expect(migrate(db, [{ name: "svc", dir }])).rejects.toThrow();
  expect((await db.query("SELECT to_regclass('ok') AS t")).rows).toEqual([{ t: null }]);
});

test("two files with one number are refused", async () => {
  const dir = await folder({ "001_a.sql": "SELECT 1;", "001_b.sql": "SELECT 1;" });
  await expect(migrate(embedded.database("m4"), [{ name: "svc", dir }])).rejects.toThrow(/share a number/);
});

test("replicas starting at once on PostgreSQL apply each file once between them", async () => {
  if (!(await available("Postgres", POSTGRES_URL))) return;
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${uniqueName("migrate_")}`;
  await ensurePostgresDatabase(url.toString());
  const dir = await folder({
    // Neither statement may run twice: the table exists, the row would be counted twice.
    "001_init.sql": "CREATE TABLE applied (n int); INSERT INTO applied VALUES (1);",
    "002_more.sql": "ALTER TABLE applied ADD COLUMN m int; INSERT INTO applied VALUES (2, 2);",
  });
  const replicas = Array.from({ length: 4 }, () => createPostgresDatabase(url.toString()));
  try {
    const applied = await Promise.all(replicas.map((db) => migrate(db, [{ name: "svc", dir }])));
    expect(applied.flat().sort()).toEqual(["svc/001_init.sql", "svc/002_more.sql"]);
    const first = replicas[0] as (typeof replicas)[number];
    expect((await first.query("SELECT count(*) AS n FROM applied")).rows).toEqual([{ n: 2 }]);
  } finally {
    await Promise.all(replicas.map((db) => db.close()));
    const admin = new URL(POSTGRES_URL);
    const pgClient = new pg.Client({ connectionString: admin.toString() });
    await pgClient.connect();
    await pgClient.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
    await pgClient.end();
  }
});
