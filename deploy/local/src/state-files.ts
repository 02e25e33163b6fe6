/**
 * What a standalone process keeps beside its data besides the database: its own secrets (made on
 * the first start, mode 0600), a lock so two processes never open the same PGlite files, and the
 * address and token of its loopback admin port for the ops CLI.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "@countersign/kit";
import { generateSealP12InBackground, type SealCredentials } from "@countersign/requests/seal-certificate.js";
import lockfile from "proper-lockfile";

export interface StandaloneSecrets {
  /** Key for hashing API key secrets. */
  keyPepper: string;
  /** Key signing-link tokens are derived with. */
  linkSecret: string;
  /** Password of the seal certificate made on first start (seal.p12 beside this file). */
  sealPassword: string;
  /** Key endpoint signing secrets are sealed with (COUNTERSIGN_WEBHOOK_SECRET_KEY). */
  webhookSecretKey: string;
}

const newSecret = () => randomBytes(32).toString("base64url");

/** The secrets of this data dir; one that a newer version needs and an older one did not make is added. */
export async function loadOrCreateSecrets(dataDir: string): Promise<StandaloneSecrets> {
  const path = join(dataDir, "secrets.json");
  const stored = existsSync(path)
    ? (JSON.parse(await readFile(path, "utf8")) as Partial<StandaloneSecrets>)
    : undefined;
  const secrets = {
    keyPepper: stored?.keyPepper ?? newSecret(),
    linkSecret: stored?.linkSecret ?? newSecret(),
    sealPassword: stored?.sealPassword ?? newSecret(),
    webhookSecretKey: stored?.webhookSecretKey ?? newSecret(),
  };
  if (!stored || Object.keys(secrets).some((key) => !(key in stored))) {
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, path);
  }
  return secrets;
}

/**
 * The certificate completed PDFs are sealed with: the configured one, else `seal.p12` in the data
 * dir, made self-signed on the first start (mode 0600).
 */
export async function loadOrCreateSeal(
  dataDir: string,
  secrets: StandaloneSecrets,
  configured: SealCredentials | undefined,
): Promise<SealCredentials> {
  if (configured) return configured;
  const path = join(dataDir, "seal.p12");
  if (!existsSync(path)) {
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, await generateSealP12InBackground("Countersign seal", secrets.sealPassword), {
      mode: 0o600,
    });
    await rename(temporary, path);
  }
  return { p12: await readFile(path), password: secrets.sealPassword };
}

export interface AdminEndpoint {
  url: string;
  token: string;
  pid: number;
}

export const ADMIN_FILE = "admin.json";

export async function writeAdminEndpoint(dataDir: string, endpoint: AdminEndpoint): Promise<void> {
  const path = join(dataDir, ADMIN_FILE);
  await rm(path, { force: true });
  await writeFile(path, `${JSON.stringify(endpoint)}\n`, { mode: 0o600 });
}

export async function readAdminEndpoint(dataDir: string): Promise<AdminEndpoint | undefined> {
  const path = join(dataDir, ADMIN_FILE);
  if (!existsSync(path)) return undefined;
  return JSON.parse(await readFile(path, "utf8")) as AdminEndpoint;
}

export async function removeAdminEndpoint(dataDir: string): Promise<void> {
  await rm(join(dataDir, ADMIN_FILE), { force: true });
}

/** How long a lock outlives the process that held it, when that process was killed. */
const LOCK_STALE_MS = 10_000;

/**
 * Takes the data directory for this process, atomically (an exclusive mkdir, refreshed while the
 * process lives): two processes never open the same PGlite files. A lock left by a killed process
 * is taken over once it is stale, so a restart right after a crash waits 10 seconds at most.
 * `onLost` hears when the lock could not be refreshed in time (the process was suspended or
 * stalled past the stale time), since another process may then have taken the data.
 */
export async function lockDataDir(
  dataDir: string,
  onLost: (err: Error) => void,
): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: join(dataDir, "instance.lock"),
      stale: LOCK_STALE_MS,
      retries: { retries: Math.ceil((LOCK_STALE_MS * 1.5) / 250), minTimeout: 250, maxTimeout: 250 },
      onCompromised: onLost,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOCKED") {
      throw new ConfigError(
        `COUNTERSIGN_DATA_DIR: ${dataDir} is in use by another running Countersign; stop it or choose another directory`,
      );
    }
    throw err;
  }
}
