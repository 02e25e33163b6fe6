// @ts-check
/**
 * The job process that runs Argon2id for passwords.ts: hash-wasm computes it in WebAssembly,
 * synchronously, about 90 ms a hash, which on the service's event loop would hold every other call
 * for as long. Each message is `{ id, job }`: `{ hash: password }` answers the encoded hash,
 * `{ verify: password, encoded }` whether the password matches it.
 */

import { randomBytes } from "node:crypto";
import { argon2id, argon2Verify } from "hash-wasm";

/** OWASP's first choice for Argon2id: 19 MiB, two passes, one lane. */
const PARAMETERS = { memorySize: 19456, iterations: 2, parallelism: 1, hashLength: 32 };

/** @param {{ hash?: string, verify?: string, encoded?: string }} job */
async function run(job) {
  if (job.hash !== undefined) {
    return argon2id({ password: job.hash, salt: randomBytes(16), ...PARAMETERS, outputType: "encoded" });
  }
  return argon2Verify({ password: job.verify ?? "", hash: job.encoded ?? "" });
}

process.on("message", ({ id, job }) => {
  run(job).then(
    (result) => process.send?.({ id, result }),
    (err) => process.send?.({ id, error: err instanceof Error ? err.message : String(err) }),
  );
});

process.send?.({ ready: true });
