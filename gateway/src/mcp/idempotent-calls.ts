/**
 * An idempotency key on a write tool (docs/mcp.md), the MCP face of the API's Idempotency-Key: the
 * first call with a key runs and its result is kept in auth, per workspace, beside the HTTP API's
 * answers; the same key and arguments within 24 hours answer that result again, marked
 * `_meta["countersign/idempotentReplayed"]`, and do nothing again; the same key with other
 * arguments, or for another tool, is a validation_failed tool error. A call that arrives while the
 * first still runs waits for its result. A failure on our side (5xx) is not kept, so a retry runs.
 */
import { createHash } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import {
  type AuthService,
  StoredResponseSchema,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { currentCallContext, type Logger, runWithCallContext } from "@countersign/kit";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import canonicalize from "canonicalize";
import {
  claimIdempotencyKey,
  type IdempotencyClaim,
  keyInMode,
  operationKeyOf,
} from "../middleware/idempotency.js";
import { IDEMPOTENCY_ARGUMENT } from "./write-options.js";

/** Where a replayed result says it is one. */
export const REPLAYED_META = "countersign/idempotentReplayed";

/** A tool call's result, with the status and problem code ("" when it succeeded) its operation answered. */
export interface ToolOutcome {
  status: number;
  code: string;
  result: CallToolResult;
}

export interface IdempotentCallsOptions {
  /** How long a call waits for an earlier one with the same key before it is a conflict. */
  waitMs?: number;
  /** How long a claim holds if this gateway dies before the call ends. */
  claimSeconds?: number;
}

export class IdempotentCalls {
  private readonly waitMs: number;
  private readonly claimSeconds: number;

  constructor(
    private readonly auth: Client<typeof AuthService>,
    private readonly logger: Logger,
    options: IdempotentCallsOptions = {},
  ) {
    this.waitMs = options.waitMs ?? 10_000;
    this.claimSeconds = options.claimSeconds ?? 60;
  }

  /** Runs the call once for `key` and these arguments of `tool`, or answers the result it had. */
  async once(
    workspaceId: string,
    tool: string,
    key: string,
    args: Record<string, unknown>,
    run: () => Promise<ToolOutcome>,
  ): Promise<ToolOutcome> {
    let written: string | undefined;
    try {
      written = canonicalize(args);
    } catch {
      // Arguments canonicalization cannot write (a lone surrogate) no schema takes: refused each time.
      return run();
    }
    const fingerprint = createHash("sha256")
      .update(`MCP\n${tool}\n${written ?? "null"}`)
      .digest("hex");
    const claim: IdempotencyClaim = {
      workspaceId,
      key: keyInMode(key),
      fingerprint,
      claimSeconds: this.claimSeconds,
    };
    const stored = await claimIdempotencyKey(this.auth, claim, this.waitMs, IDEMPOTENCY_ARGUMENT);
    if (stored) {
      const { code, result } = JSON.parse(Buffer.from(stored.body).toString("utf8")) as Omit<
        ToolOutcome,
        "status"
      >;
      return {
        status: stored.status,
        code,
        result: { ...result, _meta: { ...result._meta, [REPLAYED_META]: true } },
      };
    }
    // As over HTTP, the service that creates something finds what a lost first run made by this key.
    const context = currentCallContext();
    const operationKey = operationKeyOf(claim);
    const outcome = await (context
      ? runWithCallContext({ ...context, signal: undefined, operationKey }, run)
      : run()
    ).catch(async (err: unknown) => {
      await this.auth.releaseIdempotencyKey(claim).catch(() => undefined);
      throw err;
    });
    try {
      if (outcome.status < 500) {
        const body = Buffer.from(JSON.stringify({ code: outcome.code, result: outcome.result }));
        await this.auth.completeIdempotencyKey({
          ...claim,
          response: create(StoredResponseSchema, {
            status: outcome.status,
            contentType: "application/json",
            body,
          }),
        });
      } else {
        await this.auth.releaseIdempotencyKey(claim);
      }
    } catch (err) {
      this.logger.warn({ err, tool }, "the idempotency record of a tool call failed");
    }
    return outcome;
  }
}
