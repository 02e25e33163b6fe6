/** The variables that set where and how long this process converts (documents, converter, standalone). */
import { z } from "zod";
import { DEFAULT_CONVERSION_TIMEOUT_MS } from "./local-converter.js";

export const conversionConfig = {
  /** The soffice to run ("off": none); found on the PATH or in the usual places unless given. */
  COUNTERSIGN_LIBREOFFICE: z.string().min(1).optional(),
  COUNTERSIGN_CONVERSION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(600_000)
    .default(DEFAULT_CONVERSION_TIMEOUT_MS),
};

export function conversionSettings(config: {
  COUNTERSIGN_LIBREOFFICE?: string;
  COUNTERSIGN_CONVERSION_TIMEOUT_MS: number;
}): { libreOffice?: string; conversionTimeoutMs: number } {
  return {
    libreOffice: config.COUNTERSIGN_LIBREOFFICE,
    conversionTimeoutMs: config.COUNTERSIGN_CONVERSION_TIMEOUT_MS,
  };
}
