/**
 * Verification over HTTP: `POST /verify` in both API families, and the public /verify page with
 * the call it makes (`POST /verify/api/report`), which needs no key and is limited per address.
 * The PDF is read whole (it is at most the upload limit) and handed to the requests service, which
 * verifies it in a process of its own and stores nothing.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import {
  type VerificationReport as ReportMessage,
  type RequestsService,
  Verdict,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { clientNetwork, formatBytes } from "@countersign/kit";
import express, { type Request, type Response, type Router } from "express";
import type { z } from "zod";
import { uploadContent } from "../contract/documents.js";
import type { Contract } from "../contract/operation.js";
import { VerificationReport } from "../contract/verification.js";
import { DeclaredRouter } from "../declared-router.js";
import { type BodyBudget, FILE_COST, holdBody } from "../middleware/body-budget.js";
import { ApiProblem } from "../problems.js";
import type { PublicApi } from "../public-api.js";
import { type RateLimiter, takeForAddress } from "../rate-limiter.js";
import { readUpload } from "../upload-body.js";
import { webApp } from "../web-app.js";

const VERDICTS: Record<Verdict, z.infer<typeof VerificationReport>["verdict"]> = {
  [Verdict.UNSPECIFIED]: "unreadable",
  [Verdict.INTACT]: "intact",
  [Verdict.MODIFIED]: "modified",
  [Verdict.INVALID]: "invalid",
  [Verdict.UNSIGNED]: "unsigned",
  [Verdict.UNREADABLE]: "unreadable",
};

const iso = (t: Parameters<typeof timestampDate>[0] | undefined) =>
  t ? timestampDate(t).toISOString() : null;

export function reportJson(report: ReportMessage | undefined): z.infer<typeof VerificationReport> {
  if (!report) throw new Error("the requests service answered without a report");
  return {
    verdict: VERDICTS[report.verdict],
    summary: report.summary,
    level: report.level as z.infer<typeof VerificationReport>["level"],
    levelReason: report.levelReason,
    test: report.test,
    sha256: report.sha256,
    requestId: report.requestId || null,
    signatures: report.signatures.map((s) => ({
      field: s.field,
      kind: s.documentTimestamp ? "document-timestamp" : "signature",
      valid: s.valid,
      problem: s.problem || null,
      signer: s.signer
        ? {
            commonName: s.signer.commonName,
            issuer: s.signer.issuer,
            serialNumber: s.signer.serialNumber,
            notBefore: iso(s.signer.notBefore) ?? "",
            notAfter: iso(s.signer.notAfter) ?? "",
            selfSigned: s.signer.selfSigned,
            sha256: s.signer.sha256,
          }
        : null,
      claimedTime: iso(s.claimedTime),
      timestampTime: iso(s.timestampTime),
      timestampAuthority: s.timestampAuthority || null,
      coversWholeFile: s.coversWholeFile,
    })),
    changesAfterSeal: report.changesAfterSeal,
    validationData: report.validationData
      ? {
          certificates: report.validationData.certificates,
          ocspResponses: report.validationData.ocspResponses,
          crls: report.validationData.crls,
        }
      : null,
    stored: report.stored
      ? {
          requestId: report.stored.requestId,
          identical: report.stored.identical,
          storedSha256: report.stored.storedSha256,
          completedAt: iso(report.stored.completeTime) ?? "",
          auditChainHead: report.stored.auditChainHead,
        }
      : null,
  };
}

/** The uploaded PDF, whole; past `maxBytes` it is refused as it arrives. */
async function uploadedPdf(
  req: Request,
  res: Response,
  maxBytes: number,
  bodies: BodyBudget,
): Promise<Uint8Array> {
  await holdBody(bodies, req, res, maxBytes, FILE_COST);
  const file = await readUpload(req, res, maxBytes);
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of file.bytes) {
    size += part.length;
    if (size > maxBytes)
      throw new ApiProblem("payload_too_large", `the file is larger than ${formatBytes(maxBytes)}`);
    parts.push(part);
  }
  const failure = file.failure();
  if (failure) throw failure;
  return Buffer.concat(parts);
}

const SPEC = {
  tag: "Verification",
  streamedBody: uploadContent,
  answers: {
    200: {
      description: "What the file proves. A file that is not intact is still a 200: the report says why.",
      schema: VerificationReport,
    },
  },
} as const;

export function verificationRoutes(
  api: PublicApi,
  requests: Client<typeof RequestsService>,
  maxUploadBytes: number,
  bodies: BodyBudget,
): void {
  api.streamRoute(
    "post",
    "/verify",
    {
      ...SPEC,
      summary: "Verify a sealed PDF",
      scope: "documents:read",
      description:
        "The PDF as a raw `application/pdf` body or `multipart/form-data` field `file`. Checks every signature and time-stamp, what changed after the seal, the PAdES level, and whether the file is the copy stored when the request it names was completed. Nothing is stored.",
      problems: [400, 401, 403, 413, 415, 422, 429, 500, 503],
    },
    async ({ req, res, workspaceId }) => {
      const pdf = await uploadedPdf(req, res, maxUploadBytes, bodies);
      const { report } = await requests.verifyDocument({ pdf, party: `workspace:${workspaceId}` });
      res.json(reportJson(report));
    },
  );
}

/** The public verifier: the page at /verify/ and the one call it makes, without a key. */
export function verifyPageRoutes(options: {
  requests: Client<typeof RequestsService>;
  contract: Contract;
  limiter: RateLimiter;
  maxUploadBytes: number;
  bodies: BodyBudget;
  webRoot: string;
}): Router {
  const router = express.Router();
  const api = new DeclaredRouter(options.contract, "/verify/api", "none");
  api.on(
    "post",
    "/report",
    {
      ...SPEC,
      summary: "Verify a sealed PDF, for the public page",
      description:
        "What `POST /api/v1/verify` answers, for anyone holding the file: no key, a few files a minute from one address.",
      problems: [400, 413, 415, 422, 429, 500, 503],
    },
    async ({ req, res }) => {
      takeForAddress(
        options.limiter,
        req,
        (retryAfter) => `too many files were verified from your address; try again in ${retryAfter} s`,
      );
      const pdf = await uploadedPdf(req, res, options.maxUploadBytes, options.bodies);
      const { report } = await options.requests.verifyDocument({
        pdf,
        party: `address:${clientNetwork(req.ip ?? "unknown")}`,
      });
      res.set("Cache-Control", "no-store").json(reportJson(report));
    },
  );
  router.use("/api", api.router);
  router.use(webApp({ dir: options.webRoot, pages: /^\/(?!api(\/|$)|assets\/).*$/i, name: "verifier" }));
  return router;
}
