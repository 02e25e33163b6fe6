/**
 * The rules a new request and a recipient change must keep, as pure functions that report every
 * violation with its path, and the binding of a template's roles to the request's recipients.
 */

import { RECIPIENT_KINDS, roleKey, SIGNER_LOCALES, signerLocaleOf } from "@countersign/domain";
import { type FieldViolation, validationError } from "@countersign/kit";
import { unwritableProblem } from "./font-stacks.js";
import { ACCESS_CODE_LENGTH } from "./signer-codes.js";

export const LIMITS = {
  titleLength: 200,
  messageLength: 10_000,
  recipients: 50,
  nameLength: 200,
  emailLength: 254,
  clientUserIdLength: 200,
  externalIdLength: 100,
  requestExternalIdLength: 200,
  routingOrder: 50,
  reasonLength: 1000,
  noteLength: 2000,
} as const;

/** The last instant PostgreSQL's timestamptz writes in ISO form: the end of year 9999, UTC. */
const LATEST_EXPIRY = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A practical address check: something@domain.tld, no spaces or angle brackets (header safety). */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

export interface RecipientDraft {
  name: string;
  email: string;
  role: string;
  kind: string;
  routingOrder: number;
  clientUserId: string;
  externalId: string;
  accessCode: string;
  emailCode: boolean;
  /** The language the sender asked for, as they wrote it ("de", "pt_BR"); empty for none. */
  locale: string;
  /** Who hosts the signer's signing in person; undefined for a signer who signs from their own link. */
  host?: { name: string; email: string };
}

export interface RoleSource {
  roles: { name: string; order: number }[];
}

/** A host is a person named in the audit trail and on the certificate, beside a signer. */
function hostViolations(r: RecipientDraft, at: (p: string) => string): FieldViolation[] {
  const violations = personViolations(r.host ?? {}, at);
  if (r.kind !== "signer") violations.push({ path: at("name"), message: "only a signer signs in person" });
  return violations;
}

export function personViolations(person: { name?: string; email?: string }, at: (p: string) => string) {
  const violations: FieldViolation[] = [];
  if (person.name !== undefined) {
    if (!person.name.trim()) violations.push({ path: at("name"), message: "is required" });
    else if (person.name.length > LIMITS.nameLength)
      violations.push({ path: at("name"), message: `must be at most ${LIMITS.nameLength} characters` });
    else {
      // A name is drawn on the certificate, and in name fields.
      const unwritable = unwritableProblem("text", person.name);
      if (unwritable) violations.push({ path: at("name"), message: unwritable });
    }
  }
  if (person.email !== undefined) {
    if (!person.email.trim()) violations.push({ path: at("email"), message: "is required" });
    else if (person.email.length > LIMITS.emailLength || !EMAIL.test(person.email.trim()))
      violations.push({ path: at("email"), message: "must be an e-mail address" });
  }
  return violations;
}

export function requestViolations(draft: {
  title: string;
  message: string;
  templateId: string;
  documentCount: number;
  documentExternalIds: string[];
  fieldCount: number;
  recipients: RecipientDraft[];
  expiresAt?: Date;
  now: Date;
  externalId?: string;
}): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const add = (path: string, message: string) => violations.push({ path, message });
  if (!draft.title.trim()) add("title", "is required");
  else if (draft.title.length > LIMITS.titleLength)
    add("title", `must be at most ${LIMITS.titleLength} characters`);
  else {
    // The title heads the certificate of completion.
    const unwritable = unwritableProblem("text", draft.title);
    if (unwritable) add("title", unwritable);
  }
  if (draft.message.length > LIMITS.messageLength)
    add("message", `must be at most ${LIMITS.messageLength} characters`);
  if ((draft.externalId ?? "").length > LIMITS.requestExternalIdLength)
    add("externalId", `must be at most ${LIMITS.requestExternalIdLength} characters`);
  if (!draft.templateId && draft.documentCount === 0)
    add("templateId", "give a templateId, or documentIds and fields");
  if (draft.templateId && draft.documentCount > 0)
    add("documentIds", "give either a templateId or documentIds, not both");
  if (draft.templateId && draft.fieldCount > 0)
    add("fields", "a request from a template takes the template's fields; give fields only with documentIds");
  if (draft.expiresAt && draft.expiresAt <= draft.now) add("expiresAt", "must be in the future");
  else if (draft.expiresAt && !(draft.expiresAt.getTime() <= LATEST_EXPIRY))
    add("expiresAt", "must be before the year 10000");
  if (draft.recipients.length === 0) add("recipients", "a request needs at least one recipient");
  else if (!draft.recipients.some((r) => r.kind === "signer"))
    add("recipients", "a request needs at least one signer: viewers and copy recipients sign nothing");
  if (draft.recipients.length > LIMITS.recipients)
    add("recipients", `a request has at most ${LIMITS.recipients} recipients`);
  draft.recipients.forEach((r, i) => {
    const at = (p: string) => `recipients[${i}].${p}`;
    violations.push(...personViolations(r, at));
    if (!(RECIPIENT_KINDS as readonly string[]).includes(r.kind))
      add(at("kind"), `must be one of ${RECIPIENT_KINDS.map((k) => `"${k}"`).join(", ")}`);
    if (!Number.isInteger(r.routingOrder) || r.routingOrder < 0 || r.routingOrder > LIMITS.routingOrder)
      add(at("routingOrder"), `must be a whole number from 1 to ${LIMITS.routingOrder}`);
    if (r.clientUserId.length > LIMITS.clientUserIdLength)
      add(at("clientUserId"), `must be at most ${LIMITS.clientUserIdLength} characters`);
    violations.push(...signerAuthenticationViolations(r, at));
    violations.push(...localeViolations(r.locale, at));
    if (r.host) violations.push(...hostViolations(r, (p) => at(`host.${p}`)));
  });
  violations.push(
    ...externalIdViolations(
      draft.recipients.map((r) => r.externalId),
      (i) => `recipients[${i}].externalId`,
    ),
  );
  if (draft.documentExternalIds.length > 0 && draft.documentExternalIds.length !== draft.documentCount)
    add("documentExternalIds", "give one for each of documentIds, or none");
  else
    violations.push(...externalIdViolations(draft.documentExternalIds, (i) => `documentExternalIds[${i}]`));
  return violations;
}

