/**
 * The auth service as its own process (distributed mode). `buildAuth` in service.ts is what tests
 * and the standalone process use; this file only names auth's own configuration.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createMailer, env, mailConfig, runMain, serviceMain } from "@countersign/kit";
import { z } from "zod";
import { AUTH_CALLERS } from "./callers.js";
import { firstStartBanner } from "./first-start.js";
import { identityProviderConfig } from "./identity-providers.js";
import { buildAuth } from "./service.js";

export { firstStartBanner } from "./first-start.js";
export { identityProviderConfig } from "./identity-providers.js";
export { type AuthDeps, type AuthModule, buildAuth } from "./service.js";

/** This service's own variables (the manifests' tests check that its Deployment sets them). */
export const configSchema = z.object({
  COUNTERSIGN_KEY_PEPPER: env
    .secret()
    .describe(
      "key of the keyed hash of API key secrets, and from which the key sealing single sign-on client secrets is derived; changing it invalidates every key and every stored client secret (standalone: generated in the data dir)",
    ),
  COUNTERSIGN_ADMIN_EMAIL: z
    .email()
    .default("admin@localhost")
    .describe("the first Organization Admin, created on the first start"),
  COUNTERSIGN_ADMIN_PASSWORD: z
    .string()
    .min(10, "must be at least 10 characters")
    .optional()
    .describe("their password (at least 10 characters); without it, one is generated and printed once"),
  /** The console's public base URL: invitation and password reset links start with it. */
  COUNTERSIGN_PUBLIC_URL: env.url(),
  ...mailConfig,
  ...identityProviderConfig,
  /** Without SMTP_URL, auth's e-mails are written as .eml files in its outbox folder. */
  COUNTERSIGN_DATA_DIR: z.string().min(1).default("./data"),
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(() =>
    serviceMain({
      name: "auth",
      config: configSchema,
      callers: AUTH_CALLERS,
      build: (adapters, cfg) =>
        buildAuth({
          ...adapters,
          keyPepper: cfg.COUNTERSIGN_KEY_PEPPER,
          publicUrl: cfg.COUNTERSIGN_PUBLIC_URL,
          identityProviderNetworks: cfg.COUNTERSIGN_IDENTITY_PROVIDER_ALLOW_NETWORKS,
          mailer: createMailer({
            smtpUrl: cfg.SMTP_URL,
            outboxDir: join(cfg.COUNTERSIGN_DATA_DIR, "outbox"),
            from: { name: "Countersign", email: cfg.COUNTERSIGN_MAIL_FROM },
          }),
          bootstrap: {
            workspaceName: "Default workspace",
            adminEmail: cfg.COUNTERSIGN_ADMIN_EMAIL,
            adminPassword: cfg.COUNTERSIGN_ADMIN_PASSWORD,
            report: (created) => process.stdout.write(firstStartBanner(created)),
          },
        }),
    }),
  );
}
