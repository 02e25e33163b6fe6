/**
 * The tool endpoint for AI assistants (docs/design.md §8): MCP over Streamable HTTP at /mcp/v1, stateless —
 * every POST is a whole exchange answered as JSON, so any gateway replica can take any request and
 * nothing is kept between them.
 *
 * It is the public API by another door, with the same rules: the bearer key is checked before any
 * MCP message is read (401 for a missing, unknown or deleted key, 403 without API access); a POST
 * takes one call from the key's rate limit, or one per tool call when it carries several, all at
 * once or none (429); bodies are held to the API's JSON limit, except a single `upload_document`
 * call, which may carry a whole file as base64. Each tool call is recorded for Recent Errors and API
 * Usage as `MCP /mcp/v1/tools/{name}` with the status and code its operation answered, under an id of
 * its own. A failed call is a tool error (`isError`) whose text is the API's problem: code, message,
 * status, violations and that id.
 *
 * The SDK's low-level Server is used rather than McpServer because the tools bring their own JSON
 * Schemas (written from the API's zod contract, as the OpenAPI document is) and read their own
 * arguments, answering a bad one with the API's violations instead of the SDK's message.
 */
import { type Logger, uuidv7 } from "@countersign/kit";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { Caller, KeyVerifier } from "../key-verifier.js";
import type { ApiCallRecorder } from "../middleware/api-call-recorder.js";
import { requireKey, spendCalls } from "../middleware/authenticate.js";
import { type BodyBudget, budgetedJson } from "../middleware/body-budget.js";
import { API_VERSION } from "../openapi.js";
import { ApiProblem, requireScope, toProblem } from "../problems.js";
import { actorOf } from "../public-api.js";
import type { RateLimiter } from "../rate-limiter.js";
import {
  type IdempotentCalls,
  type ToolOutcome,
  takeIdempotencyKey,
  withIdempotencyArgument,
} from "./idempotent-calls.js";
import { type Tool, type ToolContext, writes } from "./tools.js";

export const MCP_BASE = "/mcp/v1";

const INSTRUCTIONS = `Countersign sends documents for electronic signature. The usual flow: list_templates (or upload_document), create_signature_request with one recipient per template role, send_signature_request (or send: true), then follow it with get_signature_request; once it is completed, download_document with its signedDocumentId. Ids are UUIDs from earlier answers. Every tool that changes something takes an optional idempotencyKey: give each action a key of its own, and a retry with it (after a timeout, say) answers the first result instead of doing it twice. A failed call answers isError with the API's error code (not_found, validation_failed with one entry per bad argument, invalid_state, rate_limited, insufficient_scope naming the requiredScope the API key lacks, …) and message.`;

export interface McpEndpointOptions {
  tools: Tool[];
  verifier: KeyVerifier;
  limiter: RateLimiter;
  recorder: ApiCallRecorder;
  logger: Logger;
  /** The API's limit on a JSON body, which holds for every MCP message but an upload. */
  jsonBodyBytes: number;
  /** The largest file upload_document takes, decoded. */
  uploadBytes: number;
  /** Memory for bodies, shared with the gateway's other routes. */
  bodies: BodyBudget;
  /** Where write tools' results are kept for their idempotency keys. */
  idempotency: IdempotentCalls;
}

type Message = { method?: unknown; params?: { name?: unknown } } | null;

/** The tool calls a POST carries: one JSON-RPC message, or a batch of them. */
function toolCallsIn(body: unknown): Message[] {
  const messages = (Array.isArray(body) ? body : [body]) as Message[];
  return messages.filter((m) => m?.method === "tools/call");
}

/** A body past the JSON limit is refused unless it is one upload_document call and nothing else. */
function mayExceedJsonLimit(body: unknown): boolean {
  const [call] = toolCallsIn(body);
  return !Array.isArray(body) && call?.params?.name === "upload_document";
}

/** Where tools/list names the scope a tool needs, besides its description. */
export const SCOPE_META = "countersign/scope";

/** A tool as tools/list describes it: the scope it needs said to the assistant and, for programs, in `_meta`. */
function listedTool(tool: Tool) {
  const { run: _run, scope, ...described } = tool;
  const needs = scope
    ? `Needs the API key scope ${scope}; without it the call answers insufficient_scope.`
    : "Any valid API key may call it.";
  return {
    ...described,
    description: `${described.description} ${needs}`,
    inputSchema: writes(tool) ? withIdempotencyArgument(described.inputSchema) : described.inputSchema,
    _meta: { [SCOPE_META]: scope },
  };
}