/** An access code or an e-mailed code is asked of a signer, before the document, and of no one else. */
function signerAuthenticationViolations(
  r: Pick<RecipientDraft, "kind" | "accessCode" | "emailCode">,
  at: (p: string) => string,
): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const code = r.accessCode.trim();
  if (r.accessCode && r.kind === "cc")
    violations.push({
      path: at("accessCode"),
      message: "a copy recipient signs nothing: give codes to signers",
    });
  else if (r.accessCode && (code.length < ACCESS_CODE_LENGTH.min || code.length > ACCESS_CODE_LENGTH.max))
    violations.push({
      path: at("accessCode"),
      message: `must be ${ACCESS_CODE_LENGTH.min} to ${ACCESS_CODE_LENGTH.max} characters`,
    });
  if (r.emailCode && r.kind === "cc")
    violations.push({
      path: at("emailCode"),
      message: "a copy recipient signs nothing: give codes to signers",
    });
  return violations;
}

/** A recipient's language is one the signing page and the e-mails speak. */
export function localeViolations(locale: string, at: (p: string) => string): FieldViolation[] {
  if (!locale || signerLocaleOf(locale)) return [];
  return [{ path: at("locale"), message: `must be one of ${SIGNER_LOCALES.join(", ")}` }];
}

/** A sender's own ids: optional, short, and each given one unique in its request. */
function externalIdViolations(ids: string[], at: (index: number) => string): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (!id) return;
    if (id.length > LIMITS.externalIdLength)
      violations.push({ path: at(i), message: `must be at most ${LIMITS.externalIdLength} characters` });
    else if (seen.has(id)) violations.push({ path: at(i), message: `"${id}" is given twice` });
    seen.add(id);
  });
  return violations;
}

/**
 * Which recipient fills each template role: every signer names a role, every role has exactly one
 * signer. Returns the signer's index per role key, or the violations.
 */
export function bindRoles(
  template: RoleSource,
  recipients: RecipientDraft[],
): { byRole: Map<string, number>; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const roles = new Map(template.roles.map((role) => [roleKey(role.name), role.name]));
  const byRole = new Map<string, number>();
  recipients.forEach((r, i) => {
    if (r.kind !== "signer") return;
    const key = roleKey(r.role);
    if (!r.role.trim() || !roles.has(key)) {
      violations.push({
        path: `recipients[${i}].role`,
        message: `must name one of the template's roles (${[...roles.values()].join(", ")})`,
      });
      return;
    }
    const earlier = byRole.get(key);
    if (earlier !== undefined) {
      violations.push({
        path: `recipients[${i}].role`,
        message: `"${roles.get(key)}" is already filled by recipients[${earlier}]`,
      });
      return;
    }
    byRole.set(key, i);
  });
  for (const [key, name] of roles) {
    if (!byRole.has(key))
      violations.push({ path: "recipients", message: `no signer fills the role "${name}"` });
  }
  return { byRole, violations };
}

/** A reason a person gives (a legal hold's, a rejection's): a sentence or two, as a cancellation's. */
const MAX_STATED_REASON = 500;

/** The reason, trimmed; INVALID_ARGUMENT at `reason` when it is empty or longer than a sentence or two. */
export function statedReason(reason: string): string {
  const why = reason.trim();
  if (!why || why.length > MAX_STATED_REASON)
    throw validationError([{ path: "reason", message: `must be 1 to ${MAX_STATED_REASON} characters` }]);
  return why;
}
