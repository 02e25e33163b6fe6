/** The variables that set where, how long and how confined this process converts (documents, converter, standalone). */
import { conversionTimeoutConfig } from "@countersign/domain";
import { z } from "zod";
import { DEFAULT_CONVERSION_MEMORY_MB } from "./local-converter.js";
import type { SandboxMode } from "./office-sandbox.js";

export const conversionConfig = {
  /** The soffice to run ("off": none); found on the PATH or in the usual places unless given. */
  COUNTERSIGN_LIBREOFFICE: z.string().min(1).optional(),
  /** Also read by the gateway, which gives an upload this much time on top of its own deadline. */
  ...conversionTimeoutConfig,
  /** `bwrap`: soffice confined by bubblewrap, or not run at all; `off`: an operator's choice to run it unconfined. */
  COUNTERSIGN_CONVERSION_SANDBOX: z.enum(["bwrap", "off"]).default("bwrap"),
  /** The address space one soffice may map; below 512 MiB it cannot open the smallest document. */
  COUNTERSIGN_CONVERSION_MEMORY_MB: z.coerce.number().int().min(512).default(DEFAULT_CONVERSION_MEMORY_MB),
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
