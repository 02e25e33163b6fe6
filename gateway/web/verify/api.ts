/** The verifier's report as `POST /verify/api/report` answers it (gateway/src/contract/verification.ts). */

export interface CertificateFacts {
  commonName: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  selfSigned: boolean;
  sha256: string;
}

export interface SignatureReport {
  field: string;
  kind: "signature" | "document-timestamp";
  valid: boolean;
  problem: string | null;
  signer: CertificateFacts | null;
  claimedTime: string | null;
  timestampTime: string | null;
  timestampAuthority: string | null;
  coversWholeFile: boolean;
}

export interface VerificationReport {
  verdict: "intact" | "modified" | "invalid" | "unsigned" | "unreadable";
  summary: string;
  level: "none" | "B-B" | "B-T" | "B-LT" | "B-LTA";
  levelReason: string;
  sha256: string;
  requestId: string | null;
  signatures: SignatureReport[];
  changesAfterSeal: string[];
  validationData: { certificates: number; ocspResponses: number; crls: number } | null;
  stored: {
    requestId: string;
    identical: boolean;
    storedSha256: string;
    completedAt: string;
    auditChainHead: string;
  } | null;
}

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
