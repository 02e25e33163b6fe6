import { acceptRequestId, currentCallContext, runWithCallContext } from "../src/context.js";
import { isUuid } from "../src/ids.js";

test("the call context follows the work through awaits and timers, and ends with it", async () => {
  expect(currentCallContext()).toBeUndefined();
  const seen = await runWithCallContext({ requestId: "req-1", deadline: 123 }, async () => {
    await Promise.resolve();
    return new Promise((resolve) => setTimeout(() => resolve(currentCallContext()), 1));
  });
  expect(seen).toEqual({ requestId: "req-1", deadline: 123 });
  expect(currentCallContext()).toBeUndefined();
});

test("calls served at the same time each see their own context", async () => {
  const requestIdAfterWait = (requestId: string, waitMs: number) =>
    runWithCallContext({ requestId }, async () => {
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      return currentCallContext()?.requestId;
    });
  expect(await Promise.all([requestIdAfterWait("a", 20), requestIdAfterWait("b", 1)])).toEqual(["a", "b"]);
});

test("a short printable request id from outside is kept", () => {
  for (const id of ["req-42", "0190a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b", "a.b_c:d", "x".repeat(128)])
    expect(acceptRequestId(id)).toBe(id);
});

test("a missing, long or unprintable request id is replaced by a fresh UUID", () => {
  const bad = [undefined, null, "", "x".repeat(129), "has space", "line\nbreak", "<script>"];
  const replaced = bad.map((id) => acceptRequestId(id));
  for (const id of replaced) expect(isUuid(id)).toBe(true);
  expect(new Set(replaced).size).toBe(bad.length);
});
