import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import {
  createPostgresDatabase,
  EmbeddedPostgres,
  ensurePostgresDatabase,
  quoteIdentifier,
} from "../src/database.js";
import { migrate, outboxTrack } from "../src/migrations.js";
import { available, POSTGRES_URL, postgresUrl, temporaryFolder, uniqueName } from "./infra.js";

let embedded: EmbeddedPostgres;
const folders: (() => Promise<void>)[] = [];

beforeAll(async () => {
  embedded = await EmbeddedPostgres.open();
});
afterAll(async () => {
  await embedded.close();
  await Promise.all(folders.map((remove) => remove()));
});

/** A temporary migrations folder holding these files. */
async function folder(files: Record<string, string>): Promise<string> {
  const { dir, remove } = await temporaryFolder("migrations");
  folders.push(remove);
  for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
  return dir;
}

test("files apply in number order, not name order, each once; a second run applies nothing", async () => {
  const db = embedded.database(uniqueName("m_"));
  const dir = await folder({
    "0100_add_column.sql": "ALTER TABLE t ADD COLUMN b int;",
    "099_create.sql": "CREATE TABLE t (a int);",
    "README.md": "not a migration",
    "101_Bad-Name.sql": "this is not SQL and must not be read",
  });
  expect(await migrate(db, [{ name: "svc", dir }])).toEqual([
    "svc/099_create.sql",
    "svc/0100_add_column.sql",
  ]);
  expect(await migrate(db, [{ name: "svc", dir }])).toEqual([]);
  await db.query("INSERT INTO t (a, b) VALUES (1, 2)");
  expect(
    (await db.query("SELECT track, version, name FROM schema_migrations ORDER BY version")).rows,
  ).toEqual([
    { track: "svc", version: 99, name: "099_create.sql" },
    { track: "svc", version: 100, name: "0100_add_column.sql" },
  ]);
});

test("a file added later is applied on the next run, and only it", async () => {
  const db = embedded.database(uniqueName("m_"));
  const dir = await folder({ "001_init.sql": "CREATE TABLE t (a int);" });
  await migrate(db, [{ name: "svc", dir }]);
  await writeFile(join(dir, "002_more.sql"), "CREATE TABLE u (a int);");
  expect(await migrate(db, [{ name: "svc", dir }])).toEqual(["svc/002_more.sql"]);
});

test("two tracks keep their own numbers: both apply their 001, in the order the tracks are given", async () => {
  const db = embedded.database(uniqueName("m_"));
  const service = await folder({ "001_init.sql": "CREATE TABLE events_seen (outbox_row uuid);" });
  expect(await migrate(db, [outboxTrack, { name: "svc", dir: service }])).toEqual([
    "kit.outbox/001_outbox.sql",
    "svc/001_init.sql",
  ]);
  expect((await db.query("SELECT count(*) AS n FROM outbox")).rows).toEqual([{ n: 0 }]);
  expect(await migrate(db, [outboxTrack, { name: "svc", dir: service }])).toEqual([]);
});

test("a failing file leaves no trace, is not recorded, and stops the run before later files", async () => {
  const db = embedded.database(uniqueName("m_"));
  const dir = await folder({
    "001_broken.sql": "CREATE TABLE half (a int); CREATE TABLE broken (",
    "002_after.sql": "CREATE TABLE after_broken (a int);",
  });
  await expect(migrate(db, [{ name: "svc", dir }])).rejects.toThrow();
  expect(
    (await db.query("SELECT to_regclass('half') AS half, to_regclass('after_broken') AS after")).rows,
  ).toEqual([{ half: null, after: null }]);
  expect((await db.query("SELECT count(*) AS n FROM schema_migrations")).rows).toEqual([{ n: 0 }]);
});

test("two files with one number are refused before anything is applied", async () => {
  const db = embedded.database(uniqueName("m_"));
  const dir = await folder({
    "001_a.sql": "CREATE TABLE a (x int);",
    "001_b.sql": "CREATE TABLE b (x int);",
  });
  await expect(migrate(db, [{ name: "svc", dir }])).rejects.toThrow(/share a number/);
  expect((await db.query("SELECT to_regclass('a') AS a, to_regclass('b') AS b")).rows).toEqual([
    { a: null, b: null },
  ]);
});

const postgres = await available("Postgres", POSTGRES_URL);

(postgres ? test : test.skip)(
  "replicas migrating one new Postgres database at once all succeed, and each file is applied once",
  async () => {
    const name = uniqueName("kit_test_migrate_");
    const url = postgresUrl(name);
    const dir = await folder({ "001_init.sql": "CREATE TABLE t (a int);" });
    await ensurePostgresDatabase(url);
    const replicas = Array.from({ length: 4 }, () => createPostgresDatabase(url, { max: 2 }));
    try {
      const applied = await Promise.all(
        replicas.map((db) => migrate(db, [outboxTrack, { name: "svc", dir }])),
      );
      expect(applied.flat().sort()).toEqual(["kit.outbox/001_outbox.sql", "svc/001_init.sql"]);
    } finally {
      await Promise.all(replicas.map((db) => db.close()));
      const admin = new pg.Client({ connectionString: postgresUrl("postgres") });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
      await admin.end();
    }
  },
);
