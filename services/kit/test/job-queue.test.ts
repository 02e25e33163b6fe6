import type { Database } from "../src/database.js";
import { EmbeddedPostgres } from "../src/embedded-postgres.js";
import { uuidv7 } from "../src/ids.js";
import {
  backgroundJobAttempts,
  backgroundJobs,
  backgroundJobsOldest,
  exponentialBackoff,
  type JobOutcome,
  JobQueue,
  type JobQueueOptions,
  type JobState,
} from "../src/job-queue.js";
import { createLogger } from "../src/logger.js";
import { jobTableSql } from "./databases.js";

interface Task extends JobState {
  id: string;
  label: string;
}

let embedded: EmbeddedPostgres;
let db: Database;
const queues: JobQueue<Task>[] = [];
const logger = createLogger({ name: "job-queue-test", level: "silent" });

beforeAll(async () => {
  embedded = await EmbeddedPostgres.open();
});
afterAll(() => embedded.close());

beforeEach(async () => {
  db = embedded.database(`jobs_${uuidv7().replaceAll("-", "")}`);
  await db.query(jobTableSql("tasks", "label text NOT NULL, effects int NOT NULL DEFAULT 0"));
});

afterEach(async () => {
  await Promise.all(queues.splice(0).map((queue) => queue.stop()));
});

function queueOf(options: Partial<JobQueueOptions<Task>>): JobQueue<Task> {
  const queue = new JobQueue<Task>({
    name: "tasks",
    db,
    logger,
    table: { name: "tasks", key: "id", columns: ["label"] },
    leaseSeconds: 30,
    pollIntervalMs: 20,
    maxAttempts: 3,
    backoff: () => 10,
    ...options,
  });
  queues.push(queue);
  return queue;
}

async function addTasks(...labels: string[]): Promise<string[]> {
  const ids = labels.map(() => uuidv7());
  await db.query("INSERT INTO tasks (id, label) SELECT * FROM unnest($1::uuid[], $2::text[])", [ids, labels]);
  return ids;
}

async function rows() {
  const { rows } = await db.query<{
    label: string;
    attempts: number;
    done: boolean;
    parked: boolean;
    last_error: string;
    effects: number;
  }>(
    `SELECT label, attempts, done_at IS NOT NULL AS done, parked_at IS NOT NULL AS parked, last_error, effects
       FROM tasks ORDER BY id`,
  );
  return rows;
}

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

const counted = async (outcome: string) =>
  (await backgroundJobAttempts.get()).values.find(
    (v) => v.labels.queue === "tasks" && v.labels.outcome === outcome,
  )?.value ?? 0;

test("the backoff doubles from its first wait up to its longest", () => {
  const backoff = exponentialBackoff(10_000, 3_600_000);
  expect([1, 2, 3, 4, 10, 20].map(backoff)).toEqual([10_000, 20_000, 40_000, 80_000, 3_600_000, 3_600_000]);
});

test("a job that keeps failing is retried after its backoff, then parked with its last error and never claimed again", async () => {
  const tries: number[] = [];
  const failures: [number, boolean][] = [];
  const parkedBefore = await counted("parked");
  await addTasks("poison", "fine");
  const queue = queueOf({
    run: async (task) => {
      if (task.label === "fine") return { kind: "done" };
      tries.push(Date.now());
      throw new Error(`refused at attempt ${task.attempts}`);
    },
    backoff: (attempts) => attempts * 100,
    // The hook's write commits with the failure it records.
    failed: async (tx, task, failure) => {
      failures.push([failure.attempts, failure.retryAt !== undefined]);
      await tx.query("UPDATE tasks SET effects = effects + 1 WHERE id = $1", [task.id]);
    },
  });
  queue.start();
  await until(async () => ((await rows())[0]?.parked ? true : undefined));
  await new Promise((r) => setTimeout(r, 200));
  expect(await rows()).toEqual([
    {
      label: "poison",
      attempts: 3,
      done: false,
      parked: true,
      last_error: "refused at attempt 3",
      effects: 3,
    },
    { label: "fine", attempts: 1, done: true, parked: false, last_error: "", effects: 0 },
  ]);
  expect(failures).toEqual([
    [1, true],
    [2, true],
    [3, false],
  ]);
  // Waited its backoff between tries: 100 ms after the first, 200 ms after the second.
  expect((tries[1] ?? 0) - (tries[0] ?? 0)).toBeGreaterThanOrEqual(90);
  expect((tries[2] ?? 0) - (tries[1] ?? 0)).toBeGreaterThanOrEqual(190);
  expect((await counted("parked")) - parkedBefore).toBe(1);
});

