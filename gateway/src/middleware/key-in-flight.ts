/**
 * How many requests one key has in the works at once. The rate limit counts calls as they arrive, not
 * the work they leave running, and the gateway's admission gate (admission.ts) runs before the key is
 * known: one key's slow requests (large downloads and uploads, conversions; 32 MCP posts at once
 * once held every other caller's answers for 26 s) could take every place and leave other workspaces
 * waiting or refused. Past its limit a key's request waits briefly for a turn, before its body is
 * read; past the wait, or behind too many others, it is refused at once with 429 and Retry-After. So
 * one key holds at most `concurrent` + `queued` of the gateway's places. The queue is the admission
 * gate's, one per key.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { budgetOf, type Caller } from "../key-verifier.js";
import { ApiProblem } from "../problems.js";
import { AdmissionGate, type AdmissionLimits, DEFAULT_KEY_IN_FLIGHT } from "./admission.js";

/** What a refused request hears, given the limit: a surface may name the requests it counts. */
export type KeyInFlightRefusal = (limit: number) => string;

const inTheWorks: KeyInFlightRefusal = (limit) =>
  `this key has ${limit} requests in the works already; send the next when one is answered`;

/** One admission gate per key with requests in the works, dropped once the key has none. */
export class KeyInFlight {
  private readonly gates = new Map<string, AdmissionGate>();

  /** `limits` are per key: `concurrent` worked on at once, `queued` waiting up to `maxWaitMs`. */
  constructor(
    private readonly limits: AdmissionLimits = DEFAULT_KEY_IN_FLIGHT,
    private readonly refusal: KeyInFlightRefusal = inTheWorks,
  ) {}

  /** Middleware: a turn for the authenticated caller's key, given back when the response closes. */
  admit(): RequestHandler {
    return (_req: Request, res: Response, next: NextFunction) => {
      const keyId = budgetOf(res.locals.caller as Caller);
      const gate = this.gateOf(keyId);
      let admitted = false;
      const leaveQueue = gate.enter(
        () => {
          admitted = true;
          next();
        },
        () =>
          next(
            new ApiProblem("rate_limited", this.refusal(this.limits.concurrent), undefined, {
              "Retry-After": "1",
            }),
          ),
      );
      // A caller may hang up while it waits: it leaves the queue; once admitted, its turn is given back.
      res.once("close", () => {
        if (!admitted) return leaveQueue();
        gate.leave();
        if (gate.active === 0 && gate.queued === 0) this.gates.delete(keyId);
      });
    };
  }

  private gateOf(keyId: string): AdmissionGate {
    let gate = this.gates.get(keyId);
    if (!gate) {
      gate = new AdmissionGate(this.limits);
      this.gates.set(keyId, gate);
    }
    return gate;
  }
}
