import { DrainLoop } from "../src/drain-loop.js";

test("kicks during a drain are coalesced into one more drain, and drains never overlap", async () => {
  let running = 0;
  let overlapped = false;
  let drains = 0;
  let release: () => void = () => {};
  const loop = new DrainLoop(async () => {
    running += 1;
    overlapped ||= running > 1;
    drains += 1;
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    running -= 1;
  }, 60_000);
  loop.start();
  for (let i = 0; i < 5; i++) loop.kick();
  release();
  await new Promise((r) => setTimeout(r, 10));
  release();
  await loop.idle();
  expect([drains, overlapped]).toEqual([2, false]);
  await loop.stop();
});

test("the timer drains again without a kick, and nothing runs after stop", async () => {
  let drains = 0;
  const loop = new DrainLoop(async () => {
    drains += 1;
  }, 20);
  loop.start();
  await new Promise((r) => setTimeout(r, 110));
  await loop.stop();
  const stoppedAt = drains;
  expect(stoppedAt).toBeGreaterThanOrEqual(3);
  loop.kick();
  await new Promise((r) => setTimeout(r, 60));
  expect(drains).toBe(stoppedAt);
});
