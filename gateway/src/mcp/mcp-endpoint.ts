/**
 * The tool endpoint for AI assistants (docs/design.md §8): MCP over Streamable HTTP at /mcp/v1, stateless —
 * every POST is a whole exchange answered as JSON, so any gateway replica can take any request and
 * nothing is kept between them.
 *
 * It is the public API by another door, with the same rules: the bearer key is checked before any
 * MCP message is read (401 for a missing, unknown or deleted key, 403 without API access); a key
 * has fewer POSTs worked on at once than requests at the API's other doors (MCP_KEY_IN_FLIGHT); a
 * POST takes one call from the key's rate limit per message it carries, all at once or none (429),
 * and a batch holds a bounded number of messages whose answers are bounded together
 * (batch-bounds.ts); bodies are held to the API's JSON limit, except a single `upload_document`
 * call, which may carry a whole file as base64. Each tool call is recorded for Recent Errors and
 * API Usage as `MCP /mcp/v1/tools/{name}` with the status and code its operation answered, under an
 * id of its own, and every other message as `MCP /mcp/v1/{method}` (message-records.ts). A failed
 * call is a tool error (`isError`) whose text is the API's problem: code, message, status,
 * violations and that id.
 *
 * The SDK's low-level Server is used rather than McpServer because the tools bring their own JSON
 * Schemas (written from the API's zod contract, as the OpenAPI document is) and read their own
 * arguments, answering a bad one with the API's violations instead of the SDK's message.
 */
import { proposes } from "@countersign/domain";
import { formatBytes, type Logger, uuidv7 } from "@countersign/kit";
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
import { requireScopesFor, scopeSentence, scopesOf } from "../contract/scope-requirements.js";
import type { Caller, KeyVerifier } from "../key-verifier.js";
import type { AdmissionLimits } from "../middleware/admission.js";
import type { ApiCallRecorder } from "../middleware/api-call-recorder.js";
import { requireKey, spendCalls } from "../middleware/authenticate.js";
import { type BodyBudget, budgetedJson } from "../middleware/body-budget.js";
import { KeyInFlight } from "../middleware/key-in-flight.js";
import { API_VERSION } from "../openapi.js";
import { ApiProblem, toProblem } from "../problems.js";
import { actorOf } from "../public-api.js";
import type { RateLimiter } from "../rate-limiter.js";
import { AnswerBudget, MAX_ANSWER_BYTES, MAX_BATCH_MESSAGES, messagesIn } from "./batch-bounds.js";
import type { IdempotentCalls, ToolOutcome } from "./idempotent-calls.js";
import { recordMessages } from "./message-records.js";
import { type Tool, writes } from "./tools.js";
import { DRY_RUN_META, takeWriteOptions, withWriteOptions } from "./write-options.js";

export const MCP_BASE = "/mcp/v1";

/**
 * A key's MCP posts worked on at once, apart from its other requests and fewer: a batch of 20 tool
 * calls is one post, and 32 posts at once once held every other caller's answers for 26 s.
 */
export const MCP_KEY_IN_FLIGHT: AdmissionLimits = { concurrent: 4, queued: 8, maxWaitMs: 2_000 };

const mcpInTheWorks = (limit: number) =>
  `this key has ${limit} MCP requests in the works already; send the next when one is answered`;

/** Said beside a request an agent's key proposed, so that the assistant tells its user. */
const AWAITING_NOTE =
  "Not sent: this API key proposes, so the request awaits a person's approval (status awaiting_approval). An Organization Admin or the workspace's approver approves or rejects it in the Countersign console; get_signature_request shows the decision.";

/** Said beside a dry run's result, for an assistant that reads only the text. */
const DRY_RUN_NOTE =
  "Dry run: the call was checked as it would run and the result above is what it would answer; nothing was created, changed, sent or e-mailed.";

const INSTRUCTIONS = `Countersign sends documents for electronic signature. The usual flow: list_templates (or upload_document), create_signature_request with one recipient per template role, send_signature_request (or send: true), then follow it with get_signature_request; once it is completed, download_document with its signedDocumentId. Ids are UUIDs from earlier answers. Every tool that changes something takes an optional idempotencyKey: give each action a key of its own, and a retry with it (after a timeout, say) answers the first result instead of doing it twice. It also takes dryRun: true, which checks the call and answers what it would do without doing it — show your user that before you send anything. A failed call answers isError with the API's error code (not_found, validation_failed with one entry per bad argument, invalid_state, rate_limited, insufficient_scope naming the requiredScope the API key lacks, …) and message.`;

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
  /** How many requests of one key are worked on at once. */
  inFlight?: KeyInFlight;
}

type Message = { method?: unknown; params?: { name?: unknown } } | null;

/** The tool calls a POST carries: one JSON-RPC message, or a batch of them. */
function toolCallsIn(body: unknown): Message[] {
  return (messagesIn(body) as Message[]).filter((m) => m?.method === "tools/call");
}

/** A body past the JSON limit is refused unless it is one upload_document call and nothing else. */
function mayExceedJsonLimit(body: unknown): boolean {
  const [call] = toolCallsIn(body);
  return !Array.isArray(body) && call?.params?.name === "upload_document";
}

/** Where tools/list names the scopes a tool needs, besides its description. */
export const SCOPES_META = "countersign/scopes";

