/**
 * What a standalone process keeps beside its data besides the database: its own secrets (made on
 * the first start, mode 0600), a lock so two processes never open the same PGlite files (with the
 * pid of the process that holds it), and the address and token of its loopback admin port for the
 * ops CLI.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateSealP12InBackground, type SealCredentials } from "@countersign/requests/seal-certificate.js";

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
