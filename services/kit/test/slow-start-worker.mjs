// @ts-check
/**
 * busy-worker.mjs behind a start that holds the process for 600 ms, as loading a parser's modules
 * does on a loaded machine.
 */
const until = Date.now() + 600;
while (Date.now() < until);
await import("./busy-worker.mjs");
