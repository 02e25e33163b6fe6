/**
 * Admission under overload. At most `concurrent` requests are worked on at once; the next ones wait
 * in arrival order, so no request waits while later ones pass. Past `queued` waiting, or after
 * waiting `maxWaitMs`, a request is refused at once with 503 and Retry-After instead of joining a
 * queue without end: a client told to come back costs nothing, one left waiting holds a socket and
 * memory and, by the time it is served, has usually given up. Probes are never held back, so an
 * orchestrator does not restart a replica for being busy. The same gate, one per key, bounds each
 * key's share of the places (key-in-flight.ts); its variables are read here, beside the gateway's.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { z } from "zod";
import { ApiProblem } from "../problems.js";

export interface AdmissionLimits {
  concurrent: number;
  queued: number;
  maxWaitMs: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = { concurrent: 64, queued: 256, maxWaitMs: 5_000 };

/**
 * One key's requests to the public API and /restapi together (key-in-flight.ts): at most 16 of the
 * gateway's places, so that other workspaces are still served.
 */
export const DEFAULT_KEY_IN_FLIGHT: AdmissionLimits = { concurrent: 8, queued: 8, maxWaitMs: 2_000 };

/** A gate's three variables, read alike for the whole gateway and for one key. */
function limitVariables(defaults: AdmissionLimits) {
  return {
    concurrent: z.coerce.number().int().min(1).default(defaults.concurrent),
    queued: z.coerce.number().int().min(0).default(defaults.queued),
    maxWaitMs: z.coerce.number().int().min(1).default(defaults.maxWaitMs),
  };
}
const wholeGateway = limitVariables(DEFAULT_ADMISSION);
const perKey = limitVariables(DEFAULT_KEY_IN_FLIGHT);

/** The environment variables that set the limits, for every entry point that runs a gateway. */
export const admissionConfig = {
  COUNTERSIGN_MAX_CONCURRENT_REQUESTS: wholeGateway.concurrent.describe(
    "requests worked on at once; the next wait in arrival order",
  ),
  COUNTERSIGN_MAX_QUEUED_REQUESTS: wholeGateway.queued.describe(
    "requests that may wait; past that, 503 with `Retry-After` at once",
  ),
  COUNTERSIGN_MAX_QUEUE_WAIT_MS: wholeGateway.maxWaitMs.describe(
    "longest wait for a place before 503 with `Retry-After`",
  ),
  COUNTERSIGN_KEY_MAX_CONCURRENT_REQUESTS: perKey.concurrent.describe(
    "one key's requests worked on at once across `/v1`, `/api/v1` and `/restapi` (per replica; MCP has its own 4); the next wait in arrival order",
  ),
  COUNTERSIGN_KEY_MAX_QUEUED_REQUESTS: perKey.queued.describe(
    "one key's requests that may wait; past that, 429 `rate_limited` with `Retry-After` at once",
  ),
  COUNTERSIGN_KEY_MAX_QUEUE_WAIT_MS: perKey.maxWaitMs.describe(
    "longest wait of a key's request for a turn, before its body is read, then 429 with `Retry-After`",
  ),
};

/** The gateway's limits and one key's, from the variables `admissionConfig` read. */
export function admissionLimits(config: Record<keyof typeof admissionConfig, number>): {
  admission: AdmissionLimits;
  keyInFlight: AdmissionLimits;
} {
  return {
    admission: {
      concurrent: config.COUNTERSIGN_MAX_CONCURRENT_REQUESTS,
      queued: config.COUNTERSIGN_MAX_QUEUED_REQUESTS,
      maxWaitMs: config.COUNTERSIGN_MAX_QUEUE_WAIT_MS,
    },
    keyInFlight: {
      concurrent: config.COUNTERSIGN_KEY_MAX_CONCURRENT_REQUESTS,
      queued: config.COUNTERSIGN_KEY_MAX_QUEUED_REQUESTS,
      maxWaitMs: config.COUNTERSIGN_KEY_MAX_QUEUE_WAIT_MS,
    },
  };
}

/** Paths served whatever the load: the probes. */
const ALWAYS_ADMITTED = new Set(["/healthz", "/readyz", "/livez"]);

/** Seconds a refused client should wait: long enough for the queue to move, short for a person. */
const RETRY_AFTER_SECONDS = "2";

interface Waiter {
  admit(): void;
  refuse(reason: string): void;
}

/** The counting and the queue, without HTTP. */
export class AdmissionGate {
  private working = 0;
  private readonly waiting = new Set<Waiter>();

  constructor(private readonly limits: AdmissionLimits) {}

  get active(): number {
    return this.working;
  }

  get queued(): number {
    return this.waiting.size;
  }

  /**
   * Calls `admit` now or once a place is free, or `refuse` when the queue is full or the wait too
   * long; returns what removes the request from the queue if its client goes away first.
   */
  enter(admit: () => void, refuse: (reason: string) => void): () => void {
    if (this.working < this.limits.concurrent && this.waiting.size === 0) {
      this.working++;
      admit();
      return () => {};
    }
    if (this.waiting.size >= this.limits.queued) {
      refuse("too many requests are waiting");
      return () => {};
    }
    const timer = setTimeout(() => {
      this.waiting.delete(waiter);
      refuse("the request waited too long for a free place");
    }, this.limits.maxWaitMs);
    const waiter: Waiter = {
      admit: () => {
        clearTimeout(timer);
        admit();
      },
      refuse,
    };
    this.waiting.add(waiter);
    return () => {
      clearTimeout(timer);
      this.waiting.delete(waiter);
    };
  }

  /** A request admitted earlier is done: the longest-waiting one takes its place. */
  leave(): void {
    // A Set iterates in insertion order: the first is the one that has waited longest.
    const next = this.waiting.values().next();
    if (next.done) {
      this.working--;
      return;
    }
    this.waiting.delete(next.value);
    next.value.admit();
  }
}

export function admission(limits: AdmissionLimits, metrics: Registry): RequestHandler {
  const gate = new AdmissionGate(limits);
  new Gauge({
    name: "http_server_requests_active",
    help: "Requests being worked on",
    registers: [metrics],
    collect() {
      this.set(gate.active);
    },
  });
  new Gauge({
    name: "http_server_requests_queued",
    help: "Requests waiting for a place",
    registers: [metrics],
    collect() {
      this.set(gate.queued);
    },
  });
  const waited = new Histogram({
    name: "http_server_queue_wait_seconds",
    help: "Time admitted requests waited for a place",
    buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metrics],
  });
  const shed = new Counter({
    name: "http_server_requests_shed_total",
    help: "Requests refused with 503 because the gateway was at capacity",
    registers: [metrics],
  });

  return (req: Request, res: Response, next: NextFunction) => {
    if (ALWAYS_ADMITTED.has(req.path)) return next();
    const arrived = performance.now();
    let admitted = false;
    const cancel = gate.enter(
      () => {
        admitted = true;
        waited.observe((performance.now() - arrived) / 1000);
        next();
      },
      (reason) => {
        shed.inc();
        next(
          new ApiProblem(
            "unavailable",
            `the server is at capacity (${reason}); try again shortly`,
            undefined,
            {
              "Retry-After": RETRY_AFTER_SECONDS,
            },
          ),
        );
      },
    );
    // Finished, failed or abandoned by its client: its place goes to the next, or it leaves the queue.
    res.once("close", () => {
      if (admitted) gate.leave();
      else cancel();
    });
  };
}
