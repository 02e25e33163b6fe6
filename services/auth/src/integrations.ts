/**
 * Integrations: programs that log in the way DocuSign's JWT grant does (RFC 7523), so a program
 * written for DocuSign keeps its log-in code. An Organization Admin registers the program's RSA
 * public key; the id we give it is its integration key. A member consents once to the program
 * acting as them; from then on an assertion the program signs — issuer the integration key,
 * subject the member, audience our host — becomes a one-hour access token for the workspace's
 * `/restapi`. Tokens are stored only as a keyed hash and end with their consent, their member's
 * membership or the integration.
 */
import { createPublicKey, type KeyObject, randomBytes, X509Certificate } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate, timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { ACCESS_TOKEN_PATTERN, subjects } from "@countersign/domain";
import {
  type Consent,
  ConsentSchema,
  type DescribeConsentResponse,
  DescribeConsentResponseSchema,
  type ExchangeJwtAssertionResponse,
  ExchangeJwtAssertionResponseSchema,
  type GetUserInfoResponse,
  GetUserInfoResponseSchema,
  type Integration,
  IntegrationSchema,
  type VerifyApiKeyResponse,
  VerifyApiKeyResponseSchema,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { ApiKeyDeletedSchema } from "@countersign/gen/countersign/events/v1/auth_events_pb.js";
import {
  type Database,
  enqueueEvent,
  type FieldViolation,
  isUuid,
  notFound,
  type Queryable,
  uuidv7,
} from "@countersign/kit";
import { decodeJwt, errors as joseErrors, jwtVerify } from "jose";
import { audit } from "./audit.js";
import { base62 } from "./secrets.js";
import { checkName, rejectViolations, requireUuid } from "./validation.js";

/** The scopes a consent and a token may carry: DocuSign's for the eSignature API and the JWT grant. */
export const SCOPES = ["signature", "impersonation"] as const;
/** DocuSign's tokens from the JWT grant last an hour; so do ours. */
export const TOKEN_LIFETIME_SECONDS = 3600;
/** How far the client's clock may be from ours when we read the assertion's times. */
const CLOCK_TOLERANCE_SECONDS = 60;
/** DocuSign caps an assertion's lifetime (exp − iat) at an hour: a leaked one is not a standing key. */
const MAX_ASSERTION_LIFETIME_SECONDS = 3600;
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const MAX_KEY_PEM_LENGTH = 16 * 1024;
const MIN_RSA_BITS = 2048;

export interface IntegrationsDeps {
  db: Database;
  hashSecret: (secret: string) => Buffer;
  eventsWritten: () => void;
}

interface IntegrationRow {
  id: string;
  workspace_id: string;
  name: string;
  public_key_pem: string;
  redirect_uris: string[];
  created_at: Date;
  last_used_at: Date | null;
}

interface ConsentRow {
  integration_id: string;
  user_id: string;
  email: string;
  scopes: string[];
  granted_at: Date;
}

/** A grant refused, as the token endpoint answers it. */
type Refusal = { error: string; errorDescription: string };

export class Integrations {
  constructor(private readonly deps: IntegrationsDeps) {}

  async create(
    workspaceId: string,
    name: string,
    publicKeyPem: string,
    redirectUris: readonly string[],
    actorUserId: string,
  ): Promise<Integration> {
    requireUuid(workspaceId, "workspace");
    const read = readPublicKey(publicKeyPem);
    rejectViolations([
      ...checkName(name, "name", 100),
      ...("violation" in read ? [read.violation] : []),
      ...checkRedirectUris(redirectUris),
    ]);
    // Kept as SPKI whatever was pasted: one form to read back and show.
    const pem = "key" in read ? read.key.export({ type: "spki", format: "pem" }).toString() : "";
    const row = await this.deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<IntegrationRow>(
        `INSERT INTO integrations (id, workspace_id, name, public_key_pem, redirect_uris)
         SELECT $1, id, $3, $4, $5 FROM workspaces WHERE id = $2
         RETURNING id, workspace_id, name, public_key_pem, redirect_uris, created_at, last_used_at`,
        [uuidv7(), workspaceId, name.trim(), pem, redirectUris.map((uri) => uri.trim())],
      );
      const inserted = rows[0];
      if (!inserted) throw notFound("workspace");
      await audit(tx, {
        workspaceId,
        actorUserId,
        action: "integration.created",
        target: inserted.name,
        detail: inserted.id,
      });
      return inserted;
    });
    return toIntegration(row, []);
  }

  async list(workspaceId: string): Promise<Integration[]> {
    requireUuid(workspaceId, "workspace");
    const { rows } = await this.deps.db.query<IntegrationRow>(
      `SELECT id, workspace_id, name, public_key_pem, redirect_uris, created_at, last_used_at
       FROM integrations WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC`,
      [workspaceId],
    );
    const consents = await this.consentsOf(
      this.deps.db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toIntegration(row, consents.get(row.id) ?? []));
  }

  async delete(workspaceId: string, integrationId: string, actorUserId: string): Promise<void> {
    requireUuid(workspaceId, "workspace");
    requireUuid(integrationId, "integration");
    await this.deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ name: string }>(
        "DELETE FROM integrations WHERE workspace_id = $1 AND id = $2 RETURNING name",
        [workspaceId, integrationId],
      );
      const deleted = rows[0];
      if (!deleted) throw notFound("integration");
      await audit(tx, { workspaceId, actorUserId, action: "integration.deleted", target: deleted.name });
      await announceRevoked(tx, integrationId, workspaceId);
    });
    this.deps.eventsWritten();
  }

  async describeConsent(
    integrationId: string,
    redirectUri: string,
    userId: string,
  ): Promise<DescribeConsentResponse> {
    const { integration, workspaceName } = await this.consentTarget(integrationId, redirectUri, userId);
    const { rows } = await this.deps.db.query<{ scopes: string[] }>(
      "SELECT scopes FROM integration_consents WHERE integration_id = $1 AND user_id = $2",
      [integrationId, userId],
    );
    return create(DescribeConsentResponseSchema, {
      integrationName: integration.name,
      workspaceId: integration.workspace_id,
      workspaceName,
      consentedScopes: rows[0]?.scopes ?? [],
    });
  }

  async grantConsent(
    integrationId: string,
    redirectUri: string,
    userId: string,
    scopes: readonly string[],
  ): Promise<void> {
    rejectViolations(checkScopes(scopes, "scopes"));
    const { integration } = await this.consentTarget(integrationId, redirectUri, userId);
    const granted = SCOPES.filter((scope) => scopes.includes(scope));
    await this.deps.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO integration_consents (integration_id, user_id, scopes) VALUES ($1, $2, $3)
         ON CONFLICT (integration_id, user_id) DO UPDATE SET scopes = EXCLUDED.scopes, granted_at = now()`,
        [integrationId, userId, granted],
      );
      await audit(tx, {
        workspaceId: integration.workspace_id,
        actorUserId: userId,
        action: "integration.consent_granted",
        target: integration.name,
        detail: granted.join(" "),
      });
    });
  }

  async withdrawConsent(
    workspaceId: string,
    integrationId: string,
    userId: string,
    actorUserId: string,
  ): Promise<void> {
    requireUuid(workspaceId, "workspace");
    requireUuid(integrationId, "integration");
    requireUuid(userId, "consent");
    await this.deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ name: string; email: string }>(
        `DELETE FROM integration_consents c USING integrations i, users u
         WHERE c.integration_id = $2 AND c.user_id = $3 AND i.id = c.integration_id AND i.workspace_id = $1
           AND u.id = c.user_id
         RETURNING i.name, u.email`,
        [workspaceId, integrationId, userId],
      );
      const withdrawn = rows[0];
      if (!withdrawn) throw notFound("consent");
      await audit(tx, {
        workspaceId,
        actorUserId,
        action: "integration.consent_withdrawn",
        target: withdrawn.name,
        detail: withdrawn.email,
      });
      await announceRevoked(tx, integrationId, workspaceId);
    });
    this.deps.eventsWritten();
  }

  /** The JWT bearer grant: a refusal names DocuSign's error, an acceptance is a new token. */
  async exchange(assertion: string, audience: string): Promise<ExchangeJwtAssertionResponse> {
    const outcome = await this.grant(assertion, audience);
    return create(ExchangeJwtAssertionResponseSchema, outcome);
  }

  private async grant(
    assertion: string,
    audience: string,
  ): Promise<Refusal | { accessToken: string; expiresIn: number; scopes: string[] }> {
    let claims: ReturnType<typeof decodeJwt>;
    try {
      claims = decodeJwt(assertion);
    } catch {
      return invalidGrant("the assertion is not a JWT");
    }
    const issuer = typeof claims.iss === "string" ? claims.iss.toLowerCase() : "";
    const integration = isUuid(issuer) ? await this.integration(this.deps.db, issuer) : undefined;
    if (!integration) return invalidGrant("issuer_not_found");
    let verified: Awaited<ReturnType<typeof jwtVerify>>["payload"];
    try {
      ({ payload: verified } = await jwtVerify(assertion, createPublicKey(integration.public_key_pem), {
        algorithms: ["RS256"],
        audience,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ["iss", "aud", "exp", "iat"],
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return invalidGrant("expired_grant");
      if (err instanceof joseErrors.JWTClaimValidationFailed)
        return invalidGrant(`the assertion's ${err.claim} is not valid: ${err.reason}`);
      return invalidGrant("no_valid_keys_or_signatures");
    }
    const lifetime = assertionLifetimeRefusal(verified, Math.floor(Date.now() / 1000));
    if (lifetime) return invalidGrant(lifetime);
    const requested =
      typeof claims.scope === "string" ? [...new Set(claims.scope.split(" ").filter(Boolean))] : [];
    const unknown = requested.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
    if (unknown.length > 0) {
      return { error: "invalid_scope", errorDescription: `unknown scope: ${unknown.join(" ")}` };
    }
    if (!requested.includes("signature") || !requested.includes("impersonation")) {
      return {
        error: "invalid_scope",
        errorDescription: 'the JWT grant needs the scope "signature impersonation"',
      };
    }
    const subject = typeof claims.sub === "string" ? claims.sub.toLowerCase() : "";
    const member = isUuid(subject)
      ? (
          await this.deps.db.query("SELECT 1 FROM memberships WHERE workspace_id = $1 AND user_id = $2", [
            integration.workspace_id,
            subject,
          ])
        ).rows[0]
      : undefined;
    if (!member) return invalidGrant("user_not_found");
    const accessToken = `oat_${base62(randomBytes(32), 43)}`;
    // Expired tokens go as new ones come (by the expiry index), so the table holds the live ones.
    await this.deps.db.query("DELETE FROM access_tokens WHERE expires_at < now()");
    // Issued only under a consent to every scope asked, in the one statement: a consent withdrawn
    // meanwhile leaves nothing to issue under.
    const issued = await this.deps.db.query(
      `INSERT INTO access_tokens (token_hash, integration_id, user_id, scopes, expires_at)
       SELECT $1, integration_id, user_id, $4, now() + make_interval(secs => $5) FROM integration_consents
       WHERE integration_id = $2 AND user_id = $3 AND scopes @> $4::text[]`,
      [this.deps.hashSecret(accessToken), integration.id, subject, requested, TOKEN_LIFETIME_SECONDS],
    );
    if (issued.rowCount === 0) return { error: "consent_required", errorDescription: "" };
    return { accessToken, expiresIn: TOKEN_LIFETIME_SECONDS, scopes: requested };
  }

  /** Resolves an access token as VerifyApiKey resolves a key: the integration stands for the key. */
  async verify(token: string): Promise<VerifyApiKeyResponse> {
    const row = await this.liveToken(token);
    return create(VerifyApiKeyResponseSchema, {
      key: { id: row.integration_id, name: row.integration_name, workspaceId: row.workspace_id },
      apiAccessEnabled: row.api_access_enabled,
      workspaceName: row.workspace_name,
      accessToken: {
        userId: row.user_id,
        email: row.email,
        scopes: row.scopes,
        expireTime: timestampFromDate(row.expires_at),
      },
    });
  }

  async userInfo(token: string): Promise<GetUserInfoResponse> {
    const row = await this.liveToken(token);
    return create(GetUserInfoResponseSchema, {
      userId: row.user_id,
      email: row.email,
      createTime: timestampFromDate(row.user_created_at),
      workspaceId: row.workspace_id,
      workspaceName: row.workspace_name,
    });
  }

  /** A token that is known, unexpired, of a consent that stands, of a member who still is one. */
  private async liveToken(token: string) {
    const { rows } = ACCESS_TOKEN_PATTERN.test(token)
      ? await this.deps.db.query<{
          integration_id: string;
          integration_name: string;
          workspace_id: string;
          workspace_name: string;
          api_access_enabled: boolean;
          user_id: string;
          email: string;
          user_created_at: Date;
          scopes: string[];
          expires_at: Date;
        }>(
          `SELECT t.integration_id, i.name AS integration_name, i.workspace_id, w.name AS workspace_name,
                  w.api_access_enabled, t.user_id, u.email, u.created_at AS user_created_at, t.scopes, t.expires_at
           FROM access_tokens t
           JOIN integrations i ON i.id = t.integration_id
           JOIN workspaces w ON w.id = i.workspace_id
           JOIN users u ON u.id = t.user_id
           JOIN memberships m ON m.workspace_id = i.workspace_id AND m.user_id = t.user_id
           WHERE t.token_hash = $1 AND t.expires_at > now()`,
          [this.deps.hashSecret(token)],
        )
      : { rows: [] };
    const row = rows[0];
    if (!row) throw new ConnectError("unknown or expired access token", Code.Unauthenticated);
    return row;
  }

  /** The integration a consent page names, checked: known, the redirect URI its own, the person its member. */
  private async consentTarget(integrationId: string, redirectUri: string, userId: string) {
    requireUuid(userId, "user");
    const integration = isUuid(integrationId)
      ? await this.integration(this.deps.db, integrationId.toLowerCase())
      : undefined;
    if (!integration) throw notFound("integration");
    if (!integration.redirect_uris.includes(redirectUri)) {
      throw new ConnectError("the redirect URI is not one the integration registered", Code.NotFound);
    }
    const { rows } = await this.deps.db.query<{ workspace_name: string }>(
      `SELECT w.name AS workspace_name FROM workspaces w
       JOIN memberships m ON m.workspace_id = w.id AND m.user_id = $2 WHERE w.id = $1`,
      [integration.workspace_id, userId],
    );
    const member = rows[0];
    if (!member) {
      throw new ConnectError(
        "this integration acts in a workspace you are not a member of",
        Code.PermissionDenied,
      );
    }
    return { integration, workspaceName: member.workspace_name };
  }

  private async integration(db: Queryable, id: string): Promise<IntegrationRow | undefined> {
    const { rows } = await db.query<IntegrationRow>(
      `SELECT id, workspace_id, name, public_key_pem, redirect_uris, created_at, last_used_at
       FROM integrations WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  private async consentsOf(db: Queryable, integrationIds: string[]): Promise<Map<string, Consent[]>> {
    const byIntegration = new Map<string, Consent[]>();
    if (integrationIds.length === 0) return byIntegration;
    const { rows } = await db.query<ConsentRow>(
      `SELECT c.integration_id, c.user_id, u.email, c.scopes, c.granted_at
       FROM integration_consents c JOIN users u ON u.id = c.user_id
       WHERE c.integration_id = ANY($1) ORDER BY c.granted_at`,
      [integrationIds],
    );
    for (const row of rows) {
      const list = byIntegration.get(row.integration_id) ?? [];
      list.push(
        create(ConsentSchema, {
          userId: row.user_id,
          email: row.email,
          scopes: row.scopes,
          grantTime: timestampFromDate(row.granted_at),
        }),
      );
      byIntegration.set(row.integration_id, list);
    }
    return byIntegration;
  }
}

/**
 * jose checks only that exp is not past; an assertion must also have been made now and for at most
 * an hour. iat no later than now + skew and exp − iat within the hour together bound exp to
 * now + 1 h + skew. jose has already required both claims as numbers.
 */
function assertionLifetimeRefusal(claims: { iat?: number; exp?: number }, now: number): string | undefined {
  const { iat, exp } = claims;
  if (iat === undefined || exp === undefined) return "the assertion needs both iat and exp";
  if (iat > now + CLOCK_TOLERANCE_SECONDS) return "the assertion's iat is in the future";
  if (exp - iat > MAX_ASSERTION_LIFETIME_SECONDS)
    return "the assertion lives longer than an hour: exp may be at most 3600 seconds after iat";
  return undefined;
}

function invalidGrant(description: string): Refusal {
  return { error: "invalid_grant", errorDescription: description };
}

/** Every gateway forgets the integration's cached tokens (the event API key deletions use). */
async function announceRevoked(tx: Queryable, integrationId: string, workspaceId: string): Promise<void> {
  await enqueueEvent(
    tx,
    subjects.apiKeyDeleted,
    ApiKeyDeletedSchema,
    create(ApiKeyDeletedSchema, {
      keyId: integrationId,
      workspaceId,
      deleteTime: timestampNow(),
      integration: true,
    }),
  );
}

function toIntegration(row: IntegrationRow, consents: Consent[]): Integration {
  return create(IntegrationSchema, {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    publicKeyPem: row.public_key_pem,
    redirectUris: row.redirect_uris,
    createTime: timestampFromDate(row.created_at),
    lastUseTime: row.last_used_at ? timestampFromDate(row.last_used_at) : undefined,
    consents,
  });
}

/** The RSA public key in a PEM (SPKI, PKCS#1 or a certificate), or why it is not one we take. */
export function readPublicKey(pem: string): { key: KeyObject } | { violation: FieldViolation } {
  const refuse = (message: string) => ({ violation: { path: "publicKey", message } });
  if (pem.length > MAX_KEY_PEM_LENGTH) return refuse(`must be at most ${MAX_KEY_PEM_LENGTH} characters`);
  // A private key would be read too (its public half derived), and must never be handed to us.
  if (/PRIVATE KEY/.test(pem)) {
    return refuse("is a private key: paste the public key; the private key stays with your program");
  }
  let key: KeyObject;
  try {
    key = /BEGIN CERTIFICATE/.test(pem) ? new X509Certificate(pem).publicKey : createPublicKey(pem);
  } catch {
    return refuse("must be an RSA public key in PEM (“-----BEGIN PUBLIC KEY-----”) or a certificate");
  }
  if (key.asymmetricKeyType !== "rsa") return refuse("must be an RSA key: the JWT grant signs with RS256");
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) return refuse(`must be at least ${MIN_RSA_BITS} bits; this one has ${bits}`);
  return { key };
}

function checkRedirectUris(uris: readonly string[]): FieldViolation[] {
  if (uris.length === 0) return [{ path: "redirectUris", message: "must list at least one URI" }];
  if (uris.length > MAX_REDIRECT_URIS)
    return [{ path: "redirectUris", message: `must list at most ${MAX_REDIRECT_URIS} URIs` }];
  return uris.flatMap((uri, i) => {
    const path = `redirectUris.${i}`;
    if (uri.trim().length > MAX_URI_LENGTH)
      return [{ path, message: `must be at most ${MAX_URI_LENGTH} characters` }];
    const url = URL.parse(uri.trim());
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
      return [{ path, message: "must be an absolute http or https URL" }];
    if (url.hash) return [{ path, message: "must not have a fragment (#…)" }];
    return [];
  });
}

function checkScopes(scopes: readonly string[], path: string): FieldViolation[] {
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) return [{ path, message: `unknown scope: ${unknown.join(" ")}` }];
  if (!scopes.includes("signature")) return [{ path, message: 'must include "signature"' }];
  return [];
}
