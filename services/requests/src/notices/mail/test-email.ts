/**
 * The test e-mail an administrator sends from the console to check the mail settings: sent now,
 * not queued, so that the answer is the SMTP server's own — its reply when it took the message,
 * what failed when it did not (a refused log-in, an unknown host, a server that never answered).
 */
import { create } from "@bufbuild/protobuf";
import {
  type SendTestEmailResponse,
  SendTestEmailResponseSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { isUuid, type Mailer, uuidv7, validationError } from "@countersign/kit";
import { personViolations } from "../../core/request-rules.js";

export async function sendTestEmail(
  mailer: Mailer,
  workspaceId: string,
  to: string,
): Promise<SendTestEmailResponse> {
  const violations = personViolations({ email: to }, (field) => (field === "email" ? "to" : field));
  if (!isUuid(workspaceId)) violations.push({ path: "workspaceId", message: "must be a UUID" });
  if (violations.length > 0) throw validationError(violations);
  const started = performance.now();
  const outcome = { transport: mailer.transport, server: mailer.where };
  try {
    const reply = await mailer.send({
      to: { name: "", email: to.trim() },
      messageId: uuidv7(),
      subject: "Countersign test e-mail",
      text: "This is a test e-mail from Countersign. Invitations and reminders to signers go out the same way.\n",
      html: "<p>This is a test e-mail from Countersign. Invitations and reminders to signers go out the same way.</p>",
    });
    return create(SendTestEmailResponseSchema, {
      ...outcome,
      sent: true,
      detail: reply,
      durationMs: Math.round(performance.now() - started),
    });
  } catch (err) {
    return create(SendTestEmailResponseSchema, {
      ...outcome,
      sent: false,
      detail: err instanceof Error ? err.message : String(err),
      durationMs: Math.round(performance.now() - started),
    });
  }
}
