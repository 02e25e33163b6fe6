/** The variables of an upload's size and where it waits, read alike by the documents service and the converter. */
import { z } from "zod";
import { DEFAULT_MAX_UPLOAD_BYTES } from "./service.js";

export const uploadConfig = {
  COUNTERSIGN_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(DEFAULT_MAX_UPLOAD_BYTES)
    .describe(
      "the largest upload, in bytes (413 beyond); set it alike for the gateway, documents and converter",
    ),
  COUNTERSIGN_SPOOL_DIR: z
    .string()
    .min(1)
    .optional()
    .describe(
      "where uploads are received before they are checked and stored, by default `$TMPDIR/countersign-spool` (standalone: `$COUNTERSIGN_DATA_DIR/spool`); leftovers of a killed process are swept at start",
    ),
};
