/**
 * Sweeps through due rows: two replicas sweeping at once share the rows, none acted on twice; a row
 * whose act fails is logged and passed by for the rest of the sweep, and the rows after it are still
 * acted on; rows not due are left alone. On PostgreSQL (127.0.0.1:5432, or COUNTERSIGN_TEST_POSTGRES_URL).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type DueRows, workThroughDue } from "../src/due-rows.js";
import { uuidv7 } from "../src/ids.js";
import { createLogger } from "../src/logger.js";
import { type ScratchDatabase, scratchPostgres } from "./databases.js";
import { available, POSTGRES_URL } from "./infra.js";

const postgres = await available("Postgres", POSTGRES_URL);
const suite = postgres ? describe : describe.skip;

interface Reminder {
  id: string;
  label: string;
}

const DUE: DueRows = {
  select: "id, label",
  from: "reminders",
  where: "due_at <= now() AND sent_at IS NULL",
  order: "label",
  lock: "reminders",
  id: "id",
};

suite("due rows", () => {
  let scratch: ScratchDatabase;
  beforeEach(async () => {
    scratch = await scratchPostgres("kit_due_");
    await scratch.db.query(
      "CREATE TABLE reminders (id uuid PRIMARY KEY, label text NOT NULL, due_at timestamptz NOT NULL, sent_at timestamptz)",
    );
  });
  afterEach(() => scratch.close());

  async function add(labels: string[], dueIn = "-1 minute"): Promise<void> {
    for (const label of labels)
      await scratch.db.query(
        "INSERT INTO reminders (id, label, due_at) VALUES ($1, $2, now() + $3::interval)",
        [uuidv7(), label, dueIn],
      );
  }

  test("two sweeps at once act on every due row exactly once between them, and leave rows not yet due", async () => {
    const labels = Array.from({ length: 20 }, (_, i) => `r${String(i).padStart(2, "0")}`);
    await add(labels);
    await add(["later"], "1 hour");
    const acted: string[] = [];
    const sweep = () =>
      workThroughDue(
        {
          db: scratch.db,
          logger: createLogger({ name: "due-test", level: "silent" }),
          afterCommit: () => {},
        },
        {
          rows: DUE,
          idOf: (due: Reminder) => due.id,
          act: async (tx, due) => {
            acted.push(due.label);
            // Held while the other sweep looks: it must pass this row by, not wait for it or take it.
            await sleep(5);
            await tx.query("UPDATE reminders SET sent_at = now() WHERE id = $1", [due.id]);
          },
          logField: "reminderId",
          failure: "could not send a reminder",
        },
      );
    const counts = await Promise.all([sweep(), sweep()]);
    expect([...acted].sort()).toEqual(labels);
    expect(counts[0] + counts[1]).toBe(20);
    expect(counts.every((count) => count > 0)).toBe(true);
  });

  test("a row whose act fails is logged and passed by for the rest of the sweep; the rows after it are acted on", async () => {
    await add(["a", "b", "c"]);
    const logged: unknown[] = [];
    const logger = createLogger({ name: "due-test", level: "error" });
    logger.error = ((details: unknown) => {
      logged.push(details);
    }) as typeof logger.error;
    const acted: string[] = [];
    const count = await workThroughDue(
      { db: scratch.db, logger, afterCommit: () => {} },
      {
        rows: DUE,
        idOf: (due: Reminder) => due.id,
        act: async (tx, due) => {
          acted.push(due.label);
          if (due.label === "b") throw new Error("mail server away");
          await tx.query("UPDATE reminders SET sent_at = now() WHERE id = $1", [due.id]);
        },
        logField: "reminderId",
        failure: "could not send a reminder",
      },
    );
    expect(count).toBe(2);
    expect(acted).toEqual(["a", "b", "c"]);
    expect(logged).toHaveLength(1);
    const { rows } = await scratch.db.query<{ label: string }>(
      "SELECT label FROM reminders WHERE sent_at IS NULL ORDER BY label",
    );
    expect(rows.map((r) => r.label)).toEqual(["b"]);
  });
});
