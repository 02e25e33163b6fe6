/**
 * The variables the ops CLI reads. It checks none of them beyond their presence, as before: a wrong
 * address or token fails the command that uses it, with the error of the call.
 */
import { z } from "zod";

export const cliConfigSchema = z.object({
  /** With it, the CLI calls a distributed deployment's services instead of a local one's admin port. */
  AUTH_ADDR: z.string().optional(),
  WEBHOOKS_ADDR: z.string().optional(),
  REQUESTS_ADDR: z.string().optional(),
  COUNTERSIGN_SERVICE_TOKEN: z.string().optional(),
  COUNTERSIGN_DATA_DIR: z.string().default("./data"),
});