test("a failure whose hook throws is not recorded: the attempt is made again when its claim runs out", async () => {
  await addTasks("once");
  let hookCalls = 0;
  const queue = queueOf({
    leaseSeconds: 0.2,
    run: async (task) => {
      if (task.attempts === 1) throw new Error("first try fails");
      return { kind: "done" };
    },
    failed: async (tx, task) => {
      hookCalls += 1;
      await tx.query("UPDATE tasks SET effects = effects + 1 WHERE id = $1", [task.id]);
      if (hookCalls === 1) throw new Error("the hook's own write failed");
    },
  });
  queue.start();
  await until(async () => ((await rows())[0]?.done ? true : undefined));
  expect(await rows()).toEqual([
    { label: "once", attempts: 2, done: true, parked: false, last_error: "", effects: 0 },
  ]);
});

test("two workers on one table run each job once", async () => {
  const ran: string[] = [];
  await addTasks(...Array.from({ length: 40 }, (_, i) => `t${i}`));
  const run = async (task: Task): Promise<JobOutcome> => {
    ran.push(task.label);
    await new Promise((r) => setTimeout(r, 2));
    return { kind: "done" };
  };
  const first = queueOf({ run, batchSize: 5 });
  const second = queueOf({ run, batchSize: 5 });
  first.start();
  second.start();
  await until(async () => ((await rows()).every((row) => row.done) ? true : undefined));
  expect(ran.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `t${i}`).sort());
});

test("a worker whose claim ran out cannot settle the job another worker has taken since", async () => {
  const [id] = await addTasks("slow");
  let release: () => void = () => {};
  const slow = queueOf({
    leaseSeconds: 0.1,
    run: () =>
      new Promise<JobOutcome>((resolve) => {
        release = () => resolve({ kind: "done", note: "from the first worker" });
      }),
  });
  slow.start();
  await until(async () => ((await rows())[0]?.attempts === 1 ? true : undefined));
  await new Promise((r) => setTimeout(r, 150));
  // Its failure is retried in a minute, after the test: the first worker finds nothing more to do.
  const taker = queueOf({
    backoff: () => 60_000,
    run: async () => ({ kind: "failed", error: new Error("second worker failed") }),
  });
  taker.start();
  await until(async () => ((await rows())[0]?.last_error === "second worker failed" ? true : undefined));
  await taker.stop();
  release();
  await slow.idle();
  const { rows: after } = await db.query("SELECT done_at, last_error FROM tasks WHERE id = $1", [id]);
  expect(after).toEqual([{ done_at: null, last_error: "second worker failed" }]);
});

