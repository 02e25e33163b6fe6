/**
 * The verifier's one call, `POST /verify/api/report`, through the shared client: the path and the
 * report's shapes are the gateway's OpenAPI document's (shared/api-schema.ts, generated from it).
 */
import { createApiClient, ok } from "../shared/api-client";
import type { components } from "../shared/api-schema";

export type VerificationReport = components["schemas"]["VerificationReport"];
export type SignatureReport = components["schemas"]["SignatureReport"];
export type CertificateFacts = components["schemas"]["CertificateFacts"];

/** The verifier needs no session, so a 401 has nothing to end. */
const api = createApiClient({ base: "/verify/api" });

/** Sends the file; the report, or an ApiError with the problem's words. */
export function verify(file: File, signal: AbortSignal): Promise<VerificationReport> {
  return ok(
    api.POST("/report", {
      // openapi-typescript writes a binary body as a string; the browser sends the File itself.
      body: file as unknown as string,
      bodySerializer: () => file,
      headers: { "Content-Type": "application/pdf" },
      signal,
    }),
  );
}
