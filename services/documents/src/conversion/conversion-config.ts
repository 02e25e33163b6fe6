/** The variables that set where, how long and how confined this process converts (documents, converter, standalone). */
import { conversionTimeoutConfig } from "@countersign/domain";
import { z } from "zod";
import { DEFAULT_CONVERSION_MEMORY_MB } from "./local-converter.js";
import type { SandboxMode } from "./office-sandbox.js";

export const conversionConfig = {
  COUNTERSIGN_LIBREOFFICE: z
    .string()
    .min(1)
    .optional()
    .describe(
      "the LibreOffice `soffice` that converts Word, ODT and RTF uploads, by default the first on the `PATH` or in the usual places; `off`: none, and they are refused with 415 saying how to enable it (launcher: a converter is started where one is found)",
    ),
  /** Also read by the gateway, which gives an upload this much time on top of its own deadline. */
  ...conversionTimeoutConfig,
  COUNTERSIGN_CONVERSION_SANDBOX: z
    .enum(["bwrap", "off"])
    .default("bwrap")
    .describe(
      "how LibreOffice is confined: `bwrap`, in a bubblewrap box holding only the file it converts (no network, no other file of the server; where the box cannot be made, office documents are refused and the log says why), or `off`, unconfined (an operator's choice, [operations](operations.md))",
    ),
  COUNTERSIGN_CONVERSION_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(512)
    .default(DEFAULT_CONVERSION_MEMORY_MB)
    .describe(
      "the address space one LibreOffice may map (below 512 it cannot open the smallest document): a document that needs more is converted without what did not fit, or refused (422)",
    ),
};

export interface ConversionSettings {
  libreOffice?: string;
  conversionTimeoutMs: number;
  conversionSandbox: SandboxMode;
  conversionMemoryMb: number;
}

export function conversionSettings(config: {
  COUNTERSIGN_LIBREOFFICE?: string;
  COUNTERSIGN_CONVERSION_TIMEOUT_MS: number;
  COUNTERSIGN_CONVERSION_SANDBOX: SandboxMode;
  COUNTERSIGN_CONVERSION_MEMORY_MB: number;
}): ConversionSettings {
  return {
    libreOffice: config.COUNTERSIGN_LIBREOFFICE,
    conversionTimeoutMs: config.COUNTERSIGN_CONVERSION_TIMEOUT_MS,
    conversionSandbox: config.COUNTERSIGN_CONVERSION_SANDBOX,
    conversionMemoryMb: config.COUNTERSIGN_CONVERSION_MEMORY_MB,
  };
}