export function mcpEndpoint(options: McpEndpointOptions): Router {
  const { tools, verifier, limiter, recorder, logger, jsonBodyBytes, uploadBytes, bodies, idempotency } =
    options;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = tools.map(listedTool);
  const router = express.Router();

  // An upload's base64 is 4/3 of the file; the slack lets a file somewhat over the limit reach the
  // tool, which answers it as a tool error the assistant can read rather than as an HTTP 413.
  const readJson = budgetedJson(bodies, {
    limit: Math.ceil(uploadBytes / 3) * 4 + 1024 * 1024,
    verify: (_req, res, buffer) => {
      (res as Response).locals.bodyBytes = buffer.length;
    },
  });

  router.use((_req: Request, res: Response, next: NextFunction) => {
    res.locals.route = MCP_BASE;
    next();
  });
  router.use(requireKey(verifier));
  router.post("/", readJson, async (req: Request, res: Response) => {
    if ((res.locals.bodyBytes ?? 0) > jsonBodyBytes && !mayExceedJsonLimit(req.body)) {
      throw new ApiProblem(
        "payload_too_large",
        `the body (decompressed) is larger than ${jsonBodyBytes} bytes; only a single upload_document call may be larger`,
      );
    }
    spendCalls(limiter, res, Math.max(1, toolCallsIn(req.body).length));
    // JSON-RPC 2.0 makes an empty batch an invalid request; the SDK would take it for a batch of
    // nothing but notifications and answer 202. Answered as the SDK answers its invalid requests.
    if (Array.isArray(req.body) && req.body.length === 0) {
      res.status(400).json({
        jsonrpc: "2.0",
        id: null,
        error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: the batch is empty" },
      });
      return;
    }

    const caller = res.locals.caller as Caller;
    const context: ToolContext = {
      workspaceId: caller.workspaceId,
      actor: actorOf(req, res),
      scopes: caller.scopes,
    };
    const server = new Server(
      { name: "countersign", title: "Countersign", version: API_VERSION },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
    /** A tool's run, its failure answered as a tool error the assistant can read. */
    const runTool = async (
      tool: Tool,
      args: Record<string, unknown>,
      callId: string,
    ): Promise<ToolOutcome> => {
      try {
        const reply = await tool.run(args, context);
        return {
          status: reply.status,
          code: "",
          result: {
            content: [{ type: "text", text: JSON.stringify(reply.body) }, ...(reply.attachments ?? [])],
            structuredContent: reply.body,
          },
        };
      } catch (err) {
        return failed(err, callId, tool);
      }
    };
    const failed = (err: unknown, callId: string, tool: Tool): ToolOutcome => {
      const { problem, headers } = toProblem(err, callId);
      if (problem.status >= 500 && problem.code !== "unavailable") {
        logger.error({ err, requestId: res.locals.requestId, callId, tool: tool.name }, "tool call failed");
      }
      const retryAfter = headers["Retry-After"];
      const error = {
        code: problem.code,
        message: problem.detail,
        status: problem.status,
        ...(problem.errors.length > 0 ? { errors: problem.errors } : {}),
        ...(problem.requiredScope ? { requiredScope: problem.requiredScope } : {}),
        ...(retryAfter ? { retryAfterSeconds: Number(retryAfter) } : {}),
        requestId: callId,
      };
      return {
        status: problem.status,
        code: problem.code,
        result: { isError: true, content: [{ type: "text", text: JSON.stringify({ error }) }] },
      };
    };
    server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
      const tool = byName.get(params.name);
      if (!tool)
        throw new McpError(ErrorCode.InvalidParams, `there is no tool ${params.name}: tools/list names them`);
      const startedAt = performance.now();
      // Calls of one batch share the HTTP request: each has an id of its own for Recent Errors.
      const callId = uuidv7();
      let outcome: ToolOutcome;
      try {
        requireScope(caller, tool.scope);
        const args = params.arguments ?? {};
        const { key, rest } = writes(tool) ? takeIdempotencyKey(args) : { key: undefined, rest: args };
        const run = () => runTool(tool, rest, callId);
        outcome = key ? await idempotency.once(caller.workspaceId, tool.name, key, rest, run) : await run();
      } catch (err) {
        outcome = failed(err, callId, tool);
      }
      recorder.recordToolCall(res, callId, `${MCP_BASE}/tools/${tool.name}`, {
        status: outcome.status,
        code: outcome.code,
        durationMs: performance.now() - startedAt,
      });
      return outcome.result;
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
  router.all("/", (_req: Request, res: Response) => {
    spendCalls(limiter, res, 1);
    throw new ApiProblem(
      "method_not_allowed",
      "this MCP endpoint is stateless: send each JSON-RPC message with POST",
      undefined,
      { Allow: "POST" },
    );
  });
  return router;
}
