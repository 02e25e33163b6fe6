/** The requests service's settings, read by its own process and by standalone mode alike. */
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { ConfigError, dnsConfig, env } from "@countersign/kit";
import { z } from "zod";
import { DEFAULT_COMPLETION_ATTEMPTS } from "./completion/completions.js";
import type { TimestampAuthority } from "./pdf/pades/timestamp-client.js";
import { type SealCredentials, sealIdentity } from "./pdf/seal-certificate.js";

export const requestTimingConfig = {
  COUNTERSIGN_REMINDER_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(600)
    .describe("at most one reminder per recipient in this time (429 with `Retry-After` otherwise)"),
  COUNTERSIGN_EMBEDDED_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .default(300)
    .describe("how long an embedded signing URL can be opened"),
  COUNTERSIGN_EXPIRY_SWEEP_SECONDS: z.coerce
    .number()
    .min(0.1)
    .default(30)
    .describe("how often requests past `expiresAt` are expired"),
  COUNTERSIGN_RETENTION_SWEEP_SECONDS: z.coerce
    .number()
    .min(0.1)
    .default(600)
    .describe(
      "how often ended requests whose documents the workspace's retention (`retentionDays`) deletes are looked for",
    ),
  COUNTERSIGN_SIGNED_LINK_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(30)
    .describe("days after completion that a signer's link still opens the signed document (then 410)"),
};

/** Every page of a request is drawn on, sealed and sent to signers' browsers: a request has a ceiling. */
export const DEFAULT_MAX_REQUEST_PAGES = 2000;

export const requestLimitsConfig = {
  COUNTERSIGN_MAX_REQUEST_PAGES: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_MAX_REQUEST_PAGES)
    .describe("the most pages a request's documents may have together (422 beyond)"),
  COUNTERSIGN_COMPLETION_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(DEFAULT_COMPLETION_ATTEMPTS)
    .describe(
      "attempts to seal a fully signed request (waits 5 s, doubled each time, up to 10 minutes) before it reports `completionFailure` and waits for its sender",
    ),
};

export function requestLimits(config: {
  COUNTERSIGN_MAX_REQUEST_PAGES: number;
  COUNTERSIGN_COMPLETION_ATTEMPTS: number;
}) {
  return {
    maxRequestPages: config.COUNTERSIGN_MAX_REQUEST_PAGES,
    completionAttempts: config.COUNTERSIGN_COMPLETION_ATTEMPTS,
  };
}

type Timings = { [K in keyof typeof requestTimingConfig]: number };

export function requestTimings(config: Timings) {
  return {
    reminderIntervalMs: config.COUNTERSIGN_REMINDER_INTERVAL_SECONDS * 1000,
    embeddedUrlTtlMs: config.COUNTERSIGN_EMBEDDED_URL_TTL_SECONDS * 1000,
    expirySweepIntervalMs: config.COUNTERSIGN_EXPIRY_SWEEP_SECONDS * 1000,
    retentionSweepIntervalMs: config.COUNTERSIGN_RETENTION_SWEEP_SECONDS * 1000,
    signedLinkDays: config.COUNTERSIGN_SIGNED_LINK_DAYS,
  };
}

export const sealConfig = {
  COUNTERSIGN_SEAL_P12: z
    .string()
    .min(1)
    .optional()
    .describe(
      "the path of the PKCS#12 file completed PDFs are sealed with (on Kubernetes, the `countersign-seal` Secret mounted in `requests-sealer` only); the file itself in a variable is refused. Standalone and launcher: a `seal.p12` made in the data dir",
    ),
  COUNTERSIGN_SEAL_P12_PASSWORD_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      "the path of a file holding its password, kept apart from the key (without one, no password; standalone: generated); a wrong one stops the start",
    ),
  COUNTERSIGN_SEAL_P12_PASSWORD: z
    .string()
    .optional()
    .describe(
      "refused: a seal's password in a variable shows in every process listing and crash dump; use `COUNTERSIGN_SEAL_P12_PASSWORD_FILE`",
    ),
};

/** A file named by `variable`, read now; one line naming the variable when it cannot be. */
function readConfiguredFile(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    const looksInline = path.length > 200 && /^[A-Za-z0-9+/=\s]+$/.test(path);
    throw new ConfigError(
      looksInline
        ? `${variable}: give the path of a file (a mounted Secret), not the file itself in the variable`
        : `${variable}: ${path} cannot be read`,
    );
  }
}

/**
 * The configured seal certificate, opened now: a wrong file or password stops the start with one
 * line naming the variable, not the first completion. The key and its password come from files,
 * never from variables.
 */
