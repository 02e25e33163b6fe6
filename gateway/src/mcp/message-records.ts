/**
 * Every MCP message but a tool call (which its tool records, with its operation's status) recorded
 * for API Usage and Recent Errors as `MCP /mcp/v1/{method}`: a batch of 20 tools/list is 20 calls, as
 * 20 POSTs would be. A request is recorded when answered (400 invalid_request when the answer is a
 * JSON-RPC error), a notification when it arrives (202, as a POST of one is answered).
 */
import { uuidv7 } from "@countersign/kit";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { Response } from "express";
import type { ApiCallRecorder } from "../middleware/api-call-recorder.js";

/** Methods recorded under their own name; any other under `unknown`, so that callers cannot mint routes. */
const METHODS = new Set([
  "initialize",
  "ping",
  "tools/list",
  "notifications/initialized",
  "notifications/cancelled",
]);

export function recordMessages(
  transport: StreamableHTTPServerTransport,
  res: Response,
  recorder: ApiCallRecorder,
  base: string,
): void {
  const asked = new Map<RequestId, { route: string; startedAt: number }>();
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ("method" in message && message.method !== "tools/call") {
      const route = `${base}/${METHODS.has(message.method) ? message.method : "unknown"}`;
      if ("id" in message) asked.set(message.id, { route, startedAt: performance.now() });
      else recorder.recordToolCall(res, uuidv7(), route, { status: 202, code: "", durationMs: 0 });
    }
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    // An answer has the id of the request it answers, and no method.
    const id = "id" in message && !("method" in message) ? message.id : undefined;
    const call = id === undefined ? undefined : asked.get(id);
    if (call && id !== undefined) {
      asked.delete(id);
      const failed = "error" in message;
      recorder.recordToolCall(res, uuidv7(), call.route, {
        status: failed ? 400 : 200,
        code: failed ? "invalid_request" : "",
        durationMs: performance.now() - call.startedAt,
      });
    }
    return send(message, options);
  };
}
