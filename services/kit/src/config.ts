/**
 * Configuration comes only from environment variables, validated at start by a zod schema per
 * process. A bad value stops the process with one line that names the variable and never echoes
 * its value, because the value may be a secret.
 */

import { isIP } from "node:net";
import { z } from "zod";
import { parseNetworks } from "./address-policy.js";
import { parseAddress } from "./balanced-transport.js";

/** An IP address, or one with a prefix length that fits its family. */
function isNetwork(text: string): boolean {
  const [address = "", prefix, ...rest] = text.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const variable = issue?.path.join(".") || "environment";
  throw new ConfigError(`${variable}: ${issue?.message ?? "invalid"}`);
}

/** Schema pieces shared by every process, so a variable means the same thing everywhere. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  url: () => z.url().meta({ type: "URL" }),
  /** A service's replicas: one URL, or several separated by commas; host names may resolve to many. */
  serviceAddress: () =>
    z
      .string()
      .refine((value) => {
        try {
          parseAddress(value);
          return true;
        } catch {
          return false;
        }
      }, "must be an http(s) URL or a comma-separated list of them")
      .meta({ type: "URL, or comma-separated URLs" }),
  logLevel: () => z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** A secret shared by processes; at least 32 characters so it cannot be guessed. */
  secret: () =>
    z.string().min(32, "must be at least 32 characters").meta({ type: "secret, ≥ 32 characters" }),
  /** NATS subject and stream prefix, so that several deployments (or test runs) can share a server. */
  namespace: () =>
    z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,40}$/, "must be lower-case letters, digits, _ or -, starting with a letter")
      .default("countersign"),
  /** Comma-separated addresses or CIDR blocks, such as `10.0.0.0/8,fd00::/8`. */
  networks: () =>
    z
      .string()
      .default("")
      .transform((value) =>
        value
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean),
      )
      .refine((parts) => parts.every(isNetwork), "must be comma-separated IP addresses or CIDR blocks")
      .meta({ type: "comma-separated IPs or CIDRs" }),
  /**
   * Networks an outbound client may reach although they are not public (address-policy.ts):
   * comma-separated CIDR blocks such as `127.0.0.0/8,::1/128`; none by default.
   */
  reachableNetworks: () =>
    z
      .string()
      .default("")
      .transform((value, context) => {
        try {
          return parseNetworks(value);
        } catch (err) {
          context.addIssue({ code: "custom", message: (err as Error).message });
          return z.NEVER;
        }
      })
      .meta({ type: "comma-separated CIDRs" }),
  flag: () =>
    z
      .enum(["true", "false", "1", "0", ""])
      .default("false")
      .transform((v) => v === "true" || v === "1")
      .meta({ type: "boolean" }),
};

/**
 * Runs a process's main function; a configuration error ends the process with its one line on
 * stderr and exit code 78 (EX_CONFIG), anything else with the error and exit code 1.
 */
export function runMain(main: () => Promise<unknown>): void {
  main().catch((err: unknown) => {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      process.exit(78);
    }
    process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
