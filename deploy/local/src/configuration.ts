/**
 * Every process Countersign runs and the schema it reads its environment with: what
 * docs/configuration.md is generated from (scripts/configuration-reference.ts). A process added
 * here is documented; a variable its schema reads is documented with it.
 */
import { configSchema as authConfig } from "@countersign/auth";
import { converterConfigSchema, configSchema as documentsConfig } from "@countersign/documents";
import { configSchema as gatewayConfig } from "@countersign/gateway";
import { serviceSchema, statelessServiceSchema, tracingConfig } from "@countersign/kit";
import { configSchema as requestsConfig } from "@countersign/requests";
import { configSchema as templatesConfig } from "@countersign/templates";
import { configSchema as webhooksConfig } from "@countersign/webhooks";
import type { z } from "zod";
import { cliConfigSchema } from "./cli-config.js";
import { launcherConfigSchema } from "./launcher-config.js";
import { standaloneConfigSchema } from "./standalone-app.js";
import { timestampAuthorityConfigSchema } from "./timestamp-authority.js";

export interface ConfiguredProcess {
  /** As the reference names it in "read by". */
  name: string;
  /** Every schema the process reads its environment with. */
  schemas: z.ZodType[];
}

export const PROCESSES: ConfiguredProcess[] = [
  { name: "gateway", schemas: [gatewayConfig, tracingConfig] },
  { name: "auth", schemas: [serviceSchema("auth", authConfig), tracingConfig] },
  { name: "templates", schemas: [serviceSchema("templates", templatesConfig), tracingConfig] },
  { name: "documents", schemas: [serviceSchema("documents", documentsConfig), tracingConfig] },
  { name: "converter", schemas: [statelessServiceSchema(converterConfigSchema), tracingConfig] },
  { name: "requests", schemas: [serviceSchema("requests", requestsConfig), tracingConfig] },
  { name: "webhooks", schemas: [serviceSchema("webhooks", webhooksConfig), tracingConfig] },
  { name: "standalone", schemas: [standaloneConfigSchema, tracingConfig] },
  { name: "launcher", schemas: [launcherConfigSchema] },
  { name: "CLI", schemas: [cliConfigSchema] },
  { name: "timestamp-authority", schemas: [timestampAuthorityConfigSchema] },
];
