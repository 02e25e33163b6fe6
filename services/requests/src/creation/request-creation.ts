/**
 * Creating a request: from a template or from documents with their own fields, recipients bound to
 * roles, every document claimed at the documents service (and released if creation fails), then
 * one transaction with the request, its audit entry and — with `send` — the send itself.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import { type PageSizes, type RecipientKind, roleKey, signerLocaleOf } from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type {
  CreateSignatureRequestRequest,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import {
  callIsTest,
  type Database,
  type FieldViolation,
  isUniqueViolation,
  type Logger,
  type Queryable,
  uuidv7,
  validationError,
} from "@countersign/kit";
import { type AuditRecord, actorOf, appendAuditEntries, EMPTY_CHAIN } from "../core/audit-trail.js";
import { rolledBack } from "../core/dry-run.js";
import { toSignatureRequest } from "../core/messages.js";
import { bindRoles, type RecipientDraft, requestViolations } from "../core/request-rules.js";
import { type Locked, lockRequest } from "../core/request-transactions.js";
import { insertSent, proposeDraft } from "../core/routing.js";
import type { SignerCodes } from "../core/signer-codes.js";
import type { SigningLinks } from "../core/signing-links.js";
import { recipientStore } from "../core/store/recipient-store.js";
import { requestStore } from "../core/store/request-store.js";
import type { NewRecipientRow, NewRequest, StoredField } from "../core/store/rows.js";
import { holderOf } from "../core/stored-documents.js";
import { mergeInto } from "./merge-fields.js";
import {
  type Layout,
  layoutFromDocuments,
  layoutFromTemplate,
  placementOnDocuments,
} from "./request-layouts.js";
import { requestSettingsOf, scheduleViolation } from "./request-settings.js";
import { type TemplateCopies, TemplateNotFound } from "./template-copies.js";

export interface RequestCreationDeps {
  db: Database;
  templates: TemplateCopies;
  documents: Client<typeof DocumentsService>;
  links: SigningLinks;
  codes: SignerCodes;
  logger: Logger;
  /** The most pages the request's documents may have together. */
  maxPages: number;
  afterCommit: () => void;
}

/**
 * Who a request comes from, as its recipients see it: the console user who made it, by e-mail, or
 * for a request made through an API key, the workspace; replies go to the user, a key has no inbox.
 */
function senderOf(actor: CreateSignatureRequestRequest["actor"]): { name: string; email: string } {
  if (actor?.email) return { name: actor.email, email: actor.email };
  return { name: actor?.workspaceName ?? "", email: "" };
}

/** How a request names itself when it claims its documents at the documents service. */
/** A request's recipients as rows, and its fields bound to them by role. */
interface Bound {
  recipients: NewRecipientRow[];
  fields: StoredField[];
}

function expiryOf(input: CreateSignatureRequestRequest): Date | undefined {
  return input.expireTime ? timestampDate(input.expireTime) : undefined;
}

function draftsOf(input: CreateSignatureRequestRequest): RecipientDraft[] {
  return input.recipients.map((r) => ({
    name: r.name,
    email: r.email.trim(),
    role: r.role,
    kind: r.kind || "signer",
    routingOrder: r.routingOrder,
    clientUserId: r.clientUserId,
    externalId: r.externalId,
    accessCode: r.accessCode,
    emailCode: r.emailCode,
    locale: r.locale,
    host: r.host && { name: r.host.name, email: r.host.email.trim() },
  }));
}

