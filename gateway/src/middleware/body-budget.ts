/**
 * Memory for request bodies, bounded across every request a gateway reads at once rather than per
 * request: a JSON body is held as bytes, then as text, then parsed (a document in it as base64, then
 * as bytes), so it costs a few times its size until its handler is done. Each body that will be
 * held takes its cost from one budget before a byte is read — its declared length, or the route's
 * limit when it declares none or is compressed — and gives it back when its response closes. A body
 * that does not fit waits, first come first served, for a moment; past that it is refused with 503
 * and Retry-After (413 when it could never fit), and its bytes are never read.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { Gauge, type Registry } from "prom-client";
import { z } from "zod";
import { ApiProblem } from "../problems.js";

/**
 * What holding a JSON body costs, in multiples of its size: the bytes, the text, the parsed values and
 * what the handler decodes from them (test/body-memory.test.ts measured 4 to 5 for an envelope).
 */
export const JSON_COST = 5;
/** What holding an uploaded file whole costs: its pieces, then them joined. */
export const FILE_COST = 2;

/** Enough for the largest body a route takes (an upload's base64 and 1 MiB, at JSON_COST), alone. */
export const DEFAULT_BODY_MEMORY_BYTES = 176 * 1024 * 1024;

/** The environment variable that sets the budget, for every entry point that runs a gateway. */
export const bodyMemoryConfig = {
  COUNTERSIGN_BODY_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(8)
    .default(DEFAULT_BODY_MEMORY_BYTES / 1024 / 1024)
    .describe("memory for request bodies held at once, across requests; past it 503 with `Retry-After`"),
};

const RETRY_AFTER_SECONDS = "2";

interface Waiter {
  cost: number;
  admit(): void;
}

export class BodyBudget {
  private used = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly bytes: number,
    private readonly maxWaitMs = 5_000,
  ) {}

  get reserved(): number {
    return this.used;
  }

  /**
   * Takes `cost` bytes, now or once earlier bodies are done; resolves with what gives them back,
   * or rejects with the problem to answer.
   */
  take(cost: number): Promise<() => void> {
    if (cost > this.bytes) {
      return Promise.reject(
        new ApiProblem("payload_too_large", "the body is larger than this server reads at once"),
      );
    }
    let given = false;
    const release = () => {
      if (given) return;
      given = true;
      this.used -= cost;
      this.admitWaiting();
    };
    if (this.waiting.length === 0 && this.used + cost <= this.bytes) {
      this.used += cost;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        cost,
        admit: () => {
          clearTimeout(timer);
          this.used += cost;
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        this.admitWaiting();
        reject(
          new ApiProblem(
            "unavailable",
            "the server is reading other large bodies; try again shortly",
            undefined,
            { "Retry-After": RETRY_AFTER_SECONDS },
          ),
        );
      }, this.maxWaitMs);
      this.waiting.push(waiter);
    });
  }

  private admitWaiting(): void {
    while (this.waiting[0] && this.used + this.waiting[0].cost <= this.bytes) {
      (this.waiting.shift() as Waiter).admit();
    }
  }

  /** Reports the bytes taken in `registry` (refusals show as 503s and 413s in the HTTP metrics). */
  measure(registry: Registry): void {
    const budget = this;
    new Gauge({
      name: "http_server_body_bytes_reserved",
      help: "Memory reserved for request bodies being read or held",
      registers: [registry],
      collect() {
        this.set(budget.reserved);
      },
    });
  }
}

/** Whether the request carries a body: a length above zero, or one sent in chunks. */
export function hasBody(req: Request): boolean {
  return Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
}

/** The bytes a body may occupy once read: its declared length, or the limit when it declares none. */
function bodySize(req: Request, limitBytes: number): number {
  const declared = Number(req.headers["content-length"]);
  const encoded = (req.headers["content-encoding"] ?? "identity").toLowerCase() !== "identity";
  if (encoded || !Number.isFinite(declared)) return limitBytes;
  return Math.min(declared, limitBytes);
}

/** Takes the cost of holding the body from `budget`, before it is read, until the response closes. */
export async function holdBody(
  budget: BodyBudget,
  req: Request,
  res: Response,
  limitBytes: number,
  factor: number,
): Promise<void> {
  if (!hasBody(req)) return;
  const release = await budget.take(bodySize(req, limitBytes) * factor);
  res.once("close", () => {
    release();
    // Node keeps a connection's last request until the next one arrives on it: a kept-alive
    // connection would hold its parsed body, outside the budget, for as long as it stays open.
    req.body = undefined;
  });
}

/** holdBody as a middleware before the one that reads the body. */
export function reserveBody(budget: BodyBudget, limitBytes: number, factor: number): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    holdBody(budget, req, res, limitBytes, factor).then(() => next(), next);
  };
}

/** express.json within the budget. */
export function budgetedJson(
  budget: BodyBudget,
  options: Parameters<typeof express.json>[0] & { limit: number },
): RequestHandler {
  const reserve = reserveBody(budget, options.limit, JSON_COST);
  const parse = express.json(options);
  return (req, res, next) => {
    // A body of another type is not read here, so it holds nothing.
    if (!req.is("application/json")) return parse(req, res, next);
    reserve(req, res, (err?: unknown) => (err ? next(err) : parse(req, res, next)));
  };
}
