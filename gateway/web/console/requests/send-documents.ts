/**
 * A one-off request as the Send documents page composes it: recipients by key, fields on documents,
 * and what the API is sent — as a request, or as a template of its one document.
 */
import {
  type EditedField,
  type EditedRole,
  fieldBody,
  LABEL_NEEDED,
  rulesOf,
  unlabelledFields,
} from "../templates/field-kinds";
import type { DocumentInfo, SignatureRequest, SignerLocale, TextTagField } from "../types";
import { checksBody, type SignerCheckValues } from "./signer-checks";

export interface DraftRecipient {
  /** Local identity while composing; fields name their signer by it. */
  key: string;
  name: string;
  email: string;
  kind: "signer" | "cc" | "viewer" | "approver";
  order: number;
  /**
   * The sender's own app signs this recipient in (embedded signing) rather than an e-mail's link;
   * a copy of such a request keeps it, or its signer would be e-mailed instead.
   */
  clientUserId?: string;
  /** What a signer gives before the document is shown. */
  checks?: SignerCheckValues;
  /** The language of their e-mails and signing page; unset, their browser's. */
  locale?: SignerLocale;
  /** Who hosts their signing in person, on the host's device; unset, they sign from their own link. */
  host?: { name: string; email: string };
  /** The role a document's text tags name them by; unset, they are "Signer 1", "Signer 2"… */
  role?: string;
}

/** A field a document's text tag places: shown to the sender, placed by the service (`textTags`). */
export type TagField = TextTagField & { documentId: string };

/** A field on one of the request's documents; `roleKey` is its signer's key. */
export type PlacedField = EditedField & { documentId: string };

/**
 * The signers as the field editor shows them, each by their name (or their place while unnamed).
 * The API knows each by a role, "Signer 1", "Signer 2"…, in the order they are listed.
 */
export function signersOf(recipients: readonly DraftRecipient[]): EditedRole[] {
  return recipients
    .filter((r) => r.kind === "signer")
    .map((r, i) => ({ key: r.key, name: r.name.trim() || r.role || roleName(i), order: r.order }));
}

const roleName = (signerIndex: number) => `Signer ${signerIndex + 1}`;

function rolesByKey(recipients: readonly DraftRecipient[]): Map<string, string> {
  return new Map(
    recipients.filter((r) => r.kind === "signer").map((r, i) => [r.key, r.role?.trim() || roleName(i)]),
  );
}

const sameRole = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The recipients with a signer for each role the tags name that no signer has: the first signer
 * not yet named, with no role and no field, takes it; otherwise a signer is added, signing last.
 */
export function withTagSigners(
  recipients: readonly DraftRecipient[],
  tags: readonly TagField[],
  fields: readonly PlacedField[],
  newKey: () => string,
): DraftRecipient[] {
  const next = [...recipients];
  for (const role of new Set(tags.map((t) => t.role))) {
    const roles = rolesByKey(next);
    if ([...roles.values()].some((r) => sameRole(r, role))) continue;
    const blank = next.findIndex(
      (r) => r.kind === "signer" && !r.role && !r.name.trim() && !fields.some((f) => f.roleKey === r.key),
    );
    const found = next[blank];
    if (found) next[blank] = { ...found, role };
    else {
      const order = Math.max(1, ...next.map((r) => r.order));
      next.push({ key: newKey(), name: "", email: "", kind: "signer", order, role });
    }
  }
  return next;
}

export interface Problem {
  path: string;
  message: string;
}

/**
 * What the sender can mend before anything is sent: no document, nobody who signs, a signer with
 * no signature to give, a field the signer could not tell the meaning of. Names and addresses are the
 * service's to judge, with the rest.
 */
