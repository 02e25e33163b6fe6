/**
 * Templates: validated against the rules and against the document they lie on, which the documents
 * service is asked for (and told that the template uses it, so it is not deleted underneath). Every
 * write records a TemplateChanged event in its own transaction, with the template as the write left
 * it: the gateways drop their pages of the workspace and the requests service keeps the copy.
 */
import { setTimeout } from "node:timers/promises";
import { create } from "@bufbuild/protobuf";
import { type FieldMask, timestampFromDate, timestampNow } from "@bufbuild/protobuf/wkt";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import { fieldDraftOf, rulesMessage, subjects } from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { TemplateChangedSchema } from "@countersign/gen/countersign/events/v1/template_events_pb.js";
import {
  type Template,
  TemplateSchema,
} from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import {
  type Database,
  enqueueEvent,
  type FieldViolation,
  isUuid,
  type Logger,
  notFound,
  type Queryable,
  uuidv7,
  validationError,
} from "@countersign/kit";
import { store, type TemplateRow } from "./store.js";
import {
  type FieldDraft,
  labelViolations,
  type PageSizes,
  placementViolations,
  roleKey,
  shapeViolations,
  type TemplateDraft,
} from "./template-rules.js";

export interface TemplatesOptions {
  db: Database;
  documents: Client<typeof DocumentsService>;
  logger: Logger;
  /** Called after a transaction that wrote events commits, so the outbox relays them at once. */
  eventsWritten: () => void;
}

/** The parts of a template an update may name; repeated ones are replaced whole. */
const UPDATABLE = ["name", "description", "document_id", "roles", "fields"] as const;

/** How often an update starts over when another one changed the template first. */
const UPDATE_ATTEMPTS = 5;

export function toTemplate(row: TemplateRow): Template {
  return create(TemplateSchema, {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    description: row.description,
    documentId: row.document_id,
    roles: row.roles,
    fields: row.fields.map(({ options, minimum, maximum, group, option, condition, ...placed }) => ({
      ...placed,
      rules: rulesMessage({ options, minimum, maximum, group, option, condition }),
    })),
    createTime: timestampFromDate(row.created_at),
    updateTime: timestampFromDate(row.updated_at),
    version: BigInt(row.version),
  });
}

/** A deletion is the template's last change: it counts one past the version it deleted. */
const deletionVersion = (row: TemplateRow) => BigInt(row.version) + 1n;

function draftOf(template: Template): TemplateDraft {
  return {
    name: template.name,
    description: template.description,
    documentId: template.documentId,
    roles: template.roles.map((r) => ({ name: r.name, order: r.order === 0 ? 1 : r.order })),
    fields: template.fields.map(fieldDraftOf),
  };
}

/**
 * The fields with the covers of their text tags: no caller gives a cover (only the service that
 * found the tag does, at creation), so a field keeps its cover while it keeps its id and its page —
 * and the template its document, in whose text the tag was found. A cover is painted on its field's
 * page: moved to another page, or onto another document, it would hide what is there.
 */
function keptCovers(fields: FieldDraft[], current: FieldDraft[], sameDocument: boolean): FieldDraft[] {
  const before = new Map(current.map((f) => [f.id, f]));
  return fields.map(({ cover: _given, ...field }) => {
    const was = before.get(field.id);
    return sameDocument && was?.cover && was.page === field.page ? { ...field, cover: was.cover } : field;
  });
}

/** The stored form: names trimmed, each field bound to its role's exact name, every field with an id. */
function normalized(draft: TemplateDraft): TemplateDraft {
  const roles = draft.roles.map((r) => ({ name: r.name.trim(), order: r.order }));
  const byKey = new Map(roles.map((r) => [roleKey(r.name), r.name]));
  const fields: FieldDraft[] = draft.fields.map((f) => ({
    ...f,
    id: f.id || uuidv7(),
    role: byKey.get(roleKey(f.role)) ?? f.role,
    label: f.label.trim(),
  }));
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    documentId: draft.documentId,
    roles,
    fields,
  };
}

