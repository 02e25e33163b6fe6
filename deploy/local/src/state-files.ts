/**
 * What a standalone process keeps beside its data besides the database: its own secrets (made on
 * the first start, mode 0600), a lock so two processes never open the same PGlite files (with the
 * pid of the process that holds it), and the address and token of its loopback admin port for the
 * ops CLI.
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

/**
 * The self-made seal as files, for processes that read it by path as Kubernetes mounts it: the
 * PKCS#12 file and, apart from it, its password; both readable by this user alone.
 */
export async function sealFiles(
  dataDir: string,
  secrets: StandaloneSecrets,
): Promise<{ p12Path: string; passwordPath: string }> {
  await loadOrCreateSeal(dataDir, secrets, undefined);
  const passwordPath = join(dataDir, "seal.password");
  await writeFile(passwordPath, secrets.sealPassword, { mode: 0o600 });
  return { p12Path: join(dataDir, "seal.p12"), passwordPath };
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
/** How often a lock held by another process is tried again, and how long for. */
const LOCK_RETRY_MS = 250;
const LOCK_WAIT_MS = LOCK_STALE_MS * 1.5;

/** The process that holds the data directory, as it wrote itself beside the lock (a bare directory). */
export interface LockHolder {
  pid: number;
  startedAt: string;
}

const HOLDER_FILE = "instance.json";

async function readHolder(dataDir: string): Promise<LockHolder | undefined> {
  const text = await readFile(join(dataDir, HOLDER_FILE), "utf8").catch(() => undefined);
  try {
    return text ? (JSON.parse(text) as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data directory for this process, atomically (an exclusive mkdir, refreshed while the
 * process lives): two processes never open the same PGlite files. A lock left by a killed process
 * is taken over once it is stale, so a restart right after a crash waits 10 seconds at most;
 * `onWaiting` hears at the first refusal, with the holder when it recorded itself, so that the
 * wait is never silent. `onLost` hears when the lock could not be refreshed in time (the process
 * was suspended or stalled past the stale time), since another process may then have taken the data.
 */
export async function lockDataDir(
  dataDir: string,
  onLost: (err: Error) => void,
  onWaiting: (holder: LockHolder | undefined, waitMs: number) => void,
): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const lock = (retries: number) =>
    lockfile.lock(dataDir, {
      lockfilePath: join(dataDir, "instance.lock"),
      stale: LOCK_STALE_MS,
      retries: { retries, minTimeout: LOCK_RETRY_MS, maxTimeout: LOCK_RETRY_MS },
      onCompromised: onLost,
    });
  const isLocked = (err: unknown) => (err as NodeJS.ErrnoException).code === "ELOCKED";
  let release: () => Promise<void>;
  try {
    release = await lock(0).catch(async (err: unknown) => {
      if (!isLocked(err)) throw err;
      onWaiting(await readHolder(dataDir), LOCK_WAIT_MS);
      return lock(Math.ceil(LOCK_WAIT_MS / LOCK_RETRY_MS));
    });
  } catch (err) {
    if (isLocked(err)) {
      throw new ConfigError(
        `COUNTERSIGN_DATA_DIR: ${dataDir} is in use by another running Countersign; stop it or choose another directory`,
      );
    }
    throw err;
  }
  const holder: LockHolder = { pid: process.pid, startedAt: new Date(performance.timeOrigin).toISOString() };
  await writeFile(join(dataDir, HOLDER_FILE), `${JSON.stringify(holder)}\n`);
  return async () => {
    await rm(join(dataDir, HOLDER_FILE), { force: true });
    await release();
  };
}