/**
 * A tool as tools/list describes it: the scopes it needs said to the assistant and, for programs,
 * in `_meta` (with what its arguments add, and whether an agent's key proposes).
 */
function listedTool(tool: Tool) {
  const { run: _run, needs, ...described } = tool;
  const conditional = (needs.conditionalScopes ?? []).map(({ when, scope }) => ({ when, scope }));
  return {
    ...described,
    description: `${described.description} ${scopeSentence(needs)} Without them the call answers insufficient_scope.`,
    inputSchema: writes(tool) ? withWriteOptions(described.inputSchema) : described.inputSchema,
    _meta: {
      [SCOPES_META]: [...scopesOf(needs)],
      ...(conditional.length > 0 ? { "countersign/conditionalScopes": conditional } : {}),
      ...(needs.proposable ? { "countersign/proposable": true } : {}),
    },
  };
}

export function mcpEndpoint(options: McpEndpointOptions): Router {
  const { tools, verifier, limiter, recorder, logger, jsonBodyBytes, uploadBytes, bodies, idempotency } =
    options;
  const inFlight = options.inFlight ?? new KeyInFlight(MCP_KEY_IN_FLIGHT, mcpInTheWorks);
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
  // A key's turn is taken before its body is read: a request that waits holds no body.
  router.post("/", inFlight.admit(), readJson, async (req: Request, res: Response) => {
    if ((res.locals.bodyBytes ?? 0) > jsonBodyBytes && !mayExceedJsonLimit(req.body)) {
      throw new ApiProblem(
        "payload_too_large",
        `the body (decompressed) is larger than ${jsonBodyBytes} bytes; only a single upload_document call may be larger`,
      );
    }
    const messages = messagesIn(req.body);
    if (messages.length > MAX_BATCH_MESSAGES) {
      // Refused before any of it runs, and for the price of one call.
      spendCalls(limiter, res, 1);
      res.status(400).json({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: ErrorCode.InvalidRequest,
          message: `Invalid Request: a batch may hold ${MAX_BATCH_MESSAGES} messages at most; this one holds ${messages.length}`,
        },
      });
      return;
    }
    // Each message is a call, whatever it asks: a batch of 20 costs what 20 requests would.
    spendCalls(limiter, res, Math.max(1, messages.length));
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
    const context = {
      workspaceId: caller.workspaceId,
      actor: actorOf(req, res),
      scopes: caller.scopes,
    };
    const server = new Server(
      { name: "countersign", title: "Countersign", version: API_VERSION },
      { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
    /** An agent's key just proposed this request (not a dry run, not someone reading it). */
    const proposed = (tool: Tool, body: Record<string, unknown>, dryRun: boolean) =>
      !dryRun &&
      tool.needs.proposable === true &&
      proposes(caller.scopes) &&
      body.status === "awaiting_approval";
    /** A tool's run, its failure answered as a tool error the assistant can read. */
    const runTool = async (
      tool: Tool,
      args: Record<string, unknown>,
      callId: string,
      dryRun: boolean,
    ): Promise<ToolOutcome> => {
      try {
        const reply = await tool.run(args, { ...context, dryRun });
        return {
          status: reply.status,
          code: "",
          result: {
            content: [
              { type: "text", text: JSON.stringify(reply.body) },
              ...(reply.attachments ?? []),
              ...(dryRun ? [{ type: "text" as const, text: DRY_RUN_NOTE }] : []),
              ...(proposed(tool, reply.body, dryRun) ? [{ type: "text" as const, text: AWAITING_NOTE }] : []),
            ],
            structuredContent: reply.body,
            ...(dryRun ? { _meta: { [DRY_RUN_META]: true } } : {}),
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
    // One POST's tool calls run one at a time, their answers held together to a size.
    const answers = new AnswerBudget();
    const answerFull = (callId: string, tool: Tool) =>
      failed(
        new ApiProblem(
          "payload_too_large",
          `the answers to this batch reached ${formatBytes(MAX_ANSWER_BYTES)}, so this call was not run: send it in a request of its own`,
        ),
        callId,
        tool,
      );
    const callTool = async (
      tool: Tool,
      args: Record<string, unknown>,
      callId: string,
    ): Promise<ToolOutcome> => {
      try {
        // Before anything is read, run or replayed, as for the HTTP API: what the arguments ask for too.
        requireScopesFor(caller, tool.needs, args);
        const { options, rest } = writes(tool)
          ? takeWriteOptions(args)
          : { options: { dryRun: false }, rest: args };
        const run = () => runTool(tool, rest, callId, options.dryRun);
        // A dry run does nothing a retry could repeat: it is not kept under its key.
        const { idempotencyKey } = options;
        return idempotencyKey && !options.dryRun
          ? await idempotency.once(caller.workspaceId, tool.name, idempotencyKey, rest, run)
          : await run();
      } catch (err) {
        return failed(err, callId, tool);
      }
    };
    server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
      const tool = byName.get(params.name);
      if (!tool)
        throw new McpError(ErrorCode.InvalidParams, `there is no tool ${params.name}: tools/list names them`);
      const startedAt = performance.now();
      // Calls of one batch share the HTTP request: each has an id of its own for Recent Errors.
      const callId = uuidv7();
      const outcome = await answers.run(
        () => callTool(tool, params.arguments ?? {}, callId),
        () => answerFull(callId, tool),
      );
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
    recordMessages(transport, res, recorder, MCP_BASE);
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
