/**
 * A queue whose jobs belong to parties takes the parties in turn, on both databases a service runs
 * on: PostgreSQL (127.0.0.1:5432, or COUNTERSIGN_TEST_POSTGRES_URL) and the embedded PGlite.
 */
import type { Database } from "../src/database.js";
import { EmbeddedPostgres } from "../src/embedded-postgres.js";
import { uuidv7 } from "../src/ids.js";
import { type JobOutcome, JobQueue, type JobState } from "../src/job-queue.js";
import { createLogger } from "../src/logger.js";
import { jobTableSql, type ScratchDatabase, scratchPostgres } from "./databases.js";
import { available, POSTGRES_URL } from "./infra.js";

interface Task extends JobState {
  id: string;
  label: string;
  workspace_id: string;
}

const logger = createLogger({ name: "job-queue-parties-test", level: "silent" });

const postgres = await available("Postgres", POSTGRES_URL);
let embedded: EmbeddedPostgres | undefined;
afterAll(() => embedded?.close());

/** A fresh database of each kind a service runs on. */
const databases: [string, () => Promise<ScratchDatabase>][] = [
  [
    "embedded",
    async () => {
      embedded ??= await EmbeddedPostgres.open();
      return { db: embedded.database(`jobs_${uuidv7().replaceAll("-", "")}`), close: async () => {} };
    },
  ],
  ...(postgres
    ? [["PostgreSQL", () => scratchPostgres("kit_parties_")] as [string, () => Promise<ScratchDatabase>]]
    : []),
];

/** Queues `count` tasks of `workspace`, labelled `prefix1`, `prefix2`…, after every task queued before. */
async function addTasks(db: Database, workspace: string, prefix: string, count: number): Promise<void> {
  const ids = Array.from({ length: count }, () => uuidv7());
  await db.query(
    `INSERT INTO tasks (id, workspace_id, label)
     SELECT id, $2, $3 || n FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`,
    [ids, workspace, prefix],
  );
}

/** Runs every task with one worker, one claim a task; the labels in the order they ran. */
async function runAll(db: Database): Promise<string[]> {
  const ran: string[] = [];
  const queue = new JobQueue<Task>({
    name: "tasks",
    db,
    logger,
    table: { name: "tasks", key: "id", columns: ["label"], party: "workspace_id" },
    leaseSeconds: 30,
    pollIntervalMs: 60_000,
    maxAttempts: 3,
    backoff: () => 10,
    run: async (task): Promise<JobOutcome> => {
      ran.push(task.label);
      return { kind: "done" };
    },
  });
  queue.start();
  await queue.idle();
  await queue.stop();
  return ran;
}

describe.each(databases)("on %s", (_kind, open) => {
  let opened: ScratchDatabase;
  beforeEach(async () => {
    opened = await open();
    await opened.db.query(jobTableSql("tasks", "workspace_id uuid NOT NULL, label text NOT NULL"));
  });
  afterEach(() => opened.close());

  test("a workspace's one job queued behind another's hundred is run within the first two claims", async () => {
    const [a, b] = [uuidv7(), uuidv7()];
    await addTasks(opened.db, a, "a", 100);
    await addTasks(opened.db, b, "b", 1);
    const ran = await runAll(opened.db);
    expect(ran).toHaveLength(101);
    expect(ran.indexOf("b1")).toBeLessThan(2);
    // Within a workspace, its jobs keep their order.
    expect(ran.filter((label) => label.startsWith("a"))).toEqual(
      Array.from({ length: 100 }, (_, i) => `a${i + 1}`),
    );
  });

  test("workspaces with backlogs take turns; one that comes later joins the turn before those served", async () => {
    const [a, b, c] = [uuidv7(), uuidv7(), uuidv7()];
    await addTasks(opened.db, a, "a", 4);
    await addTasks(opened.db, b, "b", 4);
    await addTasks(opened.db, c, "c", 1);
    expect(await runAll(opened.db)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3", "b3", "a4", "b4"]);
  });
});