test("stopping frees the claimed jobs not started, uncounted; a batch runner's released jobs likewise", async () => {
  await addTasks("a", "b", "c");
  const started: string[] = [];
  let queue: JobQueue<Task> | undefined;
  queue = queueOf({
    batchSize: 3,
    run: async (task) => {
      started.push(task.label);
      void queue?.stop();
      return { kind: "done" };
    },
  });
  queue.start();
  await until(async () => (started.length === 1 ? true : undefined));
  await queue.stop();
  expect(await rows()).toEqual([
    { label: "a", attempts: 1, done: true, parked: false, last_error: "", effects: 0 },
    { label: "b", attempts: 0, done: false, parked: false, last_error: "", effects: 0 },
    { label: "c", attempts: 0, done: false, parked: false, last_error: "", effects: 0 },
  ]);
  const { rows: free } = await db.query("SELECT count(*)::int AS n FROM tasks WHERE claimed_until < now()");
  expect(free).toEqual([{ n: 3 }]);

  const batch = queueOf({
    batchSize: 10,
    runBatch: async (tasks) =>
      tasks.map((task): JobOutcome => (task.label === "b" ? { kind: "done" } : { kind: "released" })),
  });
  batch.start();
  await until(async () => ((await rows())[1]?.done ? true : undefined));
  await batch.stop();
  expect((await rows()).map((row) => [row.label, row.attempts, row.done])).toEqual([
    ["a", 1, true],
    ["b", 1, true],
    ["c", 0, false],
  ]);
});

test("the only worker on its database frees a killed process's claims at start instead of waiting out their lease", async () => {
  await addTasks("left behind");
  await db.query("UPDATE tasks SET claimed_until = now() + interval '1 hour', attempts = 1");
  const ran: number[] = [];
  const queue = queueOf({
    onlyReplica: true,
    run: async (task) => {
      ran.push(task.attempts);
      return { kind: "done" };
    },
  });
  queue.start();
  await until(async () => ((await rows())[0]?.done ? true : undefined));
  expect(ran).toEqual([2]);
});

test("a job finished in the caller's transaction is finished with what it changed; done columns of its own are set", async () => {
  const [first, second] = (await addTasks("by caller", "by outcome")) as [string, string];
  const queue = queueOf({
    run: async (task) => {
      if (task.label === "by caller") {
        await db.transaction(async (tx) => {
          await tx.query("UPDATE tasks SET effects = 7 WHERE id = $1", [task.id]);
          await queue.finish(tx, task.id, "finished by its own transaction");
        });
        return { kind: "done" };
      }
      return { kind: "done", note: "dropped", set: { effects: 9 } };
    },
  });
  queue.start();
  await until(async () => ((await rows()).every((row) => row.done) ? true : undefined));
  const { rows: after } = await db.query("SELECT id, effects, last_error FROM tasks ORDER BY id");
  expect(after).toEqual([
    { id: first, effects: 7, last_error: "finished by its own transaction" },
    { id: second, effects: 9, last_error: "dropped" },
  ]);
});

test("the gauges report each queue's jobs queued, running and parked, and the age of its oldest", async () => {
  await addTasks("queued", "running", "parked", "done");
  await db.query(`UPDATE tasks SET created_at = now() - interval '90 seconds' WHERE label = 'queued'`);
  await db.query(`UPDATE tasks SET claimed_until = now() + interval '1 minute' WHERE label = 'running'`);
  await db.query(
    `UPDATE tasks SET parked_at = now(), created_at = now() - interval '1 day' WHERE label = 'parked'`,
  );
  await db.query(`UPDATE tasks SET done_at = now() WHERE label = 'done'`);
  const queue = queueOf({ pollIntervalMs: 60_000, run: async () => ({ kind: "done" }) });
  // Started without working: the queued job must stay queued while the gauges are read.
  await db.query("UPDATE tasks SET next_attempt_at = now() + interval '1 hour' WHERE label = 'queued'");
  queue.start();
  await queue.idle();
  const jobs = (await backgroundJobs.get()).values.filter((v) => v.labels.queue === "tasks");
  expect(Object.fromEntries(jobs.map((v) => [v.labels.state, v.value]))).toEqual({
    queued: 1,
    running: 1,
    parked: 1,
  });
  const oldest = (await backgroundJobsOldest.get()).values.find((v) => v.labels.queue === "tasks")?.value;
  expect(oldest).toBeGreaterThanOrEqual(90);
  expect(oldest).toBeLessThan(120);
  await queue.stop();
  await new Promise((r) => setTimeout(r, 1100));
  expect((await backgroundJobs.get()).values.filter((v) => v.labels.queue === "tasks")).toEqual([]);
});
