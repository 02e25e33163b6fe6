/**
 * Embedded views: a console flow (sending, or editing one template) an integrator shows inside its
 * own app. Its maker — an API key, or an integration acting as a person — gets a ticket for a URL
 * that opens once, within five minutes; opening trades the ticket for the page's credential, which
 * VerifyApiKey resolves to the maker with the view's narrower scopes, for an hour. Both secrets
 * are kept only as keyed hashes, and a view ends with its maker (the key deleted or expired, the
 * consent withdrawn, the person no longer a member).
 */
import { randomBytes } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  EMBEDDED_VIEW_PURPOSE,
  EMBEDDED_VIEW_SCOPES,
  type EmbeddedViewKind as KindName,
  VIEW_CREDENTIAL_LIFETIME_SECONDS,
  VIEW_CREDENTIAL_PATTERN,
  VIEW_TICKET_LIFETIME_SECONDS,
  VIEW_TICKET_PATTERN,
} from "@countersign/domain";
import {
  type CreateEmbeddedViewRequest,
  type CreateEmbeddedViewResponse,
  CreateEmbeddedViewResponseSchema,
  type EmbeddedView,
  EmbeddedViewKind,
  EmbeddedViewSchema,
  type OpenEmbeddedViewResponse,
  OpenEmbeddedViewResponseSchema,
  type VerifyApiKeyResponse,
  VerifyApiKeyResponseSchema,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { type Database, isUuid, notFound, uuidv7, validationError } from "@countersign/kit";
import { base62 } from "./secrets.js";
import { requireUuid } from "./validation.js";

export interface EmbeddedViewsDeps {
  db: Database;
  hashSecret: (secret: string) => Buffer;
}

const KIND_NAMES = new Map<EmbeddedViewKind, KindName>([
  [EmbeddedViewKind.SENDER, "sender"],
  [EmbeddedViewKind.TEMPLATE_EDIT, "template_edit"],
]);
const KINDS = new Map([...KIND_NAMES].map(([kind, name]) => [name, kind]));

/** A field type's name, as the API spells them; the gateway checks them against the list. */
const FIELD_TYPE = /^[a-z_]{1,40}$/;
const MAX_FIELD_TYPES = 40;

/** PostgreSQL's error code when a row names one that is gone. */
const FOREIGN_KEY_VIOLATION = "23503";

/**
 * A view's maker as it stands: its key unexpired (`k`), or its integration (`i`) with the person
 * still a member (`u`); a view whose maker is gone has neither.
 */
const MAKER_JOINS = `
  LEFT JOIN api_keys k ON k.id = v.api_key_id AND (k.expires_at IS NULL OR k.expires_at > now())
  LEFT JOIN integrations i ON i.id = v.integration_id
  LEFT JOIN memberships m ON m.workspace_id = v.workspace_id AND m.user_id = v.user_id
  LEFT JOIN users u ON u.id = m.user_id`;

interface ViewRow {
  id: string;
  workspace_id: string;
  kind: KindName;
  resource_id: string | null;
  scopes: string[];
  frame_origin: string;
  return_url: string;
  field_types: string[];
  template_id: string | null;
}

function toView(row: ViewRow, expiresAt: Date): EmbeddedView {
  return create(EmbeddedViewSchema, {
    id: row.id,
    workspaceId: row.workspace_id,
    kind: KINDS.get(row.kind),
    resourceId: row.resource_id ?? "",
    scopes: row.scopes,
    frameOrigin: row.frame_origin,
    returnUrl: row.return_url,
    fieldTypes: row.field_types,
    templateId: row.template_id ?? "",
    expireTime: timestampFromDate(expiresAt),
  });
}

export class EmbeddedViews {
  constructor(private readonly deps: EmbeddedViewsDeps) {}

  async create(req: CreateEmbeddedViewRequest): Promise<CreateEmbeddedViewResponse> {
    requireUuid(req.workspaceId, "workspace");
    const kind = KIND_NAMES.get(req.kind);
    if (!kind) throw validationError([{ path: "kind", message: "must be sender or template_edit" }]);
    const purpose = EMBEDDED_VIEW_PURPOSE[kind];
    if (!req.makerScopes.includes(purpose)) {
      throw new ConnectError(`this flow needs the scope ${purpose}`, Code.PermissionDenied);
    }
    if (req.resourceId && !isUuid(req.resourceId)) throw notFound(kind === "sender" ? "request" : "template");
    if (req.templateId && !isUuid(req.templateId)) throw notFound("template");
    if (req.fieldTypes.length > MAX_FIELD_TYPES || req.fieldTypes.some((t) => !FIELD_TYPE.test(t))) {
      throw validationError([{ path: "fieldTypes", message: "names field types, such as signature" }]);
    }
    if (kind === "template_edit" && !req.resourceId) {
      throw validationError([{ path: "templateId", message: "names the template to edit" }]);
    }
    const scopes = EMBEDDED_VIEW_SCOPES[kind].filter((scope) => req.makerScopes.includes(scope));
    const ticket = randomBytes(32).toString("base64url");
    const id = uuidv7();
    const byIntegration = req.userId !== "";
    // Ended views go as new ones come (by the end index), so the table holds the live ones.
    await this.deps.db.query(
      "DELETE FROM embedded_views WHERE coalesce(credential_expires_at, ticket_expires_at) < now()",
    );
    // Made only for a maker of this workspace, in the one statement: a key deleted meanwhile makes none.
    const { rows } = await this.deps.db
      .query<ViewRow & { ticket_expires_at: Date }>(
        `INSERT INTO embedded_views (id, workspace_id, api_key_id, integration_id, user_id, kind, resource_id,
                                   scopes, frame_origin, return_url, ticket_hash, ticket_expires_at,
                                   field_types, template_id)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() + make_interval(secs => $12), $13, $14
       WHERE EXISTS (SELECT 1 FROM api_keys WHERE id = $3 AND workspace_id = $2)
          OR EXISTS (SELECT 1 FROM integration_consents c JOIN integrations i ON i.id = c.integration_id
                     WHERE c.integration_id = $4 AND c.user_id = $5 AND i.workspace_id = $2)
       RETURNING id, workspace_id, kind, resource_id, scopes, frame_origin, return_url, field_types, template_id,
                 ticket_expires_at`,
        [
          id,
          req.workspaceId,
          byIntegration ? null : requireUuid(req.makerId, "API key"),
          byIntegration ? requireUuid(req.makerId, "integration") : null,
          byIntegration ? requireUuid(req.userId, "user") : null,
          kind,
          req.resourceId || null,
          scopes,
          req.frameOrigin,
          req.returnUrl,
          this.deps.hashSecret(ticket),
          VIEW_TICKET_LIFETIME_SECONDS,
          req.fieldTypes,
          req.templateId || null,
        ],
      )
      .catch((err: unknown) => {
        // The maker deleted while the view was being made: its key is gone, as if never there.
        if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) return { rows: [] };
        throw err;
      });
    const row = rows[0];
    if (!row) throw new ConnectError("the view's maker is not of this workspace", Code.PermissionDenied);
    return create(CreateEmbeddedViewResponseSchema, { view: toView(row, row.ticket_expires_at), ticket });
  }

  /** Spends the ticket, once: the answer carries the only copy of the page's credential. */
  async open(ticket: string): Promise<OpenEmbeddedViewResponse> {
    if (!VIEW_TICKET_PATTERN.test(ticket)) throw notFound("view");
    const credential = `cvt_${base62(randomBytes(32), 43)}`;
    const opened = await this.deps.db.transaction(async (tx) => {
      // Locked while read: two tabs racing with one URL open it once.
      const { rows } = await tx.query<ViewRow & { opened: boolean; live: boolean }>(
        `SELECT v.id, v.workspace_id, v.kind, v.resource_id, v.scopes, v.frame_origin, v.return_url, v.field_types, v.template_id,
                v.credential_hash IS NOT NULL AS opened,
                v.ticket_expires_at > now() AND (k.id IS NOT NULL OR (i.id IS NOT NULL AND u.id IS NOT NULL)) AS live
         FROM embedded_views v ${MAKER_JOINS}
         WHERE v.ticket_hash = $1 FOR UPDATE OF v`,
        [this.deps.hashSecret(ticket)],
      );
      const found = rows[0];
      if (!found) throw notFound("view");
      if (found.opened || !found.live) {
        throw new ConnectError(
          "this view's URL was used or has expired, or the key that made it no longer works; ask the app for a new one",
          Code.FailedPrecondition,
        );
      }
      const { rows: ends } = await tx.query<{ credential_expires_at: Date }>(
        `UPDATE embedded_views SET credential_hash = $2, credential_expires_at = now() + make_interval(secs => $3)
         WHERE id = $1 RETURNING credential_expires_at`,
        [found.id, this.deps.hashSecret(credential), VIEW_CREDENTIAL_LIFETIME_SECONDS],
      );
      return toView(found, (ends[0] as { credential_expires_at: Date }).credential_expires_at);
    });
    return create(OpenEmbeddedViewResponseSchema, { view: opened, credential });
  }

  /**
   * Resolves a page's credential as VerifyApiKey resolves a key: its maker, whose key or consent
   * must still stand, and the view that narrows it.
   */
  async verify(credential: string): Promise<VerifyApiKeyResponse> {
    const { rows } = VIEW_CREDENTIAL_PATTERN.test(credential)
      ? await this.deps.db.query<
          ViewRow & {
            credential_expires_at: Date;
            maker_id: string;
            maker_name: string;
            maker_test: boolean;
            api_access_enabled: boolean;
            workspace_name: string;
            user_id: string | null;
            email: string | null;
          }
        >(
          `SELECT v.id, v.workspace_id, v.kind, v.resource_id, v.scopes, v.frame_origin, v.return_url, v.field_types, v.template_id,
                  least(v.credential_expires_at, k.expires_at) AS credential_expires_at,
                  coalesce(k.id, i.id) AS maker_id, coalesce(k.name, i.name) AS maker_name,
                  coalesce(k.test, false) AS maker_test,
                  w.api_access_enabled, w.name AS workspace_name, u.id AS user_id, u.email
           FROM embedded_views v
           JOIN workspaces w ON w.id = v.workspace_id
           ${MAKER_JOINS}
           WHERE v.credential_hash = $1 AND v.credential_expires_at > now()
             AND (k.id IS NOT NULL OR (i.id IS NOT NULL AND u.id IS NOT NULL))`,
          [this.deps.hashSecret(credential)],
        )
      : { rows: [] };
    const row = rows[0];
    if (!row) throw new ConnectError("unknown or expired view credential", Code.Unauthenticated);
    const expireTime = timestampFromDate(row.credential_expires_at);
    return create(VerifyApiKeyResponseSchema, {
      key: {
        id: row.maker_id,
        name: row.maker_name,
        workspaceId: row.workspace_id,
        expireTime,
        test: row.maker_test,
      },
      apiAccessEnabled: row.api_access_enabled,
      workspaceName: row.workspace_name,
      ...(row.user_id
        ? { accessToken: { userId: row.user_id, email: row.email ?? "", scopes: [], expireTime } }
        : {}),
      embeddedView: toView(row, row.credential_expires_at),
    });
  }
}