/** Binds each signer to one of the layout's roles, and each field to the signer of its role. */
function bindRecipients(layout: Layout, drafts: RecipientDraft[], codes: SignerCodes): Bound {
  const { byRole, violations } = bindRoles(layout, drafts);
  if (violations.length > 0)
    throw validationError(violations, "the recipients do not fill the template's roles");
  const recipients: NewRecipientRow[] = drafts.map((d) => {
    // A signer takes the role's spelling and routing order; a copy recipient's role is a free label.
    const role =
      d.kind === "signer" ? layout.roles.find((r) => roleKey(r.name) === roleKey(d.role)) : undefined;
    const id = uuidv7();
    return {
      id,
      name: d.name.trim(),
      email: d.email,
      role: role?.name ?? d.role.trim(),
      kind: d.kind as RecipientKind,
      routing_order: d.routingOrder || role?.order || 1,
      status: "pending",
      client_user_id: d.clientUserId,
      external_id: d.externalId,
      access_code_hash: d.accessCode ? codes.accessCodeHash(id, d.accessCode) : null,
      email_code_required: d.emailCode,
      locale: signerLocaleOf(d.locale) ?? "",
      host_name: d.host?.name.trim() ?? "",
      host_email: d.host?.email ?? "",
    };
  });
  const fields: StoredField[] = layout.fields.map(({ role, ...f }) => ({
    ...f,
    recipientId: recipients[byRole.get(roleKey(role)) ?? -1]?.id ?? "",
  }));
  return { recipients, fields };
}

/** What is wrong with the request's own input, before its template or documents are looked at. */
function inputViolations(input: CreateSignatureRequestRequest, drafts: RecipientDraft[]): FieldViolation[] {
  const violations = requestViolations({
    title: input.title,
    message: input.message,
    templateId: input.templateId,
    documentCount: input.documentIds.length,
    documentExternalIds: input.documentExternalIds,
    fieldCount: input.fields.length,
    recipients: drafts,
    expiresAt: expiryOf(input),
    now: new Date(),
    externalId: input.externalId,
  });
  for (const [path, days] of [
    ["reminderEveryDays", input.reminderEveryDays],
    ["expiryWarningDays", input.expiryWarningDays],
  ] as const) {
    const violation = days === undefined ? undefined : scheduleViolation(path, days);
    if (violation) violations.push(violation);
  }
  return violations;
}

/** A new request as it is written: its row, recipients, first audit entry and who made it. */
interface RequestRows {
  request: NewRequest;
  recipients: Bound["recipients"];
  createdEntry: AuditRecord;
  actor: ReturnType<typeof actorOf>;
}

/**
 * Writes a new request in `tx`, sending it there too when asked — or, for an agent's key
 * (`propose`), making it wait for a person's approval instead.
 */
async function writeRows(
  tx: Queryable,
  links: RequestCreationDeps["links"],
  { request, recipients, createdEntry, actor }: RequestRows,
  { send, propose }: Pick<CreateSignatureRequestRequest, "send" | "propose">,
): Promise<Locked> {
  if (send && !propose) return insertSent(tx, links, request, recipients, actor, createdEntry);
  const inserted = await requestStore.insertRequest(tx, request, recipients);
  await appendAuditEntries(tx, request.id, actor, [createdEntry], EMPTY_CHAIN);
  if (!send) return inserted;
  await proposeDraft(tx, inserted, actor);
  return lockRequest(tx, request.workspaceId, request.id);
}

export class RequestCreation {
  constructor(private readonly deps: RequestCreationDeps) {}

  /**
   * Answers what an earlier call with the same operation key made; otherwise checks the input,
   * lays out the fields (from the template or the caller's), binds the recipients to the roles,
   * claims the documents, and stores the request.
   */
  async create(input: CreateSignatureRequestRequest): Promise<SignatureRequest> {
    if (input.operationKey.length > 128) {
      throw validationError([{ path: "operationKey", message: "must be at most 128 characters" }]);
    }
    const earlier = input.validateOnly ? undefined : await this.madeBy(input);
    if (earlier) return earlier;
    const drafts = draftsOf(input);
    const { layout, placedByCaller } = await this.layoutOf(input, drafts);
    const id = uuidv7();
    const bound = bindRecipients(layout, drafts, this.deps.codes);
    const release = await this.claimDocuments(input.workspaceId, id, layout, placedByCaller);
    if (!input.validateOnly) return this.insert(input, id, layout, bound, release);
    // A dry run: the documents were claimed and checked as for a request, then let go again.
    try {
      const rows = await this.rowsOf(input, id, layout, bound);
      return await rolledBack(this.deps.db, async (tx) => {
        const written = await writeRows(tx, this.deps.links, rows, input);
        return toSignatureRequest(written.request, await recipientStore.recipientsOf(tx, [id]));
      });
    } finally {
      await release();
    }
  }

