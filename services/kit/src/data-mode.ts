/**
 * Test and live data kept apart by the call's data mode (the gateway sets it from the caller's key;
 * see CallContext.dataMode): what a call makes is of its mode, and what it reads by workspace is
 * only of its mode. A call made for no one — a signer's link, a worker — has no mode and sees both.
 * A table whose rows have a mode keeps it in a boolean column (`test`).
 */
import { currentCallContext } from "./context.js";

/** Whether what the call makes is test data. */
export function callIsTest(): boolean {
  return currentCallContext()?.dataMode === "test";
}

/**
 * The condition (" AND <column> = true|false", or nothing) that keeps a workspace read to the call's
 * mode. The value is one of two literals, never the caller's text.
 */
export function inCallMode(column: string): string {
  const mode = currentCallContext()?.dataMode;
  return mode === undefined ? "" : ` AND ${column} = ${mode === "test" ? "true" : "false"}`;
}
