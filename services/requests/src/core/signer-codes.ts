/**
 * The codes a signer gives before the document is shown, derived with the link secret: an access
 * code is kept as HMAC(secret, recipient id and code), so a copied row checks nothing for another
 * recipient, and the one-time code of an e-mail is HMAC(secret, the e-mail's id) as six digits, so
 * the queued e-mail rebuilds it when it is sent and no table holds it.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const ACCESS_CODE_LENGTH = { min: 4, max: 50 } as const;
export const EMAIL_CODE_DIGITS = 6;

export class SignerCodes {
  constructor(private readonly secret: string) {}

  accessCodeHash(recipientId: string, code: string): Buffer {
    return createHmac("sha256", this.secret).update(`access-code:${recipientId}:${code.trim()}`).digest();
  }

  accessCodeMatches(recipientId: string, code: string, stored: Buffer): boolean {
    return timingSafeEqual(this.accessCodeHash(recipientId, code), stored);
  }

  /** The six digits an e-mail with this id carries. */
  emailCodeOf(notificationId: string): string {
    const digest = createHmac("sha256", this.secret).update(`email-code:${notificationId}`).digest();
    return String(digest.readUInt32BE(0) % 10 ** EMAIL_CODE_DIGITS).padStart(EMAIL_CODE_DIGITS, "0");
  }

  emailCodeMatches(notificationId: string, given: string): boolean {
    const expected = Buffer.from(this.emailCodeOf(notificationId));
    const typed = Buffer.from(given.replace(/\s/g, ""));
    return typed.length === expected.length && timingSafeEqual(typed, expected);
  }
}