  /**
   * A check of requests made from the template `template` names: every reason one cannot be made as
   * `create` would answer it, without claiming or storing anything — a bulk send checks each of its
   * rows so before it sends any. The template is read once (TemplateNotFound as a violation of
   * `templateId`).
   */
  async checkerFor(
    template: CreateSignatureRequestRequest,
  ): Promise<(input: CreateSignatureRequestRequest) => FieldViolation[]> {
    const layout = await this.templateLayout(template);
    return (input) => {
      const drafts = draftsOf(input);
      return [
        ...inputViolations(input, drafts),
        ...bindRoles(layout, drafts).violations,
        ...mergeInto(layout.fields, input.mergeFields).violations,
      ];
    };
  }

  /** The layout of the template `input` names (TemplateNotFound as a violation of `templateId`). */
  private async templateLayout(input: CreateSignatureRequestRequest): Promise<Layout> {
    return layoutFromTemplate(await this.templateOf(input));
  }

  /** The fields and documents of the request, once its input is found valid. */
  private async layoutOf(
    input: CreateSignatureRequestRequest,
    drafts: RecipientDraft[],
  ): Promise<{ layout: Layout; placedByCaller: boolean }> {
    const violations = inputViolations(input, drafts);
    const fromDocuments = input.templateId
      ? undefined
      : layoutFromDocuments(input.documentIds, input.fields, drafts);
    violations.push(...(fromDocuments?.violations ?? []));
    if (violations.length > 0) throw validationError(violations, "the signature request is not valid");
    const laid = fromDocuments?.layout ?? (await this.templateLayout(input));
    const merged = mergeInto(laid.fields, input.mergeFields);
    if (merged.violations.length > 0) {
      throw validationError(merged.violations, "the merge fields do not fit the fields");
    }
    return { layout: { ...laid, fields: merged.fields }, placedByCaller: fromDocuments !== undefined };
  }

  /**
   * Claims the layout's documents for the request and checks them: they exist, their pages are not
   * too many together, and fields the caller placed lie on them. Answers how to release the claims
   * should the request not be stored; a failed check releases them itself.
   */
  private async claimDocuments(
    workspaceId: string,
    requestId: string,
    layout: Layout,
    placedByCaller: boolean,
  ): Promise<() => Promise<void>> {
    const claimed: string[] = [];
    const release = async () => {
      await Promise.all(
        claimed.map((documentId) =>
          this.deps.documents
            .releaseDocument({ workspaceId, documentId, holder: holderOf(requestId) })
            .catch((err: unknown) =>
              this.deps.logger.warn({ err, requestId }, "could not release a document of a failed request"),
            ),
        ),
      );
    };
    try {
      const pages = await this.claimEach(workspaceId, requestId, layout.documentIds, claimed);
      const pageCount = [...pages.values()].reduce((sum, sizes) => sum + sizes.length, 0);
      if (pageCount > this.deps.maxPages) {
        throw validationError(
          [
            {
              path: "documentIds",
              message: `the documents have ${pageCount} pages together; a request has at most ${this.deps.maxPages}`,
            },
          ],
          "the signature request is not valid",
        );
      }
      if (placedByCaller) {
        const misplaced = placementOnDocuments(layout.fields, pages);
        if (misplaced.length > 0) throw validationError(misplaced, "the fields do not lie on the documents");
      }
    } catch (err) {
      await release();
      throw err;
    }
    return release;
  }

