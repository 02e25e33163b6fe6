import { JobTimedOut, WorkerThread, WorkerThreadEnded } from "../src/worker-thread.js";

interface Job {
  value?: string;
  busyMs?: number;
  fail?: string;
}

const ENTRY = new URL("./busy-worker.mjs", import.meta.url);

function thread(timeoutMs = 5_000) {
  return new WorkerThread<Job, string>(ENTRY, { timeoutMs, idleMs: 60_000, maxOldGenerationSizeMb: 64 });
}

test("a job is answered by the thread, and a job that fails there fails with its message", async () => {
  const jobs = thread();
  await expect(jobs.run({ value: "read" })).resolves.toBe("read");
  await expect(jobs.run({ fail: "not a PDF" })).rejects.toThrow("not a PDF");
  jobs.close();
});

test("a job past its time limit ends its thread: it times out, the jobs behind it fail as ended, the next runs on a new thread", async () => {
  const jobs = thread(300);
  const stuck = jobs.run({ busyMs: 5_000 });
  const behind = jobs.run({ value: "behind" });
  await expect(stuck).rejects.toBeInstanceOf(JobTimedOut);
  await expect(behind).rejects.toBeInstanceOf(WorkerThreadEnded);
  await expect(jobs.run({ value: "after" })).resolves.toBe("after");
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
