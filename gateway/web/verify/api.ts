/**
 * The verifier's report as `POST /verify/api/report` answers it: the shapes the gateway's OpenAPI
 * document declares (shared/api-schema.ts, generated from it).
 */
import type { components } from "../shared/api-schema";

export type VerificationReport = components["schemas"]["VerificationReport"];
export type SignatureReport = components["schemas"]["SignatureReport"];
export type CertificateFacts = components["schemas"]["CertificateFacts"];

/** A problem the page's call answered with (RFC 9457). */
export interface Problem {
  title?: string;
  detail?: string;
}

/** Sends the file; the report, or the problem's words. */
export async function verify(file: File, signal: AbortSignal): Promise<VerificationReport> {
  const res = await fetch("/verify/api/report", {
    method: "POST",
    headers: { "Content-Type": "application/pdf" },
    body: file,
    signal,
  });
  if (res.ok) return (await res.json()) as VerificationReport;
  const problem = (await res.json().catch(() => ({}))) as Problem;
  throw new Error(problem.detail ?? `the verifier answered ${res.status}`);
}
