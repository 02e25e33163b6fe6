import { Code, ConnectError } from "@connectrpc/connect";
import { RetryAfterSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import type { Database } from "@countersign/kit";
import type { DrawingProcess } from "../src/pdf/drawing-process.js";
import type { VerificationReport } from "../src/pdf/verify/verify-document.js";
import { DocumentVerification } from "../src/verification/document-verification.js";

/** A verifier's process whose every verification runs until the test lets it end. */
function heldDrawing() {
  const held: (() => void)[] = [];
  const report: VerificationReport = {
    verdict: "unsigned",
    summary: "no signature",
    level: "",
    levelReason: "",
    sha256: "0".repeat(64),
    signatures: [],
    changesAfterSeal: [],
    validationData: false,
  } as unknown as VerificationReport;
  const drawing = {
    verify: () => new Promise<VerificationReport>((resolve) => held.push(() => resolve(report))),
  } as unknown as DrawingProcess;
  const releaseAll = () => {
    for (const release of held.splice(0)) release();
  };
  return { drawing, releaseAll };
}

test("one party's flood of files to verify is turned away past its own share; another party's file is still verified", async () => {
  const { drawing, releaseAll } = heldDrawing();
  const verification = new DocumentVerification({
    db: {} as Database,
    documents: {} as never,
    drawing,
  });
  const pdf = new Uint8Array([37, 80, 68, 70]);
  const outcome = (party: string) =>
    verification.verify(pdf, party).then(
      () => "verified",
      (err: unknown) => {
        const refused = ConnectError.from(err);
        return `${Code[refused.code]} ${refused.findDetails(RetryAfterSchema)[0]?.seconds ?? "-"}`;
      },
    );
  const flood = Array.from({ length: 5 }, () => outcome("address:203.0.113.7"));
  const other = outcome("address:198.51.100.2");
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setImmediate(r));
    releaseAll();
  }
  expect(await other).toBe("verified");
  expect(await Promise.all(flood)).toEqual([
    "verified",
    "verified",
    "ResourceExhausted 5",
    "ResourceExhausted 5",
    "ResourceExhausted 5",
  ]);
});
