/**
 * The bounds of one MCP POST (docs/mcp.md): at most MAX_BATCH_MESSAGES messages, each a call of its
 * own for the rate limit; its tool calls run one after another, and once what they answer reaches
 * MAX_ANSWER_BYTES the rest answer an error instead of running. A batch of 100 downloads once built
 * answers of gigabytes for one admission; the MCP spec dropped batches in 2025-06-18, but the SDK
 * still takes them from clients of every version, so the bounds hold for all.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** Messages one POST may carry. */
export const MAX_BATCH_MESSAGES = 20;

/** What one POST's tool calls may answer, together: one largest download (25 MiB, as base64) and more. */
export const MAX_ANSWER_BYTES = 48 * 1024 * 1024;

/** The JSON-RPC messages a body carries: a batch's, or the one it is. */
export function messagesIn(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}

/** About what a tool's result weighs in the answer: its texts and base64 blobs, and its structured result. */
function answerBytes(result: CallToolResult): number {
  const content = result.content.reduce((sum, item) => {
    if (item.type === "text") return sum + item.text.length;
    if (item.type === "resource") return sum + ("blob" in item.resource ? item.resource.blob.length : 0);
    if (item.type === "image" || item.type === "audio") return sum + item.data.length;
    return sum;
  }, 0);
  return content + (result.structuredContent ? JSON.stringify(result.structuredContent).length : 0);
}

/** One POST's tool calls: run one at a time, and held together to MAX_ANSWER_BYTES. */
export class AnswerBudget {
  private used = 0;
  private turn: Promise<unknown> = Promise.resolve();

  /**
   * `run`'s result, after the calls before it; `refuse()`'s when the answer is full already, or when
   * this result would overfill it (the first result is always answered: one call alone is within
   * the API's own limits).
   */
  run<Outcome extends { result: CallToolResult }>(
    run: () => Promise<Outcome>,
    refuse: () => Outcome,
  ): Promise<Outcome> {
    const result = this.turn.then(async () => {
      if (this.used >= MAX_ANSWER_BYTES) return refuse();
      const answered = await run();
      const bytes = answerBytes(answered.result);
      if (this.used > 0 && this.used + bytes > MAX_ANSWER_BYTES) {
        this.used = MAX_ANSWER_BYTES;
        return refuse();
      }
      this.used += bytes;
      return answered;
    });
    this.turn = result.catch(() => undefined);
    return result;
  }
}
