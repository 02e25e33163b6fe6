/**
 * Secrets kept at rest in a service's database: AES-256-GCM under a key derived (HKDF-SHA256) from
 * a configured one for one purpose, so a copy of the database alone opens nothing and a key derived
 * for one purpose opens nothing of another's. The owner's id is bound in as associated data: a
 * sealed value copied onto another row does not open there.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBoxOptions {
  /** Names what is kept, in the key's derivation: "webhook endpoint secrets v1". */
  purpose: string;
  /** The variable the key comes from, for the error when it changed. */
  variable: string;
}

export class SecretBox {
  private readonly key: Buffer;

  /** `configuredKey` is any string of at least 32 characters. */
  constructor(
    configuredKey: string,
    private readonly options: SecretBoxOptions,
  ) {
    this.key = Buffer.from(hkdfSync("sha256", configuredKey, "countersign", options.purpose, 32));
  }

  /** version ‖ iv ‖ ciphertext ‖ tag */
  seal(secret: string | Uint8Array, ownerId: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(ownerId));
    const plain = typeof secret === "string" ? Buffer.from(secret, "utf8") : secret;
    const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION), iv, ciphertext, cipher.getAuthTag()]);
  }

  /** Throws when the sealed value was not made with this key (a changed configuration). */
  openBytes(sealed: Uint8Array, ownerId: string): Buffer {
    const bytes = Buffer.from(sealed);
    if (bytes[0] !== VERSION || bytes.length < 1 + IV_BYTES + TAG_BYTES) {
      throw new Error("the stored secret is not in a known format");
    }
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
    decipher.setAuthTag(tag);
    decipher.setAAD(Buffer.from(ownerId));
    try {
      return Buffer.concat([
        decipher.update(bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw new Error(
        `the stored secret cannot be opened: ${this.options.variable} has changed, or the row was altered`,
      );
    }
  }

  open(sealed: Uint8Array, ownerId: string): string {
    return this.openBytes(sealed, ownerId).toString("utf8");
  }
}
