/**
 * Base64 text checked in one pass. zod's own `z.base64()` matches a regular expression whose nested
 * repetition backtracks once per four characters: on a document of a few MiB it takes hundreds of
 * MiB of memory, and on 16 MiB it overflows the stack.
 */
import { z } from "zod";

/** Standard base64 (RFC 4648 section 4), padded; a single greedy character class cannot backtrack. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const isBase64 = (text: string): boolean => text.length % 4 === 0 && BASE64.test(text);

/** A base64 string, as `z.base64()` accepts, at any length. */
export const base64Text = () =>
  z
    .string()
    .refine(isBase64, { message: "must be base64 (RFC 4648, with padding)" })
    .meta({ contentEncoding: "base64" });
