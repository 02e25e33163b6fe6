/**
 * `Idempotency-Key` on every POST of the public API (DESIGN §2): the first call with a key runs
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
import type { Logger } from "@countersign/kit";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Caller } from "../key-verifier.js";
import { ApiProblem } from "../problems.js";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const KEY = /^[\x20-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  /** How long a call waits for an earlier one with the same key before answering 409. */
  waitMs: number;
  /** How long a claim holds if this gateway dies before answering. */
  claimSeconds: number;
  /** The upload limit: a replayed upload is read to compare its bytes, never more than this. */
  uploadBytes: number;
}

const DEFAULTS: IdempotencyOptions = { waitMs: 10_000, claimSeconds: 60, uploadBytes: 25 * 1024 * 1024 };

/** Bodies the upload routes read as streams. */
const STREAMED_TYPES = ["multipart/form-data", "application/pdf"];

/**
 * What identifies a request under its key. A JSON body is in it; a streamed upload's bytes are not
 * known before they are read, so an upload is identified by its route, type and length here and by
 * its SHA-256 when a stored answer is about to be replayed.
 */
function fingerprintOf(req: Request, streamed: boolean): string {
  const hash = createHash("sha256").update(`${req.method}\n${req.originalUrl}\n`);
  if (streamed) hash.update(`${req.get("content-type") ?? ""}\n${req.get("content-length") ?? ""}`);
  else hash.update(JSON.stringify(req.body ?? null));
  return hash.digest("hex");
}

/** The SHA-256 of a body, or undefined past `limit` bytes. */
async function sha256Of(req: Request, limit: number): Promise<string | undefined> {
  const hash = createHash("sha256");
  let length = 0;
  for await (const chunk of req) {
    length += (chunk as Buffer).length;
    if (length > limit) return undefined;
    hash.update(chunk as Buffer);
  }
  return hash.digest("hex");
}

function mismatch(): ApiProblem {
  return new ApiProblem("validation_failed", "this Idempotency-Key was used for a different request", [
    { path: IDEMPOTENCY_HEADER, message: "was used for a different request in the last 24 hours" },
  ]);
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
    if (!KEY.test(key)) {
      throw new ApiProblem(
        "invalid_request",
        `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters`,
      );
    }
    const { workspaceId } = res.locals.caller as Caller;
    const streamed = Boolean(req.is(STREAMED_TYPES));
    const claim = { workspaceId, key, fingerprint: fingerprintOf(req, streamed), claimSeconds };

    const deadline = Date.now() + waitMs;
    for (;;) {
      const { outcome, response } = await auth.claimIdempotencyKey(claim);
      if (outcome === ClaimOutcome.CLAIMED) break;
      if (outcome === ClaimOutcome.MISMATCH) throw mismatch();
      if (outcome === ClaimOutcome.COMPLETED && response) {
        if (streamed && !(await sameUpload(req, response, uploadBytes))) throw mismatch();
        replay(res, response);
        return;
      }
      if (Date.now() > deadline) {
        throw new ApiProblem(
          "conflict",
          "a request with this Idempotency-Key is still being processed; retry shortly",
          undefined,
          { "Retry-After": "1" },
        );
      }
      await sleep(100);
    }
    recordAnswer(res, {
      // A failure on our side is not an answer to keep: the client may retry it.
      keep: async (answer) => {
        if (answer.status >= 500) await auth.releaseIdempotencyKey(claim);
        else await auth.completeIdempotencyKey({ ...claim, response: answer });
      },
      forget: async () => {
        await auth.releaseIdempotencyKey(claim);
      },
    }).catch((err: unknown) =>
      logger.warn({ err, requestId: res.locals.requestId }, "idempotency record failed"),
    );
    next();
  };
}

/** A stored answer to an upload is replayed only for the same bytes: its document's SHA-256. */
async function sameUpload(req: Request, stored: StoredResponse, limit: number): Promise<boolean> {
  const sha256 = await sha256Of(req, limit);
  if (sha256 === undefined) return false;
  if (stored.status >= 300) return true;
  const document = JSON.parse(new TextDecoder().decode(stored.body)) as { sha256?: string };
  return document.sha256 === sha256;
}

function replay(res: Response, stored: StoredResponse): void {
  res
    .status(stored.status)
    .set("Idempotent-Replayed", "true")
    .type(stored.contentType || "application/json")
    .send(Buffer.from(stored.body));
}

/**
 * Keeps the answer before it leaves, so that a retry arriving right after it finds it; when no
 * answer comes (the client went away first) the key is forgotten.
 */
function recordAnswer(
  res: Response,
  record: { keep: (answer: StoredResponse) => Promise<void>; forget: () => Promise<void> },
): Promise<void> {
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
      record
        .keep(answer)
        .then(resolve, reject)
        .finally(() => send(body));
      return res;
    }) as Response["send"];
    res.on("close", () => {
      if (settled) return;
      settled = true;
      record.forget().then(resolve, reject);
    });
  });
}

function bodyBytes(body: unknown): Uint8Array {
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  if (body === undefined || body === null) return new Uint8Array();
  return Buffer.from(JSON.stringify(body));
}
