/** A process that installs the fault handlers, then leaves a rejection or an exception unhandled. */
import { createLogger } from "../src/logger.js";
import { exitOnProcessFaults } from "../src/process-faults.js";

exitOnProcessFaults(createLogger({ name: "faulty" }));
const fault = process.argv[2];
setTimeout(() => {
  if (fault === "rejection") void Promise.reject(new Error("nobody handles this"));
  else throw new Error("nobody catches this");
}, 10);
// Without the handlers this timer would keep the process alive, serving in an unknown state.
setInterval(() => {}, 1000);