/** How a template names itself when it claims its document. */
export const TEMPLATE_HOLDER_PREFIX = "template:";
const holderOf = (templateId: string) => `${TEMPLATE_HOLDER_PREFIX}${templateId}`;

export class Templates {
  constructor(private readonly deps: TemplatesOptions) {}

  async create(template: Template | undefined): Promise<Template> {
    if (!template || !isUuid(template.workspaceId)) {
      throw validationError([{ path: "workspaceId", message: "must be a workspace id" }]);
    }
    const id = uuidv7();
    const draft = normalized(draftOf(template));
    await this.claimValid(template.workspaceId, id, draft, undefined);
    try {
      const row = await this.write((tx) =>
        store.insert(tx, {
          id,
          workspace_id: template.workspaceId,
          name: draft.name,
          description: draft.description,
          document_id: draft.documentId,
          roles: draft.roles,
          fields: draft.fields,
        }),
      );
      return toTemplate(row);
    } catch (err) {
      await this.release(template.workspaceId, draft.documentId, id);
      throw err;
    }
  }

  async get(workspaceId: string, templateId: string): Promise<Template> {
    return toTemplate(await this.row(workspaceId, templateId));
  }

  async list(
    workspaceId: string,
    pageIndex: number,
    pageSize: number,
  ): Promise<{ templates: Template[]; totalCount: number }> {
    if (!isUuid(workspaceId)) return { templates: [], totalCount: 0 };
    const { rows, totalCount } = await store.page(this.deps.db, workspaceId, pageIndex, pageSize);
    return { templates: rows.map(toTemplate), totalCount };
  }

  async update(template: Template | undefined, mask: FieldMask | undefined): Promise<Template> {
    const paths = mask?.paths ?? [];
    const unknown = paths.filter((p) => !(UPDATABLE as readonly string[]).includes(p));
    if (unknown.length > 0 || paths.length === 0) {
      throw validationError([
        { path: "updateMask", message: `must name one or more of ${UPDATABLE.join(", ")}` },
      ]);
    }
    if (!template) throw notFound("template");
    const changes = draftOf(template);
    if (paths.every((p) => p === "name" || p === "description"))
      return this.relabel(template, paths, changes);
    for (let attempt = 1; ; attempt++) {
      const current = await this.row(template.workspaceId, template.id);
      const documentId = paths.includes("document_id") ? changes.documentId : current.document_id;
      const draft = normalized({
        name: paths.includes("name") ? changes.name : current.name,
        description: paths.includes("description") ? changes.description : current.description,
        documentId,
        roles: paths.includes("roles") ? changes.roles : current.roles,
        fields: keptCovers(
          paths.includes("fields") ? changes.fields : current.fields,
          current.fields,
          documentId === current.document_id,
        ),
      });
      await this.claimValid(current.workspace_id, current.id, draft, current.document_id);
      const updated = await this.write((tx) =>
        store.update(tx, current, {
          name: draft.name,
          description: draft.description,
          document_id: draft.documentId,
          roles: draft.roles,
          fields: draft.fields,
        }),
      );
      if (updated) {
        if (current.document_id !== updated.document_id) {
          await this.release(current.workspace_id, current.document_id, current.id);
        }
        return toTemplate(updated);
      }
      if (draft.documentId !== current.document_id)
        await this.release(current.workspace_id, draft.documentId, current.id);
      if (attempt === UPDATE_ATTEMPTS) {
        throw new ConnectError("the template kept changing while it was updated; try again", Code.Aborted);
      }
      await setTimeout(Math.random() * 10 * attempt);
    }
  }

