/**
 * `Idempotency-Key` on every POST of the public API (docs/design.md §2): the first call with a key runs
 * and its answer is stored (in the auth service: gateways keep no state); the same key and request
 * within 24 hours gets that answer again with `Idempotent-Replayed: true`; the same key with another
 * request is a 422. Calls that arrive while the first still runs wait for its answer. Answers of 5xx
 * are not stored, so the client can retry.
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { create } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import {
  type AuthService,
  ClaimOutcome,
  type StoredResponse,
  StoredResponseSchema,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { currentCallContext, type Logger, runWithCallContext } from "@countersign/kit";
import canonicalize from "canonicalize";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Caller } from "../key-verifier.js";
import { ApiProblem } from "../problems.js";
import { readUpload, UPLOAD_TYPES } from "../upload-body.js";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  /** How long a call waits for an earlier one with the same key before answering 409. */
  waitMs: number;
  /** How long a claim holds if this gateway dies before answering. */
  claimSeconds: number;
  /** The upload limit: a replayed upload is read to compare its bytes, never more than this. */
  uploadBytes: number;
}

const DEFAULTS: IdempotencyOptions = { waitMs: 10_000, claimSeconds: 60, uploadBytes: 25 * 1024 * 1024 };

/**
 * What identifies a request under its key. A JSON body is in it, canonically (RFC 8785), so that
 * the order of its properties does not matter. A streamed upload's bytes are not known before they
 * are read, so an upload is identified by its route here and by its file's SHA-256 when a stored
 * answer is about to be replayed: the same file replays whatever multipart boundary carries it.
 * Undefined for a body JSON canonicalization cannot write (a lone surrogate, nesting too deep to
 * walk): no route accepts such a body, so it is refused the same way every time it is sent.
 */
function fingerprintOf(req: Request, streamed: boolean): string | undefined {
  let body = "upload";
  if (!streamed) {
    try {
      body = canonicalize(req.body ?? null) ?? "null";
    } catch {
      return undefined;
    }
  }
  return createHash("sha256").update(`${req.method}\n${req.originalUrl}\n${body}`).digest("hex");
}

/**
 * The client's key as the call's data mode keeps it: a test key's keys are apart from a live key's
 * of the same workspace, so that neither is answered what the other made. Hashed, to keep within
 * the length a key may have.
 */
export function keyInMode(key: string): string {
  return currentCallContext()?.dataMode === "test"
    ? `test:${createHash("sha256").update(key).digest("base64url")}`
    : key;
}

/** What a claim names: the client's key for a request of this fingerprint in this workspace. */
export interface IdempotencyClaim {
  workspaceId: string;
  key: string;
  fingerprint: string;
  claimSeconds: number;
}

/** The same key used for another request; `path` is where the key was given (a header, an argument). */
export function mismatch(path: string): ApiProblem {
  return new ApiProblem("validation_failed", `this ${path} was used for a different request`, [
    { path, message: "was used for a different request in the last 24 hours" },
  ]);
}

/**
 * Claims the key for a request about to run (undefined), or answers what the first request with it
 * answered; waits up to `waitMs` while that one still runs (then 409), and refuses the key when it
 * was used for another request (422 at `path`).
 */
export async function claimIdempotencyKey(
  auth: Client<typeof AuthService>,
  claim: IdempotencyClaim,
  waitMs: number,
  path: string,
): Promise<StoredResponse | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { outcome, response } = await auth.claimIdempotencyKey(claim);
    if (outcome === ClaimOutcome.CLAIMED) return undefined;
    if (outcome === ClaimOutcome.MISMATCH) throw mismatch(path);
    if (outcome === ClaimOutcome.COMPLETED && response) return response;
    if (Date.now() > deadline) {
      throw new ApiProblem(
        "conflict",
        `a request with this ${path} is still being processed; retry shortly`,
        undefined,
        { "Retry-After": "1" },
      );
    }
    await sleep(100);
  }
}

/** The key of an operation, which the service that creates something finds what an earlier run made by. */
export function operationKeyOf({ workspaceId, key, fingerprint }: IdempotencyClaim): string {
  return createHash("sha256").update(`${workspaceId}\n${key}\n${fingerprint}`).digest("hex");
}

