/**
 * API keys: created with a name, the secret returned once and stored only as a keyed hash, listed
 * by name and creation time, deleted at once (an event tells every gateway to forget it).
 */
import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ApiKey } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { ApiKeyDeletedSchema } from "@countersign/gen/countersign/events/v1/auth_events_pb.js";
import { type Database, enqueueEvent, notFound, subjects, uuidv7 } from "@countersign/kit";
import { toApiKey } from "./messages.js";
import { API_KEY_PATTERN, newApiKeySecret } from "./secrets.js";
import { store } from "./store.js";
import { checkName, rejectViolations, requireUuid } from "./validation.js";

export interface ApiKeysDeps {
  db: Database;
  hashSecret: (secret: string) => Buffer;
  eventsWritten: () => void;
}

export class ApiKeys {
  constructor(private readonly deps: ApiKeysDeps) {}

  async create(workspaceId: string, name: string): Promise<{ key: ApiKey; secret: string }> {
    requireUuid(workspaceId, "workspace");
    rejectViolations(checkName(name, "name", 100));
    const secret = newApiKeySecret();
    const row = await this.deps.db.transaction(async (tx) => {
      if (!(await store.workspace(tx, workspaceId))) throw notFound("workspace");
      return store.insertApiKey(
        tx,
        { id: uuidv7(), workspace_id: workspaceId, name: name.trim() },
        this.deps.hashSecret(secret),
      );
    });
    return { key: toApiKey(row), secret };
  }

  async list(workspaceId: string): Promise<ApiKey[]> {
    requireUuid(workspaceId, "workspace");
    return (await store.apiKeys(this.deps.db, workspaceId)).map(toApiKey);
  }

  async delete(workspaceId: string, keyId: string): Promise<void> {
    requireUuid(workspaceId, "workspace");
    requireUuid(keyId, "API key");
    await this.deps.db.transaction(async (tx) => {
      if (!(await store.deleteApiKey(tx, workspaceId, keyId))) throw notFound("API key");
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
    return {
      key: toApiKey(row),
      apiAccessEnabled: row.api_access_enabled,
      workspaceName: row.workspace_name,
    };
  }
}
