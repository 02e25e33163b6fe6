/**
 * One MCP POST's tool calls (batch-bounds.ts): run one after another, and held together to
 * MAX_ANSWER_BYTES — a batch of downloads answers the first whole and an error for the rest, most of
 * them never run, rather than build hundreds of megabytes.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AnswerBudget, MAX_ANSWER_BYTES } from "../src/mcp/batch-bounds.js";

interface Outcome {
  result: CallToolResult;
  refused?: boolean;
}

/** A download's result: a file of `bytes` as an embedded resource. */
const download = (bytes: number): Outcome => ({
  result: { content: [{ type: "resource", resource: { uri: "x", blob: "A".repeat(bytes) } }] },
});
const refused = (): Outcome => ({ result: { isError: true, content: [] }, refused: true });

test("a batch of downloads answers while the answer has room, then refuses the rest without running them", async () => {
  const budget = new AnswerBudget();
  let running = 0;
  let most = 0;
  let ran = 0;
  const call = () =>
    budget.run(async () => {
      ran += 1;
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return download(20 * 1024 * 1024);
    }, refused);
  const outcomes = await Promise.all(Array.from({ length: 10 }, call));
  expect(outcomes.map((o) => o.refused === true)).toEqual([false, false, true, ...Array(7).fill(true)]);
  // One at a time, and once the answer is full nothing more runs.
  expect(most).toBe(1);
  expect(ran).toBe(3);
});

test("one call's answer is given whole, however large: it is within the API's own limits", async () => {
  const budget = new AnswerBudget();
  const outcome = await budget.run(async () => download(MAX_ANSWER_BYTES + 1), refused);
  expect(outcome.refused).toBeUndefined();
});
