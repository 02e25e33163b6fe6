/**
 * Reads a template's JSON body into the service's message. Only JSON types are checked here — a
 * string where a number belongs, an unknown property — each with its path; the rules of a valid
 * template are the templates service's, which reports its own violations the same way.
 */
import { create } from "@bufbuild/protobuf";
import {
  type Field,
  FieldSchema,
  type Role,
  RoleSchema,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { int32, Reader } from "../json-reader.js";
import { ApiProblem } from "../problems.js";
import { FIELD_KEYS, readFieldProperties } from "./field-body.js";

export interface TemplateBody {
  name?: string;
  description?: string;
  documentId?: string;
  roles?: Role[];
  fields?: Field[];
}

const TEMPLATE_KEYS = ["name", "description", "documentId", "roles", "fields"];
const ROLE_KEYS = ["name", "order"];

function readRole(reader: Reader, value: unknown, path: string): Role {
  const json = reader.object(value, path, ROLE_KEYS) ?? {};
  return create(RoleSchema, {
    name: reader.string(json, "name", path) ?? "",
    order: int32(reader, json, "order", path) ?? 0,
  });
}

function readField(reader: Reader, value: unknown, path: string): Field {
  const json = reader.object(value, path, FIELD_KEYS) ?? {};
  return create(FieldSchema, readFieldProperties(reader, json, path));
}

/** The properties the body has, read; a body with type errors is answered 422 here. */
export function readTemplateBody(body: unknown): TemplateBody {
  const reader = new Reader();
  const json = reader.object(body, "", TEMPLATE_KEYS) ?? {};
  const roles = reader.array(json, "roles");
  const fields = reader.array(json, "fields");
  const read: TemplateBody = {
    name: reader.string(json, "name", ""),
    description: reader.string(json, "description", ""),
    documentId: reader.string(json, "documentId", ""),
    roles: roles?.map((role, i) => readRole(reader, role, `roles[${i}]`)),
    fields: fields?.map((field, i) => readField(reader, field, `fields[${i}]`)),
  };
  if (reader.violations.length > 0) {
    throw new ApiProblem("validation_failed", "the template is not valid", reader.violations);
  }
  return read;
}
