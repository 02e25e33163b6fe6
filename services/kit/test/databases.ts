/**
 * What the kit's database tests are given: a scratch database on the local Postgres server, and a
 * job table as job-queue.ts's header describes one.
 */
import pg from "pg";
import { createPostgresDatabase, type Database, ensurePostgresDatabase } from "../src/database.js";
import { POSTGRES_URL, uniqueName } from "./infra.js";

/** A database a test has to itself, and what lets it go. */
export interface ScratchDatabase {
  db: Database;
  close: () => Promise<void>;
}

/** A new database named `prefix…` on the local Postgres server (infra.ts), dropped by `close`. */
export async function scratchPostgres(prefix: string): Promise<ScratchDatabase> {
  const name = uniqueName(prefix);
  const url = Object.assign(new URL(POSTGRES_URL), { pathname: `/${name}` }).toString();
  await ensurePostgresDatabase(url);
  const db = createPostgresDatabase(url);
  return {
    db,
    close: async () => {
      await db.close();
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** CREATE TABLE for a job table `name` with the job's `own` columns (SQL) before the queue's. */
export function jobTableSql(name: string, own: string): string {
  return `CREATE TABLE ${name} (
    id uuid PRIMARY KEY,
    ${own},
    attempts int NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    claimed_until timestamptz NOT NULL DEFAULT '-infinity',
    done_at timestamptz,
    parked_at timestamptz,
    last_error text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now())`;
}
