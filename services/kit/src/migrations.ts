/**
 * Plain numbered SQL migrations (`001_init.sql`, `002_…`), one folder per track, each file applied
 * in its own transaction at start. An advisory lock makes replicas that start together apply each
 * file once; the others wait and then find it applied.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "./database.js";

export interface MigrationTrack {
  /** Names the track in schema_migrations, e.g. "auth" or "kit.outbox". */
  name: string;
  dir: string;
}

const MIGRATION_FILE = /^(\d{3,})_[a-z0-9_]+\.sql$/;
const MIGRATION_LOCK = 7_460_221;

/** The kit's own tables (the outbox), for services that publish events. */
export const outboxTrack: MigrationTrack = {
  name: "kit.outbox",
  dir: fileURLToPath(new URL("../migrations/outbox", import.meta.url)),
};

export async function migrate(db: Database, tracks: readonly MigrationTrack[]): Promise<string[]> {
  // Under the lock too: two CREATE TABLE IF NOT EXISTS at once can both try to make the table.
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      track text NOT NULL,
      version integer NOT NULL,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (track, version)
    )`);
  });
  const applied: string[] = [];
  for (const track of tracks) {
    for (const file of await migrationFiles(track.dir)) {
      const sql = await readFile(join(track.dir, file.name), "utf8");
      const ran = await db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
        const done = await tx.query("SELECT 1 FROM schema_migrations WHERE track = $1 AND version = $2", [
          track.name,
          file.version,
        ]);
        if (done.rowCount > 0) return false;
        await tx.exec(sql);
        await tx.query("INSERT INTO schema_migrations (track, version, name) VALUES ($1, $2, $3)", [
          track.name,
          file.version,
          file.name,
        ]);
        return true;
      });
      if (ran) applied.push(`${track.name}/${file.name}`);
    }
  }
  return applied;
}

async function migrationFiles(dir: string): Promise<{ name: string; version: number }[]> {
  const names = await readdir(dir);
  const files = names.flatMap((name) => {
    const match = MIGRATION_FILE.exec(name);
    return match ? [{ name, version: Number(match[1]) }] : [];
  });
  const versions = new Set(files.map((f) => f.version));
  if (versions.size !== files.length) throw new Error(`two migrations in ${dir} share a number`);
  return files.sort((a, b) => a.version - b.version);
}
