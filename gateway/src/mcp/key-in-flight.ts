/**
 * How many MCP requests one key has in the works at once (docs/mcp.md): the rate limit counts calls
 * as they arrive, not the work they leave running, and 32 posts at once from one key once held
 * every other caller's answers for 26 s. Past the limit a request waits briefly for a turn, before
 * its body is read; past the wait, or behind too many others, it is refused with 429 and Retry-After.
 * The queue is the gateway's admission gate, one per key.
 */
import type { NextFunction, Request, Response } from "express";
import type { Caller } from "../key-verifier.js";
import { AdmissionGate } from "../middleware/admission.js";
import { ApiProblem } from "../problems.js";

export interface KeyInFlightOptions {
  /** Requests of one key worked on at once. */
  limit: number;
  /** How long a request past the limit waits for a turn. */
  waitMs: number;
  /** Requests of one key that may wait; more are refused at once. */
  waiting: number;
}

export const DEFAULT_KEY_IN_FLIGHT: KeyInFlightOptions = { limit: 4, waitMs: 2_000, waiting: 8 };

/** One admission gate per key with requests in the works, dropped once the key has none. */
export class KeyInFlight {
  private readonly gates = new Map<string, AdmissionGate>();

  constructor(private readonly options: KeyInFlightOptions = DEFAULT_KEY_IN_FLIGHT) {}

  /** Middleware: a turn for the authenticated caller's key, given back when the response closes. */
  admit() {
    return (_req: Request, res: Response, next: NextFunction) => {
      const { keyId } = res.locals.caller as Caller;
      const gate = this.gateOf(keyId);
      let admitted = false;
      const leaveQueue = gate.enter(
        () => {
          admitted = true;
          next();
        },
        () => next(busy(this.options.limit)),
      );
      // A caller may hang up while it waits: it leaves the queue; once admitted, its turn is given back.
      res.once("close", () => {
        if (!admitted) return leaveQueue();
        gate.leave();
        if (gate.active === 0 && gate.queued === 0) this.gates.delete(keyId);
      });
    };
  }

  private gateOf(key: string): AdmissionGate {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = new AdmissionGate({
        concurrent: this.options.limit,
        queued: this.options.waiting,
        maxWaitMs: this.options.waitMs,
      });
      this.gates.set(key, gate);
    }
    return gate;
  }
}

function busy(limit: number): ApiProblem {
  return new ApiProblem(
    "rate_limited",
    `this key has ${limit} MCP requests in the works already; send the next when one is answered`,
    undefined,
    { "Retry-After": "1" },
  );
}