  /**
   * Stores the request, its recipients and its "created" audit entry in one transaction — sent in the
   * same one when asked — or releases its documents. A retry of the same operation that lost the
   * race to store it is answered what the first one made.
   */
  /** What the request is stored as: its row, its recipients and its "created" audit entry. */
  private async rowsOf(
    input: CreateSignatureRequestRequest,
    id: string,
    layout: Layout,
    { recipients, fields }: Bound,
  ): Promise<RequestRows> {
    const defaults = await requestSettingsOf(this.deps.db, input.workspaceId);
    const request: NewRequest = {
      id,
      workspaceId: input.workspaceId,
      title: input.title.trim(),
      message: input.message,
      templateId: layout.templateId,
      documentIds: layout.documentIds,
      documentExternalIds: input.documentExternalIds,
      fields,
      expiresAt: expiryOf(input) ?? null,
      operationKey: input.operationKey || null,
      status: "draft",
      sender: senderOf(input.actor),
      // A signer whose identity the sender fixed cannot hand the request to someone else.
      allowReassign: input.allowReassign && !input.lockSignerIdentity,
      externalId: input.externalId,
      lockSignerIdentity: input.lockSignerIdentity,
      test: callIsTest(),
      reminderEveryDays: input.reminderEveryDays ?? defaults.reminderEveryDays,
      expiryWarningDays: input.expiryWarningDays ?? defaults.expiryWarningDays,
    };
    const createdEntry: AuditRecord = {
      action: "created",
      details: {
        templateId: layout.templateId,
        documentIds: layout.documentIds,
        recipients: recipients.map((r) => ({
          id: r.id,
          name: r.name,
          email: r.email,
          role: r.role,
          kind: r.kind,
        })),
        ...(Object.keys(input.mergeFields).length > 0 ? { mergeFields: input.mergeFields } : {}),
      },
    };
    return { request, recipients, createdEntry, actor: actorOf(input.actor) };
  }

  /**
   * Stores the request, its recipients and its "created" audit entry in one transaction — sent in the
   * same one when asked — or releases its documents. A retry of the same operation that lost the
   * race to store it is answered what the first one made.
   */
  private async insert(
    input: CreateSignatureRequestRequest,
    id: string,
    layout: Layout,
    bound: Bound,
    release: () => Promise<void>,
  ): Promise<SignatureRequest> {
    let created: Locked;
    try {
      const rows = await this.rowsOf(input, id, layout, bound);
      created = await this.deps.db.transaction((tx) => writeRows(tx, this.deps.links, rows, input));
    } catch (err) {
      await release();
      const sameOperation =
        isUniqueViolation(err, "signature_requests_operation_key") && (await this.madeBy(input));
      if (sameOperation) return sameOperation;
      throw err;
    }
    this.deps.afterCommit();
    // Read again for the e-mails the request queued, and how they stand.
    return toSignatureRequest(created.request, await recipientStore.recipientsOf(this.deps.db, [id]));
  }

  /** The request an earlier call with the same operation key made, as it is now. */
  private async madeBy(input: CreateSignatureRequestRequest): Promise<SignatureRequest | undefined> {
    if (!input.operationKey) return undefined;
    const request = await requestStore.requestByOperationKey(
      this.deps.db,
      input.workspaceId,
      input.operationKey,
    );
    if (!request) return undefined;
    return toSignatureRequest(request, await recipientStore.recipientsOf(this.deps.db, [request.id]));
  }

  /** Claims each document for the request, noting each claim in `claimed`; their page sizes by id. */
  private async claimEach(
    workspaceId: string,
    requestId: string,
    documentIds: string[],
    claimed: string[],
  ): Promise<Map<string, PageSizes>> {
    const pages = new Map<string, PageSizes>();
    const missing: FieldViolation[] = [];
    for (const [i, documentId] of documentIds.entries()) {
      try {
        const { document } = await this.deps.documents.claimDocument({
          workspaceId,
          documentId,
          holder: holderOf(requestId),
        });
        claimed.push(documentId);
        pages.set(documentId, document?.pages.map(({ width, height }) => ({ width, height })) ?? []);
      } catch (err) {
        if (!(err instanceof ConnectError && err.code === Code.NotFound)) throw err;
        missing.push({ path: `documentIds[${i}]`, message: "there is no such document in this workspace" });
      }
    }
    if (missing.length > 0) throw validationError(missing, "the signature request is not valid");
    return pages;
  }

  private async templateOf({
    workspaceId,
    templateId,
    templateVersionAtLeast,
  }: CreateSignatureRequestRequest) {
    try {
      return await this.deps.templates.get(workspaceId, templateId, templateVersionAtLeast);
    } catch (err) {
      if (err instanceof TemplateNotFound)
        throw validationError([{ path: "templateId", message: err.message }]);
      throw err;
    }
  }
}
