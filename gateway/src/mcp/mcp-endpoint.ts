/**
 * The tool endpoint for AI assistants (DESIGN §8): MCP over Streamable HTTP at /mcp/v1, stateless —
 * every POST is a whole exchange answered as JSON, so any gateway replica can take any request and
 * nothing is kept between them.
 *
 * It is the public API by another door, with the same rules: the bearer key is checked before any
 * MCP message is read (401 for a missing, unknown or deleted key, 403 without API access), every tool
 * call takes one call from the key's rate limit (a batch takes all of its calls at once, or is 429),
 * and each tool call is recorded for Recent Errors and API Usage as `MCP /mcp/v1/tools/{name}` with
 * the status and code its operation answered. A failed call is a tool error (`isError`) whose text is
 * the API's problem: code, message, status, violations and request id.
 *
 * The SDK's low-level Server is used rather than McpServer because the tools bring their own JSON
 * Schemas (written from the API's zod contract, as the OpenAPI document is) and read their own
 * arguments, answering a bad one with the API's violations instead of the SDK's message.
 */
import type { Logger } from "@countersign/kit";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import express, { type Request, type Response, type Router } from "express";
import type { KeyVerifier } from "../key-verifier.js";
import type { ApiCallRecorder, CallOutcome } from "../middleware/api-call-recorder.js";
import { authenticate, spendCalls } from "../middleware/authenticate.js";
import { API_VERSION } from "../openapi.js";
import { ApiProblem, toProblem } from "../problems.js";
import { actorOf } from "../public-api.js";
import type { RateLimiter } from "../rate-limiter.js";
import type { Tool, ToolContext } from "./tools.js";

export const MCP_BASE = "/mcp/v1";

const INSTRUCTIONS = `Countersign sends documents for electronic signature. The usual flow: list_templates (or upload_document), create_signature_request with one recipient per template role, send_signature_request (or send: true), then follow it with get_signature_request; once it is completed, download_document with its signedDocumentId. Ids are UUIDs from earlier answers. A failed call answers isError with the API's error code (not_found, validation_failed with one entry per bad argument, invalid_state, rate_limited, …) and message.`;

export interface McpEndpointOptions {
  tools: Tool[];
  verifier: KeyVerifier;
  limiter: RateLimiter;
  recorder: ApiCallRecorder;
  logger: Logger;
  /** The largest JSON-RPC body: an upload's base64 and its envelope. */
  bodyLimitBytes: number;
}

/** How many tool calls a POST carries: one JSON-RPC message, or a batch of them. */
function toolCallsIn(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => (m as { method?: unknown } | null)?.method === "tools/call").length;
}

export function mcpEndpoint(options: McpEndpointOptions): Router {
  const { tools, verifier, limiter, recorder, logger, bodyLimitBytes } = options;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = tools.map(({ run: _run, ...described }) => described);
  const router = express.Router();

  router.use(authenticate(verifier, limiter));
  router.post("/", express.json({ limit: bodyLimitBytes }), async (req: Request, res: Response) => {
    res.locals.route = MCP_BASE;
    // authenticate took one call; a batch of tool calls takes the rest before any of them runs.
    const extra = toolCallsIn(req.body) - 1;
    if (extra > 0) spendCalls(limiter, res, extra);

    const context: ToolContext = { workspaceId: res.locals.caller.workspaceId, actor: actorOf(req, res) };
    const server = new Server(
      { name: "countersign", title: "Countersign", version: API_VERSION },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
      const tool = byName.get(params.name);
      if (!tool)
        throw new McpError(ErrorCode.InvalidParams, `there is no tool ${params.name}: tools/list names them`);
      const startedAt = performance.now();
      const recordAs = (outcome: Omit<CallOutcome, "durationMs">) =>
        recorder.recordToolCall(res, `${MCP_BASE}/tools/${tool.name}`, {
          ...outcome,
          durationMs: performance.now() - startedAt,
        });
      try {
        const reply = await tool.run(params.arguments ?? {}, context);
        recordAs({ status: reply.status, code: "" });
        return {
          content: [{ type: "text", text: JSON.stringify(reply.body) }, ...(reply.attachments ?? [])],
          structuredContent: reply.body,
        };
      } catch (err) {
        const requestId = res.locals.requestId as string;
        const { problem, headers } = toProblem(err, requestId);
        if (problem.status >= 500 && problem.code !== "unavailable") {
          logger.error({ err, requestId, tool: tool.name }, "tool call failed");
        }
        recordAs({ status: problem.status, code: problem.code });
        const retryAfter = headers["Retry-After"];
        const error = {
          code: problem.code,
          message: problem.detail,
          status: problem.status,
          ...(problem.errors.length > 0 ? { errors: problem.errors } : {}),
          ...(retryAfter ? { retryAfterSeconds: Number(retryAfter) } : {}),
          requestId,
        };
        return { isError: true, content: [{ type: "text", text: JSON.stringify({ error }) }] };
      }
    });

    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: there is no session to open a stream on (GET) or to end (DELETE).
  router.all("/", () => {
    throw new ApiProblem(
      "method_not_allowed",
      "this MCP endpoint is stateless: send each JSON-RPC message with POST",
      undefined,
      { Allow: "POST" },
    );
  });
  return router;
}