export function idempotency(
  auth: Client<typeof AuthService>,
  logger: Logger,
  options: Partial<IdempotencyOptions> = {},
): RequestHandler {
  const { waitMs, claimSeconds, uploadBytes } = { ...DEFAULTS, ...options };
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (req.method !== "POST" || key === undefined) return next();
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw new ApiProblem(
        "invalid_request",
        `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters`,
      );
    }
    const { workspaceId } = res.locals.caller as Caller;
    const streamed = Boolean(req.is(UPLOAD_TYPES));
    const fingerprint = fingerprintOf(req, streamed);
    if (fingerprint === undefined) return next();
    const claim: IdempotencyClaim = { workspaceId, key: keyInMode(key), fingerprint, claimSeconds };

    const stored = await claimIdempotencyKey(auth, claim, waitMs, IDEMPOTENCY_HEADER);
    if (stored) {
      if (streamed && !(await sameUpload(req, res, stored, uploadBytes))) throw mismatch(IDEMPOTENCY_HEADER);
      replay(res, stored);
      return;
    }
    recordAnswer(res, async (answer) => {
      // Not answers to keep, so that a retry runs again: a failure on our side, a body that never
      // arrived whole, and a refused upload (the retry may carry another file under the same key).
      const keep = answer.status < 500 && req.complete && !(streamed && answer.status >= 300);
      if (keep) await auth.completeIdempotencyKey({ ...claim, response: answer });
      else await auth.releaseIdempotencyKey(claim);
    }).catch((err: unknown) =>
      logger.warn({ err, requestId: res.locals.requestId }, "idempotency record failed"),
    );
    // The work goes on when the client hangs up: it may commit, and the retry must find its answer
    // rather than do it again. Only the deadline ends it. Where an answer is lost all the same (a
    // gateway killed, a call cut mid-way, a 5xx that is not stored), the operation key lets the
    // service that creates something find what the first run made.
    const context = currentCallContext();
    const operationKey = operationKeyOf(claim);
    if (context) runWithCallContext({ ...context, signal: undefined, operationKey }, next);
    else next();
  };
}

/** A stored answer to an upload (always a 201) is replayed only for the same file: its document's SHA-256. */
async function sameUpload(
  req: Request,
  res: Response,
  stored: StoredResponse,
  limit: number,
): Promise<boolean> {
  const file = await readUpload(req, res, limit);
  const hash = createHash("sha256");
  let length = 0;
  try {
    for await (const chunk of file.bytes) {
      length += chunk.length;
      if (length > limit) return false;
      hash.update(chunk);
    }
  } catch (err) {
    throw file.failure() ?? err;
  }
  const document = JSON.parse(new TextDecoder().decode(stored.body)) as { sha256?: string };
  return document.sha256 === hash.digest("hex");
}

function replay(res: Response, stored: StoredResponse): void {
  res
    .status(stored.status)
    .set("Idempotent-Replayed", "true")
    .type(stored.contentType || "application/json")
    .send(Buffer.from(stored.body));
}

/**
 * Keeps the answer before it leaves, so that a retry arriving right after it finds it. Every request
 * ends in an answer — the error handler sends one too — so the key is held until then, even when
 * the client has gone; a gateway that dies meanwhile leaves a claim that lapses after claimSeconds.
 */
function recordAnswer(res: Response, keep: (answer: StoredResponse) => Promise<void>): Promise<void> {
  const send = res.send.bind(res);
  let settled = false;
  return new Promise<void>((resolve, reject) => {
    res.send = ((body?: unknown) => {
      if (settled) return send(body);
      settled = true;
      const answer = create(StoredResponseSchema, {
        status: res.statusCode,
        contentType: String(res.get("content-type") ?? ""),
        body: bodyBytes(body),
      });
      keep(answer)
        .then(resolve, reject)
        .finally(() => send(body));
      return res;
    }) as Response["send"];
  });
}

function bodyBytes(body: unknown): Uint8Array {
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  if (body === undefined || body === null) return new Uint8Array();
  return Buffer.from(JSON.stringify(body));
}
