/**
 * Console passwords, hashed with Argon2id at OWASP's first recommendation (19 MiB, t=2, p=1) in a
 * job process of their own (password-hash-worker.mjs), so that the 90 ms of a hash never hold the
 * service's event loop. Hashes made before are scrypt (N=2^15, r=8, p=1): they still verify, and a
 * log-in that verifies one, or an Argon2id hash with other parameters, is told to store a new hash.
 */
import { scrypt, timingSafeEqual } from "node:crypto";
import { JobProcess } from "@countersign/kit";

/** The encoded parameters of a current hash: `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`. */
const CURRENT = "$argon2id$v=19$m=19456,t=2,p=1$";

type Job = { hash: string } | { verify: string; encoded: string };

export interface Verified {
  ok: boolean;
  /** The hash was made with older parameters (or scrypt): store a new one while the password is known. */
  rehash: boolean;
}

export class Passwords {
  private readonly hasher = new JobProcess<Job, string | boolean>(
    new URL("./password-hash-worker.mjs", import.meta.url),
    { timeoutMs: 10_000, idleMs: 5 * 60_000, maxHeapMb: 64 },
  );

  async hash(password: string): Promise<string> {
    return (await this.hasher.run({ hash: password })) as string;
  }

  async verify(password: string, stored: string): Promise<Verified> {
    if (stored.startsWith("$argon2id$")) {
      const ok = (await this.hasher.run({ verify: password, encoded: stored })) as boolean;
      return { ok, rehash: ok && !stored.startsWith(CURRENT) };
    }
    const ok = await verifyScrypt(password, stored);
    return { ok, rehash: ok };
  }

  /** Ends the hashing process (the service is stopping). */
  close(): void {
    this.hasher.close();
  }
}

function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return Promise.resolve(false);
  const expected = Buffer.from(hash, "base64");
  const N = Number(n);
  const R = Number(r);
  return new Promise((resolve, reject) =>
    scrypt(
      password,
      Buffer.from(salt, "base64"),
      expected.length,
      { N, r: R, p: Number(p), maxmem: 256 * N * R },
      (err, key) =>
        err ? reject(err) : resolve(key.length === expected.length && timingSafeEqual(key, expected)),
    ),
  );
}

/**
 * Checked against when the email is unknown, so that a wrong email takes as long as a wrong
 * password: a current hash of a password nobody has.
 */
export const UNKNOWN_USER_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$AAAAAAAAAAAAAAAAAAAAAA$qu7YaNBUVdA7W90s0oDV3Q/BGYy/YVhx+BlWYiF8kZ8";
