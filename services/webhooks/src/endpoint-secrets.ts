/**
 * Endpoint signing secrets: made as Standard Webhooks prescribes (`whsec_` and the base64 of 24
 * random bytes) and sealed at rest with AES-256-GCM under a key derived from the configured one,
 * so a copy of the database alone does not let anyone forge deliveries. The endpoint's id is bound
 * in as associated data: a sealed secret copied onto another endpoint's row does not open there.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export class SecretBox {
  private readonly key: Buffer;

  /** `configuredKey` is COUNTERSIGN_WEBHOOK_SECRET_KEY, any string of at least 32 characters. */
  constructor(configuredKey: string) {
    this.key = Buffer.from(
      hkdfSync("sha256", configuredKey, "countersign", "webhook endpoint secrets v1", 32),
    );
  }

  /** version ‖ iv ‖ ciphertext ‖ tag */
  seal(secret: string, endpointId: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(endpointId));
    const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION), iv, ciphertext, cipher.getAuthTag()]);
  }

  /** Throws when the sealed secret was not made with this key (a changed configuration). */
  open(sealed: Uint8Array, endpointId: string): string {
    const bytes = Buffer.from(sealed);
    if (bytes[0] !== VERSION || bytes.length < 1 + IV_BYTES + TAG_BYTES) {
      throw new Error("the stored secret is not in a known format");
    }
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
    decipher.setAuthTag(tag);
    decipher.setAAD(Buffer.from(endpointId));
    try {
      return Buffer.concat([
        decipher.update(bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      throw new Error(
        "the stored secret cannot be opened: COUNTERSIGN_WEBHOOK_SECRET_KEY has changed, or the row was altered",
      );
    }
  }
}
