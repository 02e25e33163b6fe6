/**
 * The secrets auth hands out: API key secrets ("sk_", or "sk_test_" for a test key, + 32 random
 * bytes in base62) stored only as a
 * keyed hash, console session tokens stored only as SHA-256, and generated passwords.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 32 bytes need at most 43 base62 digits; shorter numbers are padded so every secret is as long. */
const SECRET_DIGITS = 43;

export const API_KEY_PATTERN = /^sk_(?:test_)?[0-9A-Za-z]{43}$/;

export function base62(bytes: Uint8Array, digits: number): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`);
  let out = "";
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(digits, "0");
}

/** A test key's secret says so, so that nobody pastes one into production unawares. */
export function newApiKeySecret(test: boolean): string {
  return `${test ? "sk_test_" : "sk_"}${base62(randomBytes(32), SECRET_DIGITS)}`;
}

/**
 * The keyed hash keeps a stolen table useless without the pepper, which lives in configuration,
 * not in the database.
 */
export function apiKeyHasher(pepper: string): (secret: string) => Buffer {
  return (secret) => createHmac("sha256", pepper).update(secret).digest();
}

/**
 * The token of a link sent by e-mail (an invitation, a password reset), derived from the link's id
 * with the pepper: the database keeps only the token's SHA-256, and the job that sends the e-mail
 * makes the token again rather than reading it from a table.
 */
export function linkTokens(pepper: string): (kind: "invitation" | "password_reset", id: string) => string {
  return (kind, id) => createHmac("sha256", pepper).update(`${kind}:${id}`).digest("base64url");
}

export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

export function sha256(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** 20 characters from a 56-letter alphabet without look-alikes: about 116 bits. */
export function generatePassword(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  const bytes = randomBytes(40);
  let out = "";
  for (const byte of bytes) {
    // Rejection sampling keeps every letter equally likely.
    if (byte < 224) out += alphabet[byte % alphabet.length];
    if (out.length === 20) break;
  }
  return out.length === 20 ? out : generatePassword();
}
