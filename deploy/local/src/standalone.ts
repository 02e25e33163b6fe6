/**
 * `npm start`: Countersign in one process on a machine with only Node and npm. The data directory
 * is taken first, before the services' modules load (one to three seconds), so that a second
 * process started on it says at once that it waits and for whom; then standalone-app.ts reads the
 * configuration and starts everything.
 */
import { resolve } from "node:path";
import { env, runMain } from "@countersign/kit/config.js";
import { createLogDestination, createLogger } from "@countersign/kit/logger.js";
import { holdDataDir } from "./data-dir-lock.js";

runMain(async () => {
  const started = performance.now();
  const destination = createLogDestination();
  // The configuration is validated once the app is loaded; until then, a level it would refuse is "info".
  const level = env.logLevel().catch("info").parse(process.env.LOG_LEVEL);
  const log = createLogger({ name: "standalone", level, destination });
  const lock = await holdDataDir(resolve(process.env.COUNTERSIGN_DATA_DIR || "./data"), log);
  try {
    const { runStandalone } = await import("./standalone-app.js");
    await runStandalone({ lock, destination, started });
  } catch (err) {
    await lock.release();
    throw err;
  }
});