  /**
   * Name and description do not bear on whether the rest is valid, so they change in one statement
   * that never conflicts with another update.
   */
  private async relabel(template: Template, paths: string[], changes: TemplateDraft): Promise<Template> {
    const name = paths.includes("name") ? changes.name.trim() : undefined;
    const description = paths.includes("description") ? changes.description.trim() : undefined;
    const violations = labelViolations({ name, description });
    if (violations.length > 0) throw validationError(violations, "the template is not valid");
    const row =
      isUuid(template.workspaceId) && isUuid(template.id)
        ? await this.write((tx) =>
            store.relabel(tx, template.workspaceId, template.id, { name, description }),
          )
        : undefined;
    if (!row) throw notFound("template");
    return toTemplate(row);
  }

  /** Deletes the template; answers the deletion's version, one past the template's last. */
  async delete(workspaceId: string, templateId: string): Promise<bigint> {
    if (!isUuid(workspaceId) || !isUuid(templateId)) throw notFound("template");
    const row = await this.write((tx) => store.delete(tx, workspaceId, templateId), { deleted: true });
    if (!row) throw notFound("template");
    await this.release(workspaceId, row.document_id, row.id);
    return deletionVersion(row);
  }

  /**
   * Runs one write with its TemplateChanged event in a transaction; a write of no row records none.
   * A deletion's statement answers the row as it was.
   */
  private async write<R extends TemplateRow | undefined>(
    statement: (tx: Queryable) => Promise<R>,
    { deleted = false } = {},
  ): Promise<R> {
    const row = await this.deps.db.transaction(async (tx) => {
      const written = await statement(tx);
      if (written) {
        await enqueueEvent(
          tx,
          subjects.templateChanged,
          TemplateChangedSchema,
          create(TemplateChangedSchema, {
            workspaceId: written.workspace_id,
            templateId: written.id,
            changeTime: timestampNow(),
            version: deleted ? deletionVersion(written) : BigInt(written.version),
            template: deleted ? undefined : toTemplate(written),
            deleted,
          }),
        );
      }
      return written;
    });
    if (row) this.deps.eventsWritten();
    return row;
  }

  /**
   * Checks the draft and claims its document for the template; on any violation the claim is given
   * back (unless the template already held it) and every violation is reported at once.
   */
  private async claimValid(
    workspaceId: string,
    templateId: string,
    draft: TemplateDraft,
    heldDocumentId: string | undefined,
  ) {
    const violations: FieldViolation[] = shapeViolations(draft);
    let pages: PageSizes | undefined;
    if (!isUuid(draft.documentId)) {
      violations.push({
        path: "documentId",
        message: draft.documentId ? "must be a document id" : "is required",
      });
    } else {
      pages = await this.claim(workspaceId, draft.documentId, templateId);
      if (pages) violations.push(...placementViolations(draft.fields, pages));
      else violations.push({ path: "documentId", message: "no document with this id in the workspace" });
    }
    if (violations.length === 0) return;
    if (pages && draft.documentId !== heldDocumentId)
      await this.release(workspaceId, draft.documentId, templateId);
    throw validationError(violations, "the template is not valid");
  }

  private async claim(
    workspaceId: string,
    documentId: string,
    templateId: string,
  ): Promise<PageSizes | undefined> {
    try {
      const { document } = await this.deps.documents.claimDocument({
        workspaceId,
        documentId,
        holder: holderOf(templateId),
      });
      return document?.pages ?? [];
    } catch (err) {
      if (ConnectError.from(err).code === Code.NotFound) return undefined;
      throw err;
    }
  }

  /** A claim left behind only keeps a document from being deleted; it is logged, not fatal. */
  private async release(workspaceId: string, documentId: string, templateId: string): Promise<void> {
    await this.deps.documents
      .releaseDocument({ workspaceId, documentId, holder: holderOf(templateId) })
      .catch((err: unknown) =>
        this.deps.logger.warn({ err, documentId, templateId }, "could not release a document claim"),
      );
  }

  private async row(workspaceId: string, templateId: string): Promise<TemplateRow> {
    const row =
      isUuid(workspaceId) && isUuid(templateId)
        ? await store.get(this.deps.db, workspaceId, templateId)
        : undefined;
    if (!row) throw notFound("template");
    return row;
  }
}
