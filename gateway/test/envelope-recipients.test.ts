/**
 * The DocuSign-compatible recipient status of a signer whose e-mail did not get through: DocuSign
 * calls an invitation that bounced `autoresponded`; one still being retried is just `sent`.
 */
import { create } from "@bufbuild/protobuf";
import { SignatureRequestSchema } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { recipientsJson } from "../src/restapi/envelope-json.js";

function signerWith(status: string, kind = "invitation") {
  return create(SignatureRequestSchema, {
    id: "0192f5d8-1234-7000-8000-000000000001",
    status: "sent",
    recipients: [
      {
        id: "0192f5d8-1234-7000-8000-000000000002",
        name: "Bo",
        email: "bo@example.com",
        kind: "signer",
        routingOrder: 1,
        status: "sent",
        emailDelivery: { status, kind, attempts: 15 },
      },
    ],
  });
}

test("a signer whose invitation was given up is autoresponded; retrying, sent, or a failed reminder is still sent", () => {
  const statusOf = (request: ReturnType<typeof signerWith>) => recipientsJson(request).signers[0]?.status;
  expect(statusOf(signerWith("failed"))).toBe("autoresponded");
  expect(statusOf(signerWith("retrying"))).toBe("sent");
  expect(statusOf(signerWith("sent"))).toBe("sent");
  expect(statusOf(signerWith("failed", "reminder"))).toBe("sent");
});
