/**
 * Reads the JSON bodies of the signature request routes into service messages. Only JSON types
 * and property names are checked here; the rules of a valid request are the requests service's.
 */
import { create } from "@bufbuild/protobuf";
import {
  type NewField,
  NewFieldSchema,
  type NewRecipient,
  NewRecipientSchema,
  type RecipientChange,
  RecipientChangeSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { dateTime, int32, type Json, Reader, strings } from "../json-reader.js";
import { ApiProblem } from "../problems.js";
import { FIELD_KEYS, readFieldProperties } from "./field-body.js";

function read<T>(body: unknown, keys: string[], what: string, fill: (reader: Reader, json: Json) => T): T {
  const reader = new Reader();
  // An absent body is an empty object: every property of these bodies is optional to JSON.
  const json = reader.object(body ?? {}, "", keys) ?? {};
  const result = fill(reader, json);
  if (reader.violations.length > 0)
    throw new ApiProblem("validation_failed", `the ${what} is not valid`, reader.violations);
  return result;
}

const RECIPIENT_KEYS = ["name", "email", "role", "kind", "routingOrder", "clientUserId"];

function readRecipient(reader: Reader, value: unknown, path: string): NewRecipient {
  const json = reader.object(value, path, RECIPIENT_KEYS) ?? {};
  return create(NewRecipientSchema, {
    name: reader.string(json, "name", path) ?? "",
    email: reader.string(json, "email", path) ?? "",
    role: reader.string(json, "role", path) ?? "",
    kind: reader.string(json, "kind", path) ?? "",
    routingOrder: int32(reader, json, "routingOrder", path) ?? 0,
    clientUserId: reader.string(json, "clientUserId", path) ?? "",
  });
}

function readField(reader: Reader, value: unknown, path: string): NewField {
  const json = reader.object(value, path, [...FIELD_KEYS, "documentId"]) ?? {};
  return create(NewFieldSchema, {
    ...readFieldProperties(reader, json, path),
    documentId: reader.string(json, "documentId", path) ?? "",
  });
}

export function readCreateBody(body: unknown) {
  return read(
    body,
    ["title", "message", "templateId", "documentIds", "fields", "recipients", "expiresAt", "send"],
    "signature request",
    (reader, json) => {
      return {
        title: reader.string(json, "title", "") ?? "",
        message: reader.string(json, "message", "") ?? "",
        templateId: reader.string(json, "templateId", "") ?? "",
        documentIds: strings(reader, json, "documentIds") ?? [],
        fields: (reader.array(json, "fields") ?? []).map((f, i) => readField(reader, f, `fields[${i}]`)),
        recipients: (reader.array(json, "recipients") ?? []).map((r, i) =>
          readRecipient(reader, r, `recipients[${i}]`),
        ),
        expiresAt: dateTime(reader, json, "expiresAt", ""),
        send: reader.boolean(json, "send", "") ?? false,
      };
    },
  );
}

/** Operations that take no input accept `{}` or no body, and nothing else. */
export function readEmptyBody(body: unknown, what: string): void {
  read(body, [], what, () => undefined);
}

export function readCancelBody(body: unknown): { reason: string } {
  return read(body, ["reason"], "cancellation", (reader, json) => ({
    reason: reader.string(json, "reason", "") ?? "",
  }));
}

export function readRecipientChanges(body: unknown): RecipientChange[] {
  return read(body, ["recipients"], "recipient update", (reader, json) =>
    (reader.array(json, "recipients") ?? []).map((value, i) => {
      const path = `recipients[${i}]`;
      const change = reader.object(value, path, ["id", "name", "email"]) ?? {};
      return create(RecipientChangeSchema, {
        id: reader.string(change, "id", path) ?? "",
        name: reader.string(change, "name", path),
        email: reader.string(change, "email", path),
      });
    }),
  );
}

export function readReminderBody(body: unknown): { message: string } {
  return read(body, ["message"], "reminder", (reader, json) => ({
    message: reader.string(json, "message", "") ?? "",
  }));
}

export function readEmbeddedSigningBody(body: unknown) {
  return read(body, ["requestId", "recipientId", "returnUrl"], "signing URL request", (reader, json) => {
    const required = (key: string) => {
      const value = reader.string(json, key, "");
      if (!value && json[key] === undefined) reader.violations.push({ path: key, message: "is required" });
      return value ?? "";
    };
    return {
      requestId: required("requestId"),
      recipientId: required("recipientId"),
      returnUrl: reader.string(json, "returnUrl", "") ?? "",
    };
  });
}

export function readAgreementSetBody(body: unknown) {
  return read(body, ["name", "requestIds"], "agreement set", (reader, json) => ({
    name: reader.string(json, "name", "") ?? "",
    requestIds: strings(reader, json, "requestIds") ?? [],
  }));
}
