/**
 * A new embedded Postgres cluster costs PGlite's initdb: about 4.5 s of WebAssembly on a two-core
 * machine, most of a first start. Every new cluster of one PGlite version is alike until something
 * is written to it, so the first one made on an install is kept as a template (a tar of the pristine
 * data directory, about 40 MB, in `node_modules/.cache`) and later new data directories unpack it
 * instead, in about 1 s.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";

/**
 * Postgres's defaults are for a server with a machine of its own: 128 MB of shared buffers were half
 * the standalone process's resident memory. 16 MB hold a small deployment's working set; the rest
 * is read through the operating system's page cache.
 */
const SHARED_BUFFERS = "16MB";

/** Opens the cluster in `dataDir`, making it (from the template where there is one) if there is none. */
export async function openEmbeddedCluster(dataDir: string, template?: string): Promise<PGlite> {
  if (!(await isEmpty(dataDir))) return withSettings(await PGlite.create(dataDir), dataDir);
  template ??= await installTemplatePath();
  const tar = await readFile(template).catch(() => undefined);
  if (tar) {
    try {
      return await withSettings(await PGlite.create(dataDir, { loadDataDir: new Blob([tar]) }), dataDir);
    } catch {
      // A damaged template: this start makes the cluster (and the template) anew.
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  const db = await PGlite.create(dataDir);
  // Best effort: where the install is read-only, every new data directory just starts slower.
  await saveTemplate(db, template).catch(() => {});
  return withSettings(db, dataDir);
}

/** Makes the template if there is none yet: `npm start` and `npm test` do, so no start waits for initdb. */
export async function prepareClusterTemplate(template?: string): Promise<void> {
  template ??= await installTemplatePath();
  if (existsSync(template)) return;
  const scratch = await mkdtemp(join(tmpdir(), "countersign-cluster-"));
  try {
    const db = await PGlite.create(scratch);
    await saveTemplate(db, template);
    await db.close();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** A cluster made before the settings were: they are written, and take effect when it opens again. */
async function withSettings(db: PGlite, dataDir: string): Promise<PGlite> {
  const { rows } = await db.query<{ value: string }>("SELECT current_setting('shared_buffers') AS value");
  if (rows[0]?.value === SHARED_BUFFERS) return db;
  await db.exec(`ALTER SYSTEM SET shared_buffers = '${SHARED_BUFFERS}'`);
  await db.close();
  return PGlite.create(dataDir);
}

async function isEmpty(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).length === 0;
}

/** Named for the PGlite version: a template is only ever unpacked by the version that made it. */
async function installTemplatePath(): Promise<string> {
  const entry = import.meta.resolve("@electric-sql/pglite");
  const manifest = JSON.parse(await readFile(new URL("../package.json", entry), "utf8")) as {
    version: string;
  };
  const nodeModules = fileURLToPath(new URL("../../../", entry));
  return join(nodeModules, ".cache", "countersign", `embedded-postgres-${manifest.version}.tar`);
}

async function saveTemplate(db: PGlite, template: string): Promise<void> {
  await db.exec(`ALTER SYSTEM SET shared_buffers = '${SHARED_BUFFERS}'`);
  const tar = await db.dumpDataDir("none");
  await mkdir(dirname(template), { recursive: true });
  // Two first starts at once each write their own file; the rename makes either one the template.
  const partial = `${template}.${randomUUID()}.partial`;
  await writeFile(partial, new Uint8Array(await tar.arrayBuffer()));
  await rename(partial, template).catch(async (err: unknown) => {
    await rm(partial, { force: true });
    throw err;
  });
}
