/**
 * The V8 flags every Countersign process needs, whoever starts it: `npm start`, `npm test`, the
 * image's containers, the local launcher, the job processes the services fork.
 *
 * `--no-wasm-code-gc`: Node 24.21's V8 (13.6) can free a WebAssembly import wrapper twice when its
 * garbage collection of dead wasm code races a wrapper's tier-up (nodejs/node#66366, fixed in V8
 * 9b8ca54d5a and not yet in a 24.x release). The process then aborts on the spot — `Check failed:
 * jit_page_->allocations_.erase(addr) == 1` — beyond any handler. Our WebAssembly is PGlite (the
 * standalone database), hash-wasm (passwords) and undici's HTTP parser; CI saw the abort while
 * embedded clusters were opened and closed. Without that collection, code a module no longer uses
 * is freed with the module, not before. The flag is accepted only on the command line (Node
 * refuses it in NODE_OPTIONS, and setting V8 flags at run time is documented as unpredictable).
 */
import type { Logger } from "./logger.js";

export const NODE_FLAGS = ["--no-wasm-code-gc"];

/** The flags of NODE_FLAGS that `execArgv` (a process's own Node flags) lacks. */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}

/** Says at start, once, that the process was started without the flags and what that risks. */
export function warnWithoutNodeFlags(logger: Logger, execArgv: readonly string[] = process.execArgv): void {
  const missing = missingNodeFlags(execArgv);
  if (missing.length === 0) return;
  logger.warn(
    { missing },
    `node was started without ${missing.join(" ")}: on Node 24 a WebAssembly module (the embedded database, password hashing) can abort the process (nodejs/node#66366); start node with ${NODE_FLAGS.join(" ")}`,
  );
}
