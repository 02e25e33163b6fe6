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

  it("writes a failed batch again item by item, so that only the item the database refuses fails", async () => {
    const written: string[][] = [];
    const commit = new GroupCommit<string>(async (batch) => {
      await new Promise((r) => setTimeout(r, 10));
      if (batch.includes("bad\u0000")) throw new Error("invalid byte sequence");
      written.push(batch);
    });
    const first = commit.add("first");
    const rest = ["a", "bad\u0000", "b"].map((item) => commit.add(item));
    await expect(first).resolves.toBeUndefined();
    await expect(rest[0]).resolves.toBeUndefined();
    await expect(rest[1]).rejects.toThrow("invalid byte sequence");
    await expect(rest[2]).resolves.toBeUndefined();
    expect(written).toEqual([["first"], ["a"], ["b"]]);
  });
});