export function configuredSeal(config: z.infer<z.ZodObject<typeof sealConfig>>): SealCredentials | undefined {
  if (config.COUNTERSIGN_SEAL_P12_PASSWORD !== undefined) {
    throw new ConfigError(
      "COUNTERSIGN_SEAL_P12_PASSWORD: the seal's password is not read from a variable; put it in a file and name it in COUNTERSIGN_SEAL_P12_PASSWORD_FILE",
    );
  }
  if (!config.COUNTERSIGN_SEAL_P12) return undefined;
  const seal = {
    p12: readConfiguredFile("COUNTERSIGN_SEAL_P12", config.COUNTERSIGN_SEAL_P12),
    // A password file ends with a newline more often than not; the password does not.
    password: config.COUNTERSIGN_SEAL_P12_PASSWORD_FILE
      ? readConfiguredFile("COUNTERSIGN_SEAL_P12_PASSWORD_FILE", config.COUNTERSIGN_SEAL_P12_PASSWORD_FILE)
          .toString("utf8")
          .replace(/\r?\n$/, "")
      : "",
  };
  try {
    sealIdentity(seal);
  } catch (err) {
    throw new ConfigError(`COUNTERSIGN_SEAL_P12: ${(err as Error).message}`);
  }
  return seal;
}

export const timestampConfig = {
  COUNTERSIGN_TSA_URL: env
    .url()
    .optional()
    .describe(
      "an RFC 3161 time-stamping authority: seals become PAdES B-LTA (without one, B-B); one that fails delays the completion, which is retried (launcher: without one, OpenSSL on loopback)",
    ),
  COUNTERSIGN_TSA_USERNAME: z
    .string()
    .min(1)
    .optional()
    .describe("HTTP Basic user name, for an authority that asks for one"),
  COUNTERSIGN_TSA_PASSWORD_FILE: z
    .string()
    .min(1)
    .optional()
    .describe("the path of a file holding the authority's HTTP Basic password"),
  COUNTERSIGN_TSA_CA_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      "PEM certificates the authority's must chain to; without it, the token's own certificate is believed",
    ),
  COUNTERSIGN_TSA_TIMEOUT_SECONDS: z.coerce
    .number()
    .min(1)
    .max(120)
    .default(10)
    .describe("how long the authority may take to answer"),
};

/** Every certificate in a PEM file, as DER; throws a sentence when there is none or one is broken. */
function pemCertificates(text: string): Uint8Array[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error("holds no PEM certificate");
  return blocks.map((block) => {
    try {
      return new X509Certificate(block).raw;
    } catch {
      throw new Error("holds a certificate that cannot be read");
    }
  });
}

/** The configured time-stamping authority, its files read now: a wrong path stops the start. */
export function configuredTimestampAuthority(
  config: z.infer<z.ZodObject<typeof timestampConfig>>,
): TimestampAuthority | undefined {
  if (!config.COUNTERSIGN_TSA_URL) return undefined;
  const read = (variable: string, path: string) => readConfiguredFile(variable, path).toString("utf8");
  let trustAnchors: Uint8Array[] | undefined;
  if (config.COUNTERSIGN_TSA_CA_FILE) {
    try {
      trustAnchors = pemCertificates(read("COUNTERSIGN_TSA_CA_FILE", config.COUNTERSIGN_TSA_CA_FILE));
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      throw new ConfigError(`COUNTERSIGN_TSA_CA_FILE: ${(err as Error).message}`);
    }
  }
  return {
    url: config.COUNTERSIGN_TSA_URL,
    username: config.COUNTERSIGN_TSA_USERNAME,
    // A password file ends with a newline more often than not; the password does not.
    password: config.COUNTERSIGN_TSA_PASSWORD_FILE
      ? read("COUNTERSIGN_TSA_PASSWORD_FILE", config.COUNTERSIGN_TSA_PASSWORD_FILE).replace(/\r?\n$/, "")
      : undefined,
    trustAnchors,
    timeoutMs: config.COUNTERSIGN_TSA_TIMEOUT_SECONDS * 1000,
  };
}

/** Every variable of the requests service's own settings, for a process's configuration schema. */
export const requestsConfig = {
  ...dnsConfig,
  ...requestTimingConfig,
  ...requestLimitsConfig,
  ...sealConfig,
  ...timestampConfig,
};

/** The requests service's settings from its variables, the seal aside (only sealing processes open it). */
export function requestsSettings(config: z.infer<z.ZodObject<typeof requestsConfig>>) {
  return {
    ...requestTimings(config),
    ...requestLimits(config),
    timestampAuthority: configuredTimestampAuthority(config),
    dnsServers: config.COUNTERSIGN_DNS_SERVERS,
  };
}
