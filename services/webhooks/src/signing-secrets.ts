/** The secrets that sign an endpoint's deliveries now: the current one, and the previous one during its 24 h. */
import type { SecretBox } from "@countersign/kit";

interface SealedSecrets {
  secret_sealed: Uint8Array;
  previous_secret_sealed: Uint8Array | null;
  previous_secret_expires_at: Date | null;
}

export function signingSecrets(
  box: SecretBox,
  endpointId: string,
  endpoint: SealedSecrets,
  now = new Date(),
): string[] {
  const current = box.open(endpoint.secret_sealed, endpointId);
  const previousLive =
    endpoint.previous_secret_sealed &&
    endpoint.previous_secret_expires_at &&
    endpoint.previous_secret_expires_at > now;
  return previousLive
    ? [current, box.open(endpoint.previous_secret_sealed as Uint8Array, endpointId)]
    : [current];
}
