/** What `POST /verify` and the public /verify page answer about a PDF: the verifier's report. */
import { z } from "zod";
import { timestamp } from "./values.js";

const Certificate = z
  .strictObject({
    commonName: z.string(),
    issuer: z.string().meta({ description: "The issuer's common name." }),
    serialNumber: z.string().meta({ description: "In hex." }),
    notBefore: timestamp,
    notAfter: timestamp,
    selfSigned: z.boolean(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .meta({ id: "CertificateFacts" });

const SignatureReport = z
  .strictObject({
    field: z.string().meta({ description: "The signature field's name." }),
    kind: z.enum(["signature", "document-timestamp"]),
    valid: z.boolean(),
    problem: z.string().nullable().meta({ description: "Why it is not valid, in words." }),
    signer: Certificate.nullable().meta({
      description: "The certificate that signed: a time-stamp's is the authority's.",
    }),
    claimedTime: timestamp
      .nullable()
      .meta({ description: "The time the signature claims: its signer's own clock." }),
    timestampTime: timestamp
      .nullable()
      .meta({ description: "The time a time-stamping authority vouches for." }),
    timestampAuthority: z.string().nullable(),
    coversWholeFile: z.boolean(),
  })
  .meta({ id: "SignatureReport" });

export const VerificationReport = z
  .strictObject({
    verdict: z.enum(["intact", "modified", "invalid", "unsigned", "unreadable"]).meta({
      description:
        "intact: every signature holds and nothing changed since but what PAdES allows; modified: the seal holds for the file as sealed, but it was changed since; invalid: a signature does not verify or is laid out wrongly.",
    }),
    summary: z.string().meta({ description: "The verdict in one sentence." }),
    level: z
      .enum(["none", "B-B", "B-T", "B-LT", "B-LTA"])
      .meta({ description: "The PAdES baseline level the evidence reaches." }),
    levelReason: z.string().meta({ description: "Why that level, and not the next." }),
    test: z.boolean().meta({
      description: "The valid seal marks the file as made with a test key: it is not legally binding.",
    }),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    requestId: z.uuid().nullable().meta({ description: "The request the seal names, from the file itself." }),
    signatures: z.array(SignatureReport),
    changesAfterSeal: z
      .array(z.string())
      .meta({ description: "What changed after the seal that PAdES does not allow." }),
    validationData: z
      .strictObject({ certificates: z.int(), ocspResponses: z.int(), crls: z.int() })
      .nullable()
      .meta({ description: "What the document security store holds, when there is one." }),
    stored: z
      .strictObject({
        requestId: z.uuid(),
        identical: z.boolean().meta({
          description: "The file is byte for byte the sealed document stored when the request completed.",
        }),
        storedSha256: z.string().regex(/^[0-9a-f]{64}$/),
        completedAt: timestamp,
        auditChainHead: z.string().meta({
          description: "The hash of the request's last audit entry (empty if the chain does not verify).",
        }),
      })
      .nullable()
      .meta({
        description: "This service's own record of the request the seal names, when it completed it.",
      }),
  })
  .meta({ id: "VerificationReport" });
