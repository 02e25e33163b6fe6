/**
 * The context of the call being served: its request id, and the signal that ends it when the
 * caller gives up or its deadline passes. It follows the work through async code so that logs
 * carry the request id and outgoing calls inherit the remaining deadline.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export interface CallContext {
  requestId: string;
  /** Epoch milliseconds by which the call must be answered, when the caller set a deadline. */
  deadline?: number;
  signal?: AbortSignal;
  /**
   * The client's key for this one operation (from its Idempotency-Key), for a service call that
   * creates something to record, so that a retry whose first answer was lost finds what the first
   * made instead of making it again.
   */
  operationKey?: string;
  /**
   * Whose data the call works on, once its caller is known: a test key's calls make and see only test
   * data, a live key's only live data. Absent for calls made for no one (a signer's link, a worker),
   * which see both.
   */
  dataMode?: DataMode;
}

export type DataMode = "live" | "test";

export const DATA_MODE_HEADER = "countersign-data-mode";

/** The data mode a header names; anything else is no mode at all. */
export function acceptDataMode(value: string | null | undefined): DataMode | undefined {
  return value === "live" || value === "test" ? value : undefined;
}

const storage = new AsyncLocalStorage<CallContext>();

export function runWithCallContext<T>(context: CallContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentCallContext(): CallContext | undefined {
  return storage.getStore();
}

/**
 * Sets the data mode of the call being served, once its caller is known (the gateway, after it has
 * checked the key); the calls it makes from then on carry it.
 */
export function enterDataMode(mode: DataMode): void {
  const context = storage.getStore();
  if (context) context.dataMode = mode;
}

/** Runs `fn` as a call of `mode` would run: a worker doing what a caller asked for. */
export function inDataMode<T>(mode: DataMode, fn: () => T): T {
  return storage.run({ ...(storage.getStore() ?? { requestId: randomUUID() }), dataMode: mode }, fn);
}

export const REQUEST_ID_HEADER = "x-request-id";

/** A request id from outside is kept when it is short and printable, otherwise replaced. */
export function acceptRequestId(value: string | null | undefined): string {
  return value && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : randomUUID();
}
