import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { JobTimedOut, WorkerThread, WorkerThreadEnded } from "../src/worker-thread.js";

interface Job {
  value?: string;
  busyMs?: number;
  fail?: string;
  hog?: boolean;
}

const ENTRY = new URL("./busy-worker.mjs", import.meta.url);

function thread(timeoutMs = 5_000, entry = ENTRY) {
  return new WorkerThread<Job, string>(entry, { timeoutMs, idleMs: 60_000, maxOldGenerationSizeMb: 64 });
}

test("a job is answered by the thread, and a job that fails there fails with its message", async () => {
  const jobs = thread();
  await expect(jobs.run({ value: "read" })).resolves.toBe("read");
  await expect(jobs.run({ fail: "not a PDF" })).rejects.toThrow("not a PDF");
  jobs.close();
});

test("a job past its time limit fails as timed out, and the jobs behind it run on a new thread", async () => {
  const jobs = thread(300);
  const stuck = jobs.run({ busyMs: 5_000 });
  // It waits behind the stuck job for longer than the limit: only time spent running counts.
  const behind = jobs.run({ value: "behind", busyMs: 100 });
  await expect(stuck).rejects.toBeInstanceOf(JobTimedOut);
  await expect(behind).resolves.toBe("behind");
  await expect(jobs.run({ value: "after" })).resolves.toBe("after");
  jobs.close();
});

test("a thread's start does not count against the first job's time limit", async () => {
  const jobs = thread(200, new URL("./slow-start-worker.mjs", import.meta.url));
  await expect(jobs.run({ value: "first", busyMs: 50 })).resolves.toBe("first");
  await expect(jobs.run({ value: "stuck", busyMs: 1_000 })).rejects.toBeInstanceOf(JobTimedOut);
  // The new thread starts slowly too, and its first job is still timed from its own start.
  await expect(jobs.run({ value: "after" })).resolves.toBe("after");
  jobs.close();
});

test("a job that runs its thread out of memory fails as such, and the next job runs on a new thread", async () => {
  const jobs = thread();
  const hog = jobs.run({ hog: true });
  const next = jobs.run({ value: "next" });
  const failed = await hog.catch((err: unknown) => err);
  expect(failed).toBeInstanceOf(WorkerThreadEnded);
  expect((failed as WorkerThreadEnded).outOfMemory).toBe(true);
  await expect(next).resolves.toBe("next");
  jobs.close();
});

test("a thread ended on purpose that exits late does not fail the jobs of the thread after it", async () => {
  const jobs = thread(200);
  await expect(jobs.run({ busyMs: 2_000 })).rejects.toBeInstanceOf(JobTimedOut);
  // The ended thread is still spinning and exits only when its job lets it; meanwhile a new one works.
  const next = jobs.run({ value: "next", busyMs: 100 });
  await expect(next).resolves.toBe("next");
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await expect(jobs.run({ value: "still" })).resolves.toBe("still");
  jobs.close();
});

test("a job keeps the process alive until it is answered, and an idle thread does not keep it", async () => {
  // In a process of its own, whose only work is the job: it must print the answer, then exit by itself.
  const script = `
    const { WorkerThread } = await import(${JSON.stringify(new URL("../src/worker-thread.ts", import.meta.url).href)});
    const jobs = new WorkerThread(new URL(${JSON.stringify(new URL("./slow-start-worker.mjs", import.meta.url).href)}), {
      timeoutMs: 5_000, idleMs: 600_000, maxOldGenerationSizeMb: 64,
    });
    console.log(await jobs.run({ value: "answered", busyMs: 100 }));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { cwd: fileURLToPath(new URL("..", import.meta.url)), timeout: 30_000 },
  );
  expect(stdout.trim()).toBe("answered");
});
