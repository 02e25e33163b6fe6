/**
 * Verifies API key secrets (and integrations' OAuth access tokens) through auth, remembering answers for a short time so that a busy client
 * costs auth one call per TTL. A deleted key or a workspace change is forgotten at once: auth's
 * events reach every gateway replica. Secrets are held only as their SHA-256, never as they are.
 */
import { hash } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import {
  type ApiScope,
  DOCUSIGN_SIGNATURE_SCOPES,
  type EmbeddedViewKind as EmbeddedViewKindName,
  grantedScopes,
  isApiScope,
  subjects,
} from "@countersign/domain";
import type {
  AccessTokenGrant,
  ApiKey,
  AuthService,
  EmbeddedView,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { ProblemCodeSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import {
  ApiKeyDeletedSchema,
  WorkspaceUpdatedSchema,
} from "@countersign/gen/countersign/events/v1/auth_events_pb.js";
import type { EventBus, Unsubscribe } from "@countersign/kit";
import { LRUCache } from "lru-cache";
import { kindNameOf } from "./embedded-view-kinds.js";

export interface Caller {
  keyId: string;
  /** The key's name, as the audit trail names it. */
  keyName: string;
  workspaceId: string;
  /** The workspace's name, which speaks for a request sent with the key. */
  workspaceName: string;
  apiAccessEnabled: boolean;
  /** When the key stops working (ms since the epoch); absent if it never does. */
  keyExpiresAt?: number;
  /** A test key's (or a view its test key made): the caller makes and sees test data only. */
  test: boolean;
  /** What the key may do; an access token with DocuSign's `signature` scope, the eSignature API. */
  scopes: ReadonlySet<ApiScope>;
  /**
   * Set when the secret was an integration's OAuth access token (then keyId and keyName are the
   * integration's): the person it acts as.
   */
  onBehalfOf?: { userId: string; email: string };
  /**
   * Set when the secret was an embedded view's credential (keyId and keyName are its maker's): the
   * flow and the draft or template it is bound to, which narrow what it may call.
   */
  view?: CallerView;
}

/**
 * Whose budget a call spends (its rate limit, its calls in the works): a key's or integration's own;
 * a view's its own too, so that a view handed to one of an app's users cannot spend the app's.
 */
export function budgetOf(caller: Caller): string {
  return caller.view?.id ?? caller.keyId;
}

export interface CallerView {
  id: string;
  kind: EmbeddedViewKindName;
  /** The draft request or template the view is bound to; "" for none. */
  resourceId: string;
  /** The template a sender view sends from; "" for any. */
  templateId: string;
}

/** The view a credential opened, as a caller carries it; undefined for a key or token, or a kind unknown here. */
function viewOf(view: EmbeddedView | undefined): CallerView | undefined {
  const kind = view && kindNameOf(view.kind);
  return view && kind
    ? { id: view.id, kind, resourceId: view.resourceId, templateId: view.templateId }
    : undefined;
}

/**
 * A key's own scopes; an access token's from DocuSign's, where `signature` is the eSignature API; a
 * view's, as auth narrowed them when it was made.
 */
function scopesOf(
  key: ApiKey,
  accessToken: AccessTokenGrant | undefined,
  view: EmbeddedView | undefined,
): ReadonlySet<ApiScope> {
  if (view) return new Set(view.scopes.filter(isApiScope));
  if (!accessToken) return grantedScopes(key.scopes);
  return new Set(accessToken.scopes.includes("signature") ? DOCUSIGN_SIGNATURE_SCOPES : []);
}

/** A key auth refused and said why, in words for the API's caller (an expired key). */
export interface Refusal {
  refused: string;
}

export interface KeyVerifierOptions {
  ttlMs?: number;
  maxEntries?: number;
}

export class KeyVerifier {
  /** Callers by their secret's digest, the least lately used dropped first. */
  private readonly cache: LRUCache<string, Caller>;
  private readonly inFlight = new Map<string, Promise<Caller | Refusal | undefined>>();
  /**
   * Keys deleted lately, until an answer about them asked before the deletion can no longer arrive:
   * deletion must win over a verification that was in flight when it happened.
   */
  private readonly deleted = new Map<string, number>();
  /**
   * Each integration whose tokens were revoked lately: the revocation's place in the count of
   * revocations, kept until an answer asked before it can no longer arrive.
   */
  private readonly revoked = new Map<string, { revocation: number; until: number }>();
  private revocations = 0;
  /** Counts workspace changes, so an answer asked for before one is not remembered after it. */
  private workspaceChanges = 0;
  private readonly ttlMs: number;

  constructor(
    private readonly auth: Client<typeof AuthService>,
    { ttlMs = 30_000, maxEntries = 10_000 }: KeyVerifierOptions = {},
  ) {
    this.ttlMs = ttlMs;
    this.cache = new LRUCache({ max: maxEntries, ttl: ttlMs });
  }

  /** Listens for auth's events; returns what stops listening. */
  async listen(bus: EventBus): Promise<Unsubscribe> {
    const stopKeys = await bus.listen(subjects.apiKeyDeleted, (msg) => {
      const deleted = fromBinary(ApiKeyDeletedSchema, msg.data);
      if (deleted.integration) this.forgetIntegration(deleted.keyId);
      else this.forgetKey(deleted.keyId);
    });
    const stopWorkspaces = await bus.listen(subjects.workspaceUpdated, (msg) =>
      this.forgetWorkspace(fromBinary(WorkspaceUpdatedSchema, msg.data).workspaceId),
    );
    return async () => {
      await stopKeys();
      await stopWorkspaces();
    };
  }

  /**
   * The caller a secret belongs to; a refusal auth explained (an expired key); or undefined for an
   * unknown or deleted key.
   */
  async verify(secret: string): Promise<Caller | Refusal | undefined> {
    const digest = hash("sha256", secret, "base64");
    const cached = this.cache.get(digest);
    if (cached) return cached;
    let pending = this.inFlight.get(digest);
    if (!pending) {
      pending = this.ask(secret, digest).finally(() => this.inFlight.delete(digest));
      this.inFlight.set(digest, pending);
    }
    return pending;
  }

  forgetKey(keyId: string): void {
    const now = Date.now();
    for (const [id, until] of this.deleted) if (until < now) this.deleted.delete(id);
    // An answer can be as old as the call that asked for it, which the deadline bounds.
    this.deleted.set(keyId, now + Math.max(this.ttlMs, 60_000));
    this.forgetCallers((caller) => caller.keyId === keyId);
  }

  /**
   * Forgets the access tokens an integration had issued (a consent withdrawn, the integration
   * deleted): an answer about one of them asked before now is neither remembered nor believed.
   * Unlike a deleted key, the integration's later tokens are taken.
   */
  forgetIntegration(integrationId: string): void {
    const now = Date.now();
    for (const [id, { until }] of this.revoked) if (until < now) this.revoked.delete(id);
    this.revocations += 1;
    this.revoked.set(integrationId, {
      revocation: this.revocations,
      until: now + Math.max(this.ttlMs, 60_000),
    });
    this.forgetCallers((caller) => caller.keyId === integrationId);
  }

  forgetWorkspace(workspaceId: string): void {
    this.workspaceChanges += 1;
    this.forgetCallers((caller) => caller.workspaceId === workspaceId);
  }

  /** Drops the remembered callers `gone` picks (collected first: the cache is not changed while read). */
  private forgetCallers(gone: (caller: Caller) => boolean): void {
    const digests = [...this.cache.entries()].filter(([, caller]) => gone(caller)).map(([digest]) => digest);
    for (const digest of digests) this.cache.delete(digest);
  }

  private async ask(secret: string, digest: string): Promise<Caller | Refusal | undefined> {
    const changesBefore = this.workspaceChanges;
    const revocationsBefore = this.revocations;
    try {
      const { key, apiAccessEnabled, workspaceName, accessToken, embeddedView } =
        await this.auth.verifyApiKey({
          secret,
        });
      if (!key || this.deleted.has(key.id)) return undefined;
      const view = viewOf(embeddedView);
      if (embeddedView && !view) return undefined;
      if ((this.revoked.get(key.id)?.revocation ?? 0) > revocationsBefore) return undefined;
      const expireTime = accessToken?.expireTime ?? key.expireTime;
      const caller: Caller = {
        keyId: key.id,
        keyName: key.name,
        workspaceId: key.workspaceId,
        workspaceName,
        apiAccessEnabled,
        ...(expireTime ? { keyExpiresAt: timestampMs(expireTime) } : {}),
        scopes: scopesOf(key, accessToken, embeddedView),
        test: key.test,
        ...(accessToken ? { onBehalfOf: { userId: accessToken.userId, email: accessToken.email } } : {}),
        ...(view ? { view } : {}),
      };
      if (changesBefore === this.workspaceChanges) {
        // Not remembered past the key's own expiry: then auth is asked, and refuses it.
        const untilExpiry = (caller.keyExpiresAt ?? Number.POSITIVE_INFINITY) - Date.now();
        if (untilExpiry > 0) this.cache.set(digest, caller, { ttl: Math.min(this.ttlMs, untilExpiry) });
      }
      return caller;
    } catch (err) {
      if (!(err instanceof ConnectError) || err.code !== Code.Unauthenticated) throw err;
      // Auth marks a message written for the API's caller with the problem code it stands for.
      const explained = err.findDetails(ProblemCodeSchema).some((detail) => detail.code === "unauthorized");
      return explained ? { refused: err.rawMessage } : undefined;
    }
  }
}
