/**
 * How long one conversion of an upload may take: the converter kills LibreOffice at this limit, and
 * the gateway gives an upload this much time on top of its own deadline, so that no conversion the
 * converter would finish is cut off at the edge. One variable, read by both.
 */
import { z } from "zod";

export const DEFAULT_CONVERSION_TIMEOUT_MS = 60_000;

export const conversionTimeoutConfig = {
  COUNTERSIGN_CONVERSION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(600_000)
    .default(DEFAULT_CONVERSION_TIMEOUT_MS)
    .describe(
      "how long one conversion may take before LibreOffice is killed and the file refused (422); the gateway gives an upload this long on top of its 30 s deadline, so set it alike for both",
    ),
};

/**
 * An upload's deadline: the request's own time (to arrive, be checked and stored) and a whole
 * conversion's. A file that waited for its turn is converted only while the deadline still holds a
 * whole conversion; otherwise it is refused as busy, never cut off half done.
 */
export function uploadDeadlineMs(requestTimeoutMs: number, conversionTimeoutMs: number): number {
  return requestTimeoutMs + conversionTimeoutMs;
}
