/** Group commit: a burst is written in few batches, and a failed batch fails only its own items. */
import { describe, expect, it } from "@jest/globals";
import { GroupCommit } from "../src/group-commit.js";

describe("GroupCommit", () => {
  it("writes what arrives during a write in the next batch, not one write per item", async () => {
    const batches: number[][] = [];
    const commit = new GroupCommit<number>(async (batch) => {
      batches.push(batch);
      await new Promise((r) => setTimeout(r, 20));
    });
    await Promise.all(Array.from({ length: 10 }, (_, i) => commit.add(i)));
    expect(batches).toEqual([[0], [1, 2, 3, 4, 5, 6, 7, 8, 9]]);
  });

  it("rejects every item of a failed batch and goes on with the next", async () => {
    let calls = 0;
    const commit = new GroupCommit<string>(async () => {
      calls += 1;
      if (calls === 1) throw new Error("database away");
    });
    const first = commit.add("a");
    const second = commit.add("b");
    await expect(first).rejects.toThrow("database away");
    await expect(second).resolves.toBeUndefined();
    await expect(commit.add("c")).resolves.toBeUndefined();
  });
});