export function problemsBefore(
  documents: readonly DocumentInfo[],
  recipients: readonly DraftRecipient[],
  fields: readonly PlacedField[],
  tags: readonly TagField[] = [],
): Problem[] {
  const problems: Problem[] = [];
  if (documents.length === 0) problems.push({ path: "documentIds", message: "add a document to sign" });
  if (!recipients.some((r) => r.kind === "signer"))
    problems.push({ path: "recipients", message: "someone must sign: make a recipient a signer" });
  const roles = rolesByKey(recipients);
  recipients.forEach((r, i) => {
    if (r.kind !== "signer") return;
    const tagged = tags.some(
      (t) => t.type === "signature" && t.required && sameRole(t.role, roles.get(r.key) ?? ""),
    );
    if (!tagged && !fields.some((f) => f.roleKey === r.key && f.type === "signature" && f.required))
      problems.push({
        path: `recipients[${i}]`,
        message: "no required signature field yet: place one for them",
      });
  });
  for (const { index } of unlabelledFields(fields))
    problems.push({ path: `fields[${index}].label`, message: LABEL_NEEDED });
  return problems;
}

/** The body of POST /signature-requests: the documents, every field on its document, the recipients. */
export function requestBody(request: {
  title: string;
  message: string;
  documents: readonly DocumentInfo[];
  recipients: readonly DraftRecipient[];
  fields: readonly PlacedField[];
  send: boolean;
  allowReassign?: boolean;
  tags?: readonly TagField[];
}) {
  const roles = rolesByKey(request.recipients);
  return {
    ...(request.tags?.length ? { textTags: true } : {}),
    title: request.title.trim(),
    ...(request.message.trim() ? { message: request.message.trim() } : {}),
    documentIds: request.documents.map((d) => d.id),
    fields: request.fields.map((f) => fieldBody(f, roles.get(f.roleKey) ?? "")),
    recipients: request.recipients.map((r) => ({
      name: r.name.trim(),
      email: r.email.trim(),
      kind: r.kind,
      ...(r.kind === "signer" ? { role: roles.get(r.key) } : {}),
      ...(r.clientUserId ? { clientUserId: r.clientUserId } : {}),
      ...(r.kind === "signer" ? checksBody(r.checks) : {}),
      ...(r.locale ? { locale: r.locale } : {}),
      ...(r.kind === "signer" && r.host ? { host: r.host } : {}),
      routingOrder: r.order,
    })),
    ...(request.allowReassign ? { allowReassign: true } : {}),
    send: request.send,
  };
}

/**
 * The body of POST /templates for a request of one document: its signers become the roles, in their
 * order, and their fields the template's; the people themselves are not kept.
 */
export function templateBody(request: {
  title: string;
  document: DocumentInfo;
  recipients: readonly DraftRecipient[];
  fields: readonly PlacedField[];
  tags?: readonly TagField[];
}) {
  const roles = rolesByKey(request.recipients);
  return {
    ...(request.tags?.some((t) => t.documentId === request.document.id) ? { textTags: true } : {}),
    name: request.title.trim(),
    documentId: request.document.id,
    roles: request.recipients
      .filter((r) => r.kind === "signer")
      .map((r) => ({ name: roles.get(r.key) ?? "", order: r.order })),
    // A template has one document: its fields name none.
    fields: request.fields.map(({ documentId: _documentId, ...f }) =>
      fieldBody(f, roles.get(f.roleKey) ?? ""),
    ),
  };
}

/**
 * A new request's start from an existing one — its title, message, recipients in their order and
 * their fields where they were — to correct and send again, or to send alike: what was filled in
 * is not copied.
 */
export function draftFrom(request: SignatureRequest, newKey: () => string) {
  const keys = new Map(request.recipients.map((r) => [r.id, newKey()]));
  const recipients: DraftRecipient[] = request.recipients.map((r) => ({
    key: keys.get(r.id) as string,
    name: r.name,
    email: r.email,
    kind: r.kind,
    order: r.routingOrder,
    ...(r.clientUserId ? { clientUserId: r.clientUserId } : {}),
    ...(r.locale ? { locale: r.locale } : {}),
    ...(r.host ? { host: r.host } : {}),
  }));
  const fields: PlacedField[] = request.fields.flatMap((f) => {
    const roleKey = keys.get(f.recipientId);
    if (!roleKey) return [];
    return [
      {
        // The field's id is its key: conditions name the fields they depend on by it.
        key: f.id,
        roleKey,
        documentId: f.documentId,
        type: f.type as PlacedField["type"],
        page: f.page,
        x: f.x,
        y: f.y,
        width: f.width,
        height: f.height,
        required: f.required,
        label: f.label,
        ...rulesOf(f),
      },
    ];
  });
  return { title: request.title, message: request.message, recipients, fields };
}
