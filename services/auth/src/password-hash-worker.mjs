// @ts-check
/**
 * The job process that runs Argon2id for passwords.ts: hash-wasm computes it in WebAssembly,
 * synchronously, about 90 ms a hash, which on the service's event loop would hold every other call
 * for as long. A job `{ hash: password }` answers the encoded hash, `{ verify: password, encoded }`
 * whether the password matches it.
 */

import { randomBytes } from "node:crypto";
import { serveJobs } from "@countersign/kit/job-child.mjs";
import { argon2id, argon2Verify } from "hash-wasm";

/** OWASP's first choice for Argon2id: 19 MiB, two passes, one lane. */
const PARAMETERS = { memorySize: 19456, iterations: 2, parallelism: 1, hashLength: 32 };

/** @param {{ hash?: string, verify?: string, encoded?: string }} job */
async function run(job) {
  if (job.hash !== undefined) {
    return argon2id({ password: job.hash, salt: randomBytes(16), ...PARAMETERS, outputType: "encoded" });
  }
  const hash = job.encoded ?? "";
  // hash-wasm refuses an empty password. No account has one (validation.ts asks for at least 10 characters),
  // so it cannot match, but it costs a verification all the same: an empty password is refused as
  // slowly as a wrong one.
  if (!job.verify) return argon2Verify({ password: "\0", hash }).then(() => false);
  return argon2Verify({ password: job.verify, hash });
}

serveJobs(run);
