/**
 * Values as DocuSign clients send and read them. They send numbers and booleans as JSON values or
 * as strings ("1", "true"), so both are read; they read every scalar with String() and every array
 * with map(), so answers carry numbers as strings, leave out what is absent (never null) and keep
 * empty arrays.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { z } from "zod";
import { text } from "../contract/values.js";

/** A whole number that fits the services' int32 fields, as a JSON number or a string of digits. */
export const dsInteger = z.union([
  z.int32(),
  z
    .string()
    .regex(/^-?\d{1,9}$/)
    .transform(Number),
]);

/** A number, as a JSON number or a numeric string. */
export const dsNumber = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/** true or false, as JSON or as the strings "true" and "false" (any letter case). */
export const dsBoolean = z.union([
  z.boolean(),
  z
    .string()
    .regex(/^(true|false)$/i)
    .transform((value) => value.toLowerCase() === "true"),
]);

/** A DocuSign id (recipientId, documentId): a string or a number, read as a string. */
export const dsId = z.union([text().min(1).max(100), z.int().transform(String)]);

/** A time as DocuSign writes it, or nothing when it has not happened. */
export function dsTime(time: Timestamp | undefined): string | undefined {
  return time ? timestampDate(time).toISOString() : undefined;
}

/** An object without its undefined properties: what DocuSign leaves out instead of writing null. */
export function present<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && v !== ""),
  ) as Partial<T>;
}
