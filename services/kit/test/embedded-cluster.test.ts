import { existsSync } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { openEmbeddedCluster, openMemoryCluster, prepareClusterTemplate } from "../src/embedded-cluster.js";

describe("embedded clusters made from the install's template", () => {
  let dir: string;
  const open: PGlite[] = [];
  const opened = async (db: Promise<PGlite>) => {
    open.push(await db);
    return open.at(-1) as PGlite;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "countersign-cluster-test-"));
  });
  afterEach(async () => {
    for (const db of open.splice(0)) if (!db.closed) await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("the first new data directory leaves a template; the next one starts from it pristine, and an existing one keeps its data", async () => {
    const template = join(dir, "template");
    const first = await opened(openEmbeddedCluster(join(dir, "first"), template));
    expect(existsSync(join(template, "PG_VERSION"))).toBe(true);
    await first.exec("CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)");
    await first.close();

    const second = await opened(openEmbeddedCluster(join(dir, "second"), template));
    expect((await second.query("SELECT to_regclass('kept') AS t")).rows).toEqual([{ t: null }]);
    // The copy keeps the modes the cluster was made with.
    for (const path of ["", "base", "PG_VERSION", "postgresql.auto.conf"]) {
      expect((await stat(join(dir, "second", path))).mode & 0o777).toBe(
        (await stat(join(template, path))).mode & 0o777,
      );
    }
    await second.exec("CREATE TABLE mine (v int)");

    const reopened = await opened(openEmbeddedCluster(join(dir, "first"), template));
    expect((await reopened.query("SELECT v FROM kept")).rows).toEqual([{ v: 7 }]);
  });

  test("a damaged template is replaced by a good one, and the start it held up still gets its cluster", async () => {
    const template = join(dir, "template");
    await writeFile(template, "not a cluster");
    const db = await opened(openEmbeddedCluster(join(dir, "data"), template));
    expect((await db.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    expect(existsSync(join(template, "PG_VERSION"))).toBe(true);
  });

  test("preparing makes the template once, and a new data directory starts from it", async () => {
    const template = join(dir, "prepared", "template");
    await prepareClusterTemplate(template);
    const made = await stat(join(template, "PG_VERSION"));
    await prepareClusterTemplate(template);
    expect((await stat(join(template, "PG_VERSION"))).mtimeMs).toBe(made.mtimeMs);
    const db = await opened(openEmbeddedCluster(join(dir, "data"), template));
    expect((await db.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    expect(existsSync(join(dir, "data", "PG_VERSION"))).toBe(true);
  });

  test("every cluster runs with small shared buffers: made anew, from the template, or made before the setting", async () => {
    const template = join(dir, "template");
    const sharedBuffers = async (db: PGlite) =>
      (await db.query<{ v: string }>("SELECT current_setting('shared_buffers') AS v")).rows[0]?.v;
    const made = await opened(openEmbeddedCluster(join(dir, "made"), template));
    expect(await sharedBuffers(made)).toBe("16MB");
    const fromTemplate = await opened(openEmbeddedCluster(join(dir, "from-template"), template));
    expect(await sharedBuffers(fromTemplate)).toBe("16MB");

    const older = await PGlite.create(join(dir, "older"));
    expect(await sharedBuffers(older)).toBe("128MB");
    await older.close();
    expect(await sharedBuffers(await opened(openEmbeddedCluster(join(dir, "older"), template)))).toBe("16MB");
  });

  test("a cluster in memory leaves an image; the next is loaded from it pristine, with small shared buffers", async () => {
    const image = join(dir, "image.tar");
    const first = await opened(openMemoryCluster(image));
    expect((await stat(image)).size).toBeGreaterThan(1_000_000);
    await first.exec("CREATE TABLE kept (v int)");
    const made = (await stat(image)).mtimeMs;

    const second = await opened(openMemoryCluster(image));
    expect((await second.query("SELECT to_regclass('kept') AS t")).rows).toEqual([{ t: null }]);
    expect((await second.query("SELECT current_setting('shared_buffers') AS v")).rows).toEqual([
      { v: "16MB" },
    ]);
    expect((await stat(image)).mtimeMs).toBe(made);
  });

  test("a damaged image still gives its open a cluster, and is made again", async () => {
    const image = join(dir, "image.tar");
    await writeFile(image, "not a cluster's image");
    const db = await opened(openMemoryCluster(image));
    expect((await db.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    await opened(openMemoryCluster(image));
    expect((await stat(image)).size).toBeGreaterThan(1_000_000);
  });
});
