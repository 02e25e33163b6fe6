import { FairQueue, FairQueueFull } from "../src/fair-queue.js";

/** A task that runs until `finish` is called, noting when it started. */
function gate(log: string[], name: string) {
  let finish = () => {};
  const task = () =>
    new Promise<string>((resolve) => {
      log.push(`start ${name}`);
      finish = () => resolve(name);
    });
  return { task, finish: () => finish() };
}

const tick = () => new Promise((r) => setImmediate(r));

const options = { concurrency: 1, waitingPerParty: 2, maxWaiting: 5, retryAfterSeconds: 7 };

test("a party past its own bound is refused with when to try again; another party is still taken, and served before the first's next", async () => {
  const queue = new FairQueue(options);
  const log: string[] = [];
  const tasks = ["a1", "a2", "a3", "a4", "b1"].map((name) => ({ name, ...gate(log, name) }));
  const results = tasks.map(({ name, task }) =>
    queue.run(name[0] as string, task).catch((err: unknown) => err),
  );
  const refused = await results[3];
  expect(refused).toBeInstanceOf(FairQueueFull);
  expect((refused as FairQueueFull).retryAfterSeconds).toBe(7);
  for (const name of ["a1", "b1", "a2", "a3"]) {
    await tick();
    tasks.find((t) => t.name === name)?.finish();
  }
  expect(await Promise.all([results[0], results[1], results[2], results[4]])).toEqual([
    "a1",
    "a2",
    "a3",
    "b1",
  ]);
  expect(log).toEqual(["start a1", "start b1", "start a2", "start a3"]);
  await queue.drained();
});

test("what waits over all parties is bounded, however many parties ask", async () => {
  const queue = new FairQueue(options);
  const log: string[] = [];
  const first = gate(log, "first");
  const running = queue.run("first", first.task);
  const waiting = Array.from({ length: 8 }, (_, i) =>
    queue.run(`party-${i}`, () => Promise.resolve(i)).catch((err: unknown) => err),
  );
  first.finish();
  await running;
  const outcomes = await Promise.all(waiting);
  expect(outcomes.filter((o) => o instanceof FairQueueFull)).toHaveLength(3);
  expect(outcomes.filter((o) => typeof o === "number")).toEqual([0, 1, 2, 3, 4]);
});

test("a task whose caller goes away while it waits leaves its place and is never started", async () => {
  const queue = new FairQueue(options);
  const log: string[] = [];
  const first = gate(log, "first");
  const running = queue.run("a", first.task);
  const caller = new AbortController();
  const second = gate(log, "second");
  const waiting = queue.run("a", second.task, caller.signal).catch((err: unknown) => err);
  caller.abort(new Error("gone"));
  expect(((await waiting) as Error).message).toBe("gone");
  first.finish();
  await running;
  await queue.drained();
  expect(log).toEqual(["start first"]);
});

test("two parties that ask again as soon as they are answered do not keep a party served before waiting", async () => {
  const queue = new FairQueue(options);
  const log: string[] = [];
  const running = new Map<string, () => void>();
  const task = (name: string) => () =>
    new Promise<void>((resolve) => {
      log.push(name);
      running.set(name, resolve);
    });
  // c was served once and has more waiting; then two parties flood, one task at a time each.
  const c1 = queue.run("c", task("c1"));
  const c2 = queue.run("c", task("c2"));
  const flood = (party: string, rounds: number): Promise<void> =>
    rounds === 0 ? Promise.resolve() : queue.run(party, task(party)).then(() => flood(party, rounds - 1));
  const floods = [flood("a", 6), flood("b", 6)];
  // Each turn ends the task started last; 14 tasks in all.
  for (let turn = 0; turn < 14; turn++) {
    await tick();
    running.get(log.at(-1) as string)?.();
  }
  await Promise.all([c1, c2, ...floods]);
  // c2 goes once a and b have each had a turn, not after all twelve of theirs.
  expect(log.indexOf("c2")).toBeLessThanOrEqual(3);
});

test("work that must not be refused waits its party's turn past the bounds, and the others see it waiting", async () => {
  const queue = new FairQueue(options);
  const log: string[] = [];
  const [a1, a2, a3, background, b1] = ["a1", "a2", "a3", "background", "b1"].map((name) =>
    gate(log, name),
  ) as [
    ReturnType<typeof gate>,
    ReturnType<typeof gate>,
    ReturnType<typeof gate>,
    ReturnType<typeof gate>,
    ReturnType<typeof gate>,
  ];
  const results = [
    queue.run("a", a1.task),
    queue.run("a", a2.task),
    queue.run("a", a3.task),
    // a has as many waiting as it may: this is taken all the same, behind a's own.
    queue.runUnbounded("a", background.task),
    queue.run("b", b1.task),
  ];
  // a has three waiting now, the background task among them: its next is refused; b's went in before.
  expect(await queue.run("a", () => Promise.resolve("a4")).catch((err: unknown) => err)).toBeInstanceOf(
    FairQueueFull,
  );
  for (const task of [a1, b1, a2, a3, background]) {
    await tick();
    task.finish();
  }
  expect(await Promise.all(results)).toEqual(["a1", "a2", "a3", "background", "b1"]);
  expect(log).toEqual(["start a1", "start b1", "start a2", "start a3", "start background"]);
  await queue.drained();
});
