/**
 * Endpoint signing secrets: made as Standard Webhooks prescribes (`whsec_` and the base64 of 24
 * random bytes) and sealed at rest (a kit SecretBox under COUNTERSIGN_WEBHOOK_SECRET_KEY), so a
 * copy of the database alone does not let anyone forge deliveries.
 */
import { randomBytes } from "node:crypto";
import { SecretBox } from "@countersign/kit";

export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** The box endpoint secrets are sealed in, each bound to its endpoint's id. */
export function endpointSecretBox(configuredKey: string): SecretBox {
  return new SecretBox(configuredKey, {
    purpose: "webhook endpoint secrets v1",
    variable: "COUNTERSIGN_WEBHOOK_SECRET_KEY",
  });
}
