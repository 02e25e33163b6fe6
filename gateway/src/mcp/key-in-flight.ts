/**
 * How many MCP requests one key has in the works at once (docs/mcp.md): the rate limit counts calls
 * as they arrive, not the work they leave running, and 32 posts at once from one key once held
 * every other caller's answers for 26 s. Past the limit a request waits briefly for a turn, before
 * its body is read; past the wait, or behind too many others, it is refused with 429 and Retry-After.
 */
import type { NextFunction, Request, Response } from "express";
import type { Caller } from "../key-verifier.js";
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

interface KeyState {
  running: number;
  queue: (() => void)[];
}

export class KeyInFlight {
  private readonly keys = new Map<string, KeyState>();

  constructor(private readonly options: KeyInFlightOptions = DEFAULT_KEY_IN_FLIGHT) {}

  /** Middleware: a turn for the authenticated caller's key, given back when the response closes. */
  admit() {
    return async (_req: Request, res: Response, next: NextFunction) => {
      const { keyId } = res.locals.caller as Caller;
      // A caller may hang up while it waits: its turn, once given, is given back at once.
      let admitted = false;
      let closed = false;
      res.once("close", () => {
        closed = true;
        if (admitted) this.leave(keyId);
      });
      await this.enter(keyId);
      admitted = true;
      if (closed) this.leave(keyId);
      else next();
    };
  }

  private async enter(key: string): Promise<void> {
    const state = this.keys.get(key) ?? { running: 0, queue: [] };
    this.keys.set(key, state);
    if (state.running < this.options.limit) {
      state.running += 1;
      return;
    }
    if (state.queue.length >= this.options.waiting) throw busy(this.options.limit);
    await new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        state.queue.splice(state.queue.indexOf(turn), 1);
        reject(busy(this.options.limit));
      }, this.options.waitMs);
      state.queue.push(turn);
    });
  }

  /** The turn goes to the request waiting longest, or back to the key. */
  private leave(key: string): void {
    const state = this.keys.get(key);
    if (!state) return;
    const waiting = state.queue.shift();
    if (waiting) {
      waiting();
      return;
    }
    state.running -= 1;
    if (state.running === 0) this.keys.delete(key);
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
