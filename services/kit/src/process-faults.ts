/**
 * A promise rejected with no one to handle it, or an exception thrown with no one to catch it,
 * leaves a process whose state nobody knows: a transaction half done, a lock never released, a
 * loop stopped. Such a process says so in its log and exits non-zero, so that its orchestrator
 * (Kubernetes, the local launcher) starts a fresh one; it does not limp on serving.
 */
import type { Logger } from "./logger.js";

/** How long the last log line may take to be written before the process exits anyway. */
const LAST_WORDS_MS = 2000;

export function exitOnProcessFaults(logger: Logger, exit: (code: number) => void = process.exit): void {
  let exiting = false;
  const fault = (kind: string) => (err: unknown) => {
    if (exiting) return;
    exiting = true;
    logger.fatal(
      { err, fault: kind },
      `${kind}: the process's state is unknown, so it exits to be restarted`,
    );
    setTimeout(() => exit(1), LAST_WORDS_MS).unref();
    logger.flush(() => exit(1));
  };
  process.on("unhandledRejection", fault("unhandled promise rejection"));
  process.on("uncaughtException", fault("uncaught exception"));
}
