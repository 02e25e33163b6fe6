/**
 * Where a request's roles and fields come from: a template, or documents with fields given in the
 * request itself, where each field names the role of the signer who fills it. Either way the result
 * is one layout — documents, roles, fields on documents — checked by the same field rules as
 * templates (services/domain field-layout).
 */

import {
  type FieldDraft,
  fieldDraftOf,
  fieldLayoutViolations,
  type PageSizes,
  placementViolations,
  signatureViolations,
} from "@countersign/domain";
import type { NewField } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { Template } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { type FieldViolation, isUuid, uuidv7 } from "@countersign/kit";
import type { RecipientDraft } from "../core/request-rules.js";

export const MAX_DOCUMENTS = 10;

export interface LaidField extends FieldDraft {
  documentId: string;
  /** What the sender filled in (merge-fields.ts). */
  prefilled?: string;
}

export interface Layout {
  templateId: string | null;
  documentIds: string[];
  roles: { name: string; order: number }[];
  fields: LaidField[];
}

export function layoutFromTemplate(template: Template): Layout {
  return {
    templateId: template.id,
    documentIds: [template.documentId],
    roles: template.roles.map(({ name, order }) => ({ name, order })),
    fields: template.fields.map((f) => ({ ...fieldDraftOf(f), documentId: template.documentId })),
  };
}

/** The layout of a request made from documents: its roles are its signers' roles. */
export function layoutFromDocuments(
  documentIds: string[],
  fields: NewField[],
  recipients: RecipientDraft[],
): { layout: Layout; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const add = (path: string, message: string) => violations.push({ path, message });
  if (documentIds.length > MAX_DOCUMENTS)
    add("documentIds", `a request has at most ${MAX_DOCUMENTS} documents`);
  documentIds.forEach((id, i) => {
    if (!isUuid(id)) add(`documentIds[${i}]`, "there is no such document in this workspace");
    else if (documentIds.indexOf(id) !== i) add(`documentIds[${i}]`, "names a document twice");
  });
  if (fields.length === 0) add("fields", "a request made from documents needs its fields");
  const signers = recipients.map((r, i) => ({ r, i })).filter(({ r }) => r.kind === "signer");
  for (const { r, i } of signers) {
    if (!r.role.trim())
      add(`recipients[${i}].role`, "is required: each field names the role of the signer who fills it");
  }
  const roles = signers
    .filter(({ r }) => r.role.trim())
    .map(({ r }) => ({ name: r.role.trim(), order: r.routingOrder || 1 }));
  const laid: LaidField[] = fields.map((f) => ({
    ...fieldDraftOf(f),
    id: f.id || uuidv7(),
    documentId: f.documentId || documentIds[0] || "",
  }));
  laid.forEach((f, i) => {
    if (f.documentId && !documentIds.includes(f.documentId))
      add(`fields[${i}].documentId`, "must be one of the request's documentIds");
  });
  violations.push(
    ...fieldLayoutViolations(
      laid,
      roles.map((r) => r.name),
      "the signers' roles",
    ),
    ...signatureViolations(
      signers
        .filter(({ r }) => r.role.trim())
        .map(({ r, i }) => ({ name: r.role, path: `recipients[${i}]` })),
      laid,
    ),
  );
  return { layout: { templateId: null, documentIds, roles, fields: laid }, violations };
}

/** Fields on pages their documents have, and inside them; pages by document id. */
export function placementOnDocuments(fields: LaidField[], pages: Map<string, PageSizes>): FieldViolation[] {
  return [...pages].flatMap(([documentId, sizes]) => {
    const indices = fields.flatMap((f, i) => (f.documentId === documentId ? [i] : []));
    return placementViolations(
      indices.map((i) => fields[i] as LaidField),
      sizes,
      (j) => `fields[${indices[j]}]`,
    );
  });
}
