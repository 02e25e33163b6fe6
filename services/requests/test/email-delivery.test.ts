/**
 * A recipient's e-mail is never lost in silence: each recipient shows where their last e-mail
 * stands (queued, retrying with the SMTP server's reply, sent, failed), each failed try is an
 * EmailDeliveryFailed event for the workspace's Recent Errors, and tries are counted by outcome.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { subjects } from "@countersign/domain";
import {
  type EmailDeliveryFailed,
  EmailDeliveryFailedSchema,
} from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import { createMailer, uuidv7 } from "@countersign/kit";
import type { Counter } from "prom-client";
import { SMTPServer } from "smtp-server";
import { type Harness, startHarness, until } from "./harness.js";

const REFUSAL = "5.1.1 <bounce@example.com>: Recipient address rejected: User unknown";
let server: SMTPServer;
let h: Harness;
const failures: EmailDeliveryFailed[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    onRcptTo(address, _session, callback) {
      if (address.address !== "bounce@example.com") return callback();
      callback(Object.assign(new Error(REFUSAL), { responseCode: 550 }));
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  h = await startHarness({
    mailer: createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir: "",
      from: { name: "Countersign", email: "no-reply@example.com" },
    }),
    notificationMaxAttempts: 2,
  });
  await h.bus.consume(subjects.emailDeliveryFailed, "test-email-failures", async (msg) => {
    failures.push(fromBinary(EmailDeliveryFailedSchema, msg.data));
  });
});
afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function recipientsOf(workspaceId: string, requestId: string) {
  return (
    (await h.requests.getSignatureRequest({ workspaceId, requestId })).signatureRequest?.recipients ?? []
  );
}

async function deliveries(): Promise<Record<string, number>> {
  const metrics = (h.module.metrics ?? []) as Counter[];
  const counter = metrics.find((m) => (m as unknown as { name: string }).name === "email_deliveries_total");
  const { values } = await (counter as Counter).get();
  return Object.fromEntries(values.map((v) => [v.labels.outcome as string, v.value]));
}

test("an invitation the server refuses is retrying with its reply, then failed after the last try; one that it takes is sent", async () => {
  const workspaceId = uuidv7();
  const templateId = await h.template(workspaceId);
  /** Sends an NDA whose first signer is `email`; the second signer's turn comes later. */
  const sendTo = async (email: string) =>
    (
      await h.requests.createSignatureRequest({
        workspaceId,
        title: "NDA",
        templateId,
        recipients: [
          { name: "First", email, role: "Client" },
          { name: "Later", email: "later@example.com", role: "Countersigner" },
        ],
        send: true,
      })
    ).signatureRequest;
  const signatureRequest = await sendTo("bounce@example.com");
  const requestId = signatureRequest?.id as string;
  // Answered at once: the invitation is queued, the second signer's turn has not come.
  expect(signatureRequest?.recipients.map((r) => r.emailDelivery?.status)).toEqual(["queued", undefined]);

  await until(() => failures.length === 1);
  const [retrying] = await recipientsOf(workspaceId, requestId);
  expect(retrying?.emailDelivery).toMatchObject({
    status: "retrying",
    kind: "invitation",
    attempts: 1,
    error: `the SMTP server 127.0.0.1:${(server.server.address() as { port: number }).port} refused the message: 550 ${REFUSAL}`,
  });
  const nextTry = retrying?.emailDelivery?.nextAttemptTime;
  expect(nextTry && timestampDate(nextTry).getTime() - Date.now()).toBeGreaterThan(5_000);
  expect(failures[0]).toMatchObject({
    workspaceId,
    signatureRequestId: requestId,
    recipientId: retrying?.id,
    kind: "invitation",
    attempt: 1,
    maxAttempts: 2,
  });
  expect(failures[0]?.retryTime).toBeDefined();

  // Its next try is due now: the server refuses again, and the e-mail is given up.
  await h.db.query("UPDATE notifications SET next_attempt_at = now() WHERE done_at IS NULL");
  await until(() => failures.length === 2);
  const [failed] = await recipientsOf(workspaceId, requestId);
  expect(failed?.emailDelivery).toMatchObject({ status: "failed", attempts: 2 });
  expect(failed?.emailDelivery?.error).toContain(`550 ${REFUSAL}`);
  expect(failed?.emailDelivery?.doneTime).toBeDefined();
  expect(failures[1]?.retryTime).toBeUndefined();

  const good = await sendTo("ada@example.com");
  await h.module.mailIdle();
  const [sent] = await recipientsOf(workspaceId, good?.id as string);
  expect(sent?.emailDelivery).toMatchObject({ status: "sent", attempts: 1, error: "" });
  expect(await deliveries()).toMatchObject({ retried: 1, failed: 1, sent: 1 });
});
