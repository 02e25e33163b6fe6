/**
 * API keys: created with a name, an optional expiry and optional scopes (none is full access), the secret returned once and stored only as
 * a keyed hash (with its last four characters as a hint), listed with when each was last used,
 * deleted at once (an event tells every gateway to forget it); an expired key is refused, saying so.
 */
import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { scopesProblem, subjects } from "@countersign/domain";
import type { ApiKey } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { ProblemCodeSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import { ApiKeyDeletedSchema } from "@countersign/gen/countersign/events/v1/auth_events_pb.js";
import { type Database, enqueueEvent, type FieldViolation, notFound, uuidv7 } from "@countersign/kit";
import { audit } from "./audit.js";
import { toApiKey } from "./messages.js";
import { API_KEY_PATTERN, newApiKeySecret } from "./secrets.js";
import { store } from "./store.js";
import { checkName, rejectViolations, requireUuid } from "./validation.js";

/** Characters of the secret kept as its hint: enough to tell keys apart, 43 left unknown. */
const HINT_LENGTH = 4;
/** The furthest a key's expiry may lie. */
const MAX_LIFETIME_MS = 10 * 366 * 24 * 3600 * 1000;

function checkExpiry(expiresAt: Date | undefined): FieldViolation[] {
  if (!expiresAt) return [];
  if (expiresAt.getTime() <= Date.now()) return [{ path: "expiresAt", message: "must be in the future" }];
  if (expiresAt.getTime() > Date.now() + MAX_LIFETIME_MS)
    return [{ path: "expiresAt", message: "must be at most ten years ahead" }];
  return [];
}

function checkScopes(scopes: readonly string[]): FieldViolation[] {
  const problem = scopesProblem(scopes);
  return problem ? [{ path: "scopes", message: problem }] : [];
}

/** What a new key is: its label, and optionally when it stops working and what it may do. */
export interface NewApiKey {
  name: string;
  expiresAt?: Date;
  /** None for full access. */
  scopes?: readonly string[];
  /** A test key, whose calls make and see only test data. */
  test?: boolean;
  /** The person who creates it, for the audit; empty for the operator (CLI). */
  actorUserId?: string;
}

export interface ApiKeysDeps {
  db: Database;
  hashSecret: (secret: string) => Buffer;
  eventsWritten: () => void;
}

export class ApiKeys {
  constructor(private readonly deps: ApiKeysDeps) {}

  async create(
    workspaceId: string,
    { name, expiresAt, scopes = [], test = false, actorUserId = "" }: NewApiKey,
  ): Promise<{ key: ApiKey; secret: string }> {
    requireUuid(workspaceId, "workspace");
    rejectViolations([...checkName(name, "name", 100), ...checkExpiry(expiresAt), ...checkScopes(scopes)]);
    const secret = newApiKeySecret(test);
    const row = await this.deps.db.transaction(async (tx) => {
      if (!(await store.workspace(tx, workspaceId))) throw notFound("workspace");
      const key = await store.insertApiKey(
        tx,
        {
          id: uuidv7(),
          workspace_id: workspaceId,
          name: name.trim(),
          hint: secret.slice(-HINT_LENGTH),
          expires_at: expiresAt ?? null,
          scopes: [...scopes],
          test,
        },
        this.deps.hashSecret(secret),
      );
      await audit(tx, {
        workspaceId,
        actorUserId,
        action: "api_key.created",
        target: key.name,
        detail: [
          `…${key.hint}`,
          ...(key.test ? ["test key"] : []),
          key.scopes.length > 0 ? `scopes ${key.scopes.join(" ")}` : "full access",
          ...(key.expires_at ? [`expires ${key.expires_at.toISOString()}`] : []),
        ].join(", "),
      });
      return key;
    });
    return { key: toApiKey(row), secret };
  }

  async list(workspaceId: string): Promise<ApiKey[]> {
    requireUuid(workspaceId, "workspace");
    return (await store.apiKeys(this.deps.db, workspaceId)).map(toApiKey);
  }

  async delete(workspaceId: string, keyId: string, actorUserId = ""): Promise<void> {
    requireUuid(workspaceId, "workspace");
    requireUuid(keyId, "API key");
    await this.deps.db.transaction(async (tx) => {
      const deleted = await store.deleteApiKey(tx, workspaceId, keyId);
      if (!deleted) throw notFound("API key");
      await audit(tx, {
        workspaceId,
        actorUserId,
        action: "api_key.deleted",
        target: deleted.name,
        detail: `…${deleted.hint}`,
      });
      await enqueueEvent(
        tx,
        subjects.apiKeyDeleted,
        ApiKeyDeletedSchema,
        create(ApiKeyDeletedSchema, {
          keyId,
          workspaceId,
          deleteTime: timestampNow(),
        }),
      );
    });
    this.deps.eventsWritten();
  }

  async verify(secret: string): Promise<{ key: ApiKey; apiAccessEnabled: boolean; workspaceName: string }> {
    // A malformed secret cannot match; no need to hash it or ask the database.
    const row = API_KEY_PATTERN.test(secret)
      ? await store.apiKeyBySecretHash(this.deps.db, this.deps.hashSecret(secret))
      : undefined;
    if (!row) throw new ConnectError("unknown API key", Code.Unauthenticated);
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) {
      throw new ConnectError(
        `this API key (“${row.name}”) expired at ${row.expires_at.toISOString()}; an Organization Admin can create a new one`,
        Code.Unauthenticated,
        undefined,
        [{ desc: ProblemCodeSchema, value: { code: "unauthorized" } }],
      );
    }
    return {
      key: toApiKey(row),
      apiAccessEnabled: row.api_access_enabled,
      workspaceName: row.workspace_name,
    };
  }
}
