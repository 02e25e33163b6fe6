/**
 * A workspace's console log-in through its OpenID Connect identity provider: the settings an
 * Organization Admin keeps (issuer, client, the e-mail domains whose people join on their first
 * log-in, whether password log-in stays on), and each log-in from its start (state, nonce and PKCE
 * verifier kept here, never in the browser) to its session. This service is the relying party: the
 * client secret never leaves it.
 */

import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { addressKey } from "@countersign/domain";
import {
  Role,
  type Session,
  type SingleSignOn as SingleSignOnMessage,
  SingleSignOnRefusal,
  SingleSignOnSchema,
  type UpdateSingleSignOnRequest,
  type Workspace,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import {
  type Database,
  type FieldViolation,
  type Logger,
  notFound,
  type Queryable,
  type SecretBox,
  uuidv7,
} from "@countersign/kit";
import * as oidc from "openid-client";
import type { Accounts } from "./accounts.js";
import { audit } from "./audit.js";
import { type IdentityProviders, issuerProblem, reasonOf, refusalOf } from "./identity-providers.js";
import { roleLabel, roleName, toWorkspace } from "./messages.js";
import { sha256 } from "./secrets.js";
import { store, type UserRow, type WorkspaceRow } from "./store.js";
import { checkEmail, rejectViolations, requireUuid } from "./validation.js";

/** How long a person has at their identity provider before the log-in must start again. */
export const SSO_LOGIN_TTL_MS = 10 * 60 * 1000;
const MAX_DOMAINS = 50;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

interface SettingsRow {
  workspace_id: string;
  enabled: boolean;
  issuer: string;
  client_id: string;
  client_secret_sealed: Buffer | null;
  allowed_domains: string[];
  new_member_role: "org_admin" | "member";
  password_login_enabled: boolean;
  updated_at: Date;
  provider_changed_at: Date;
}

interface LoginRow {
  workspace_id: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
}

export interface SingleSignOnDeps {
  db: Database;
  accounts: Accounts;
  providers: IdentityProviders;
  /** Seals client secrets at rest, each bound to its workspace. */
  secrets: SecretBox;
  logger: Logger;
}

export type FinishedLogIn =
  | { token: string; expiresAt: Date; session: Session; workspaceId: string }
  | { refusal: SingleSignOnRefusal; detail: string; workspaceId: string };

export class SingleSignOn {
  constructor(private readonly deps: SingleSignOnDeps) {}

  async get(workspaceId: string): Promise<SingleSignOnMessage> {
    requireUuid(workspaceId, "workspace");
    if (!(await store.workspace(this.deps.db, workspaceId))) throw notFound("workspace");
    return toMessage(workspaceId, await settingsOf(this.deps.db, workspaceId));
  }

  async update(change: UpdateSingleSignOnRequest): Promise<SingleSignOnMessage> {
    const workspaceId = requireUuid(change.workspaceId, "workspace");
    const issuer = change.issuer.trim();
    const clientId = change.clientId.trim();
    const domains = [...new Set(change.allowedDomains.map((d) => d.trim().toLowerCase()))];
    const role = change.newMemberRole === Role.UNSPECIFIED ? "member" : roleName(change.newMemberRole);
    rejectViolations(checkSettings({ ...change, issuer, clientId, domains, role }));
    const before = await settingsOf(this.deps.db, workspaceId);
    if (!(await store.workspace(this.deps.db, workspaceId))) throw notFound("workspace");
    if (change.enabled && !change.clientSecret && !before?.client_secret_sealed) {
      rejectViolations([{ path: "clientSecret", message: "is needed to switch single sign-on on" }]);
    }
    // A new provider, client or secret is tried before it is stored, so that settings that cannot
    // work are refused with the reason. Settings that leave them as they were are saved without
    // asking the provider: switching password log-in back on must work while it is down.
    const providerChanged =
      !before?.enabled ||
      before.issuer !== issuer ||
      before.client_id !== clientId ||
      Boolean(change.clientSecret);
    if (!change.passwordLoginEnabled) await this.mayTurnPasswordLogInOff(change, before, providerChanged);
    if (change.enabled && providerChanged) {
      let clientSecret = change.clientSecret;
      try {
        clientSecret ||= this.storedSecret(before as SettingsRow);
      } catch (error) {
        rejectViolations([{ path: "clientSecret", message: `${(error as Error).message}: enter it again` }]);
      }
      await this.deps.providers.configuration({ issuer, clientId, clientSecret });
    }
    const sealedSecret = change.clientSecret
      ? this.deps.secrets.seal(change.clientSecret, workspaceId)
      : (before?.client_secret_sealed ?? null);
    const row = await this.deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<SettingsRow>(
        `INSERT INTO single_sign_on (workspace_id, enabled, issuer, client_id, client_secret_sealed,
           allowed_domains, new_member_role, password_login_enabled, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
         ON CONFLICT (workspace_id) DO UPDATE SET enabled = $2, issuer = $3, client_id = $4,
           client_secret_sealed = $5, allowed_domains = $6, new_member_role = $7,
           password_login_enabled = $8, updated_at = now(),
           provider_changed_at = CASE WHEN $9 THEN now() ELSE single_sign_on.provider_changed_at END
         RETURNING *`,
        [
          workspaceId,
          change.enabled,
          issuer,
          clientId,
          sealedSecret,
          domains,
          role,
          change.passwordLoginEnabled,
          providerChanged,
        ],
      );
      const after = rows[0] as SettingsRow;
      await audit(tx, {
        workspaceId,
        actorUserId: change.actorUserId,
        action: "single_sign_on.changed",
        target: after.issuer || "no identity provider",
        detail: changeSummary(before, after, Boolean(change.clientSecret)),
      });
      return after;
    });
    return toMessage(workspaceId, row);
  }

  /**
   * With password log-in off, whoever cannot log in through the provider is locked out. From the
   * console it is switched off only in a session that came through this workspace's provider as
   * saved now (opened since it last changed): proof that it works for at least the person
   * switching; and while it is off the provider is not changed from the console, where a wrong
   * secret would lock everyone out. The operator (CLI, no actor) is trusted: it is the way back.
   */
  private async mayTurnPasswordLogInOff(
    change: UpdateSingleSignOnRequest,
    before: SettingsRow | undefined,
    providerChanged: boolean,
  ): Promise<void> {
    if (!change.enabled) {
      throw new ConnectError(
        "password log-in can be switched off only while single sign-on is on: nobody could log in",
        Code.FailedPrecondition,
      );
    }
    if (!change.actorUserId) return;
    if (before?.password_login_enabled === false) {
      if (!providerChanged) return;
      throw new ConnectError(
        "switch password log-in on before changing the identity provider, its client or secret: a change that does not work would lock everyone out",
        Code.FailedPrecondition,
      );
    }
    const session = await this.deps.accounts.sessionUser(change.actorSessionToken).catch(() => undefined);
    if (
      providerChanged ||
      !before ||
      session?.id !== change.actorUserId ||
      session.single_sign_on_workspace_id !== change.workspaceId ||
      session.created_at < before.provider_changed_at
    ) {
      throw new ConnectError(
        "to switch password log-in off, save single sign-on first, then log in through it and switch password log-in off in that session: it proves the settings work",
        Code.FailedPrecondition,
      );
    }
  }

  /** Workspaces with single sign-on on that let people of this e-mail's domain join. */
  async find(email: string): Promise<Workspace[]> {
    const domain = addressKey(email).split("@")[1];
    if (!domain || !DOMAIN.test(domain)) return [];
    const { rows } = await this.deps.db.query<WorkspaceRow>(
      `SELECT w.* FROM single_sign_on s JOIN workspaces w ON w.id = s.workspace_id
       WHERE s.enabled AND $1 = ANY(s.allowed_domains) ORDER BY w.name LIMIT 20`,
      [domain],
    );
    return rows.map(toWorkspace);
  }

  async begin(
    workspaceId: string,
    redirectUri: string,
  ): Promise<{ authorizationUrl: string; state: string; expiresAt: Date }> {
    requireUuid(workspaceId, "workspace");
    const settings = await settingsOf(this.deps.db, workspaceId);
    if (!settings?.enabled) {
      throw new ConnectError("this workspace has no single sign-on switched on", Code.FailedPrecondition);
    }
    const configuration = await this.deps.providers.configuration(this.clientOf(settings));
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const expiresAt = new Date(Date.now() + SSO_LOGIN_TTL_MS);
    await this.deps.db.query("DELETE FROM single_sign_on_logins WHERE expires_at < now()");
    await this.deps.db.query(
      `INSERT INTO single_sign_on_logins (state_hash, workspace_id, nonce, code_verifier, redirect_uri, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [sha256(state), workspaceId, nonce, codeVerifier, redirectUri, expiresAt],
    );
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: "openid email profile",
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
    });
    return { authorizationUrl: url.href, state, expiresAt };
  }

  /**
   * Completes a log-in from the address the provider sent the browser back to. The log-in under
   * way is taken (used once) by the state the browser kept; the callback's own state, the code's
   * PKCE verifier and the ID token's nonce, audience, issuer, signature and expiry are then checked
   * by the client library. Every refusal is audited in the workspace with its reason.
   */
  async finish(state: string, callbackUrl: string, clientAddress: string): Promise<FinishedLogIn> {
    const login = state ? await takeLogin(this.deps.db, state) : undefined;
    if (!login) {
      return {
        refusal: SingleSignOnRefusal.EXPIRED,
        detail: "no log-in under way for this browser (too old, finished already, or started elsewhere)",
        workspaceId: "",
      };
    }
    const { workspace_id: workspaceId } = login;
    const settings = await settingsOf(this.deps.db, workspaceId);
    const refuse = async (refusal: SingleSignOnRefusal, detail: string, email = "") => {
      this.deps.logger.warn(
        { workspaceId, refusal: SingleSignOnRefusal[refusal], detail, clientAddress },
        "single sign-on refused",
      );
      await audit(this.deps.db, {
        workspaceId,
        actorUserId: "",
        actorLabel: email || "Someone at the identity provider",
        action: "single_sign_on.refused",
        target: settings?.issuer ?? "",
        detail: clientAddress ? `${detail} (from ${clientAddress})` : detail,
      });
      return { refusal, detail, workspaceId };
    };
    if (!settings?.enabled) return refuse(SingleSignOnRefusal.UNAVAILABLE, "single sign-on was switched off");
    // Each workspace has a redirect URI of its own. A code that comes back to another's was issued
    // for another client: a provider that forwarded this log-in elsewhere (a mix-up) would be sent
    // that code with this log-in's verifier, so it is refused before anything is sent anywhere.
    if (new URL(callbackUrl, login.redirect_uri).pathname !== new URL(login.redirect_uri).pathname) {
      return refuse(
        SingleSignOnRefusal.ANSWER_REJECTED,
        "the browser came back to another workspace's redirect URI than this log-in was started for",
      );
    }
    let identity: { subject: string; email: string };
    try {
      identity = await this.identityFrom(settings, login, state, callbackUrl);
    } catch (error) {
      if (error instanceof NotAllowed)
        return refuse(SingleSignOnRefusal.NOT_ALLOWED, error.message, error.email);
      return refuse(refusalOf(error), reasonOf(error));
    }
    const user = await this.memberFor(settings, identity);
    if ("refusal" in user) return refuse(SingleSignOnRefusal.NOT_ALLOWED, user.refusal, identity.email);
    const opened = await this.deps.accounts.openSession(user, workspaceId);
    return { ...opened, workspaceId };
  }

  /** The person the provider vouches for: its ID token checked, the e-mail from it or from userinfo. */
  private async identityFrom(
    settings: SettingsRow,
    login: LoginRow,
    state: string,
    callbackUrl: string,
  ): Promise<{ subject: string; email: string }> {
    const configuration = await this.deps.providers.configuration(this.clientOf(settings));
    // The redirect URI sent at the start, with the query the provider added: what the token
    // request must name, whatever host the gateway was reached by.
    const current = new URL(login.redirect_uri);
    current.search = new URL(callbackUrl, login.redirect_uri).search;
    const tokens = await oidc.authorizationCodeGrant(configuration, current, {
      pkceCodeVerifier: login.code_verifier,
      expectedState: state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new oidc.ClientError("the provider sent no ID token");
    let { email, email_verified: verified } = claims as { email?: unknown; email_verified?: unknown };
    if (typeof email !== "string" || verified === undefined) {
      const info = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      email = info.email;
      verified = info.email_verified;
    }
    if (typeof email !== "string" || checkEmail(email).length > 0) {
      throw new NotAllowed("the identity provider gave no e-mail address (ask for the “email” scope)");
    }
    // An address the provider does not vouch for could be anyone's (a provider that lets its users
    // type their own): it neither finds a member nor joins.
    if (verified !== true) {
      throw new NotAllowed(
        `the identity provider does not say ${email} is verified (email_verified)`,
        addressKey(email),
      );
    }
    return { subject: claims.sub, email: addressKey(email) };
  }

  /**
   * The member this identity is. After the first log-in a person is found by the provider's
   * subject. Before it, by e-mail among the workspace's members only: a log-in through one
   * workspace's provider never reaches an account that is not that workspace's (its admin chose the
   * provider, and could make it say any address). Someone the deployment does not know yet joins,
   * with the workspace's role for newcomers, when their e-mail's domain is allowed; someone it knows
   * from elsewhere is invited first.
   */
  private async memberFor(
    settings: SettingsRow,
    identity: { subject: string; email: string },
  ): Promise<UserRow | { refusal: string }> {
    const workspaceId = settings.workspace_id;
    return this.deps.db.transaction(async (tx) => {
      const linked = await tx.query<UserRow>(
        `SELECT u.id, u.email, u.password_hash FROM single_sign_on_identities i JOIN users u ON u.id = i.user_id
         WHERE i.workspace_id = $1 AND i.issuer = $2 AND i.subject = $3`,
        [workspaceId, settings.issuer, identity.subject],
      );
      let user: UserRow | undefined = linked.rows[0];
      let member = user !== undefined && (await store.member(tx, workspaceId, user.id)) !== undefined;
      if (!user) {
        const byEmail = await store.userByEmail(tx, identity.email);
        if (byEmail) {
          if (!(await store.member(tx, workspaceId, byEmail.id))) {
            return {
              refusal: `${identity.email} has an account but is not a member of this workspace: an Organization Admin adds them under Members first`,
            };
          }
          if (await linkedToAnother(tx, settings, byEmail.id)) {
            return { refusal: `${identity.email} belongs to another identity at this identity provider` };
          }
          user = byEmail;
          member = true;
        }
      }
      if (!member) {
        const domain = identity.email.split("@")[1] ?? "";
        if (!settings.allowed_domains.includes(domain)) {
          return {
            refusal: `${identity.email} is not a member, and ${domain} is not a domain allowed to join`,
          };
        }
      }
      if (!user) {
        user = { id: uuidv7(), email: identity.email, password_hash: null };
        await store.insertUser(tx, user);
      }
      if (!member) {
        await store.upsertMembership(tx, workspaceId, user.id, settings.new_member_role);
        await audit(tx, {
          workspaceId,
          actorUserId: user.id,
          action: "member.joined",
          target: user.email,
          detail: `${roleLabel(settings.new_member_role)}, through single sign-on`,
        });
      }
      await tx.query(
        `INSERT INTO single_sign_on_identities (workspace_id, issuer, subject, user_id)
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [workspaceId, settings.issuer, identity.subject, user.id],
      );
      return user;
    });
  }

  private clientOf(settings: SettingsRow) {
    return {
      issuer: settings.issuer,
      clientId: settings.client_id,
      clientSecret: this.storedSecret(settings),
    };
  }

  /** The stored client secret; throws, saying why, when it no longer opens (the key pepper changed). */
  private storedSecret(settings: SettingsRow): string {
    return settings.client_secret_sealed
      ? this.deps.secrets.open(settings.client_secret_sealed, settings.workspace_id)
      : "";
  }
}

/** A person the provider vouched for whom the workspace does not let in. */
class NotAllowed extends Error {
  constructor(
    message: string,
    readonly email = "",
  ) {
    super(message);
  }
}

async function settingsOf(db: Queryable, workspaceId: string): Promise<SettingsRow | undefined> {
  const { rows } = await db.query<SettingsRow>("SELECT * FROM single_sign_on WHERE workspace_id = $1", [
    workspaceId,
  ]);
  return rows[0];
}

async function takeLogin(db: Queryable, state: string): Promise<LoginRow | undefined> {
  const { rows } = await db.query<LoginRow>(
    `DELETE FROM single_sign_on_logins WHERE state_hash = $1 AND expires_at > now()
     RETURNING workspace_id, nonce, code_verifier, redirect_uri`,
    [sha256(state)],
  );
  return rows[0];
}

async function linkedToAnother(tx: Queryable, settings: SettingsRow, userId: string): Promise<boolean> {
  const { rowCount } = await tx.query(
    "SELECT 1 FROM single_sign_on_identities WHERE workspace_id = $1 AND issuer = $2 AND user_id = $3",
    [settings.workspace_id, settings.issuer, userId],
  );
  return rowCount > 0;
}

function checkSettings(s: {
  enabled: boolean;
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string[];
  role: string | undefined;
}): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const issuerWrong = s.issuer || s.enabled ? issuerProblem(s.issuer) : undefined;
  if (issuerWrong) violations.push({ path: "issuer", message: issuerWrong });
  if (s.issuer.length > 500) violations.push({ path: "issuer", message: "must be at most 500 characters" });
  if (s.enabled && !s.clientId)
    violations.push({ path: "clientId", message: "is needed to switch single sign-on on" });
  if (s.clientId.length > 255)
    violations.push({ path: "clientId", message: "must be at most 255 characters" });
  if (s.clientSecret.length > 1024)
    violations.push({ path: "clientSecret", message: "must be at most 1024 characters" });
  if (s.domains.length > MAX_DOMAINS)
    violations.push({ path: "allowedDomains", message: `must be at most ${MAX_DOMAINS}` });
  s.domains.forEach((domain, i) => {
    if (!DOMAIN.test(domain))
      violations.push({
        path: `allowedDomains[${i}]`,
        message: "must be a domain name, such as example.com",
      });
  });
  if (!s.role) violations.push({ path: "newMemberRole", message: "must be org_admin or member" });
  return violations;
}

function toMessage(workspaceId: string, row: SettingsRow | undefined): SingleSignOnMessage {
  return create(SingleSignOnSchema, {
    workspaceId,
    enabled: row?.enabled ?? false,
    issuer: row?.issuer ?? "",
    clientId: row?.client_id ?? "",
    clientSecretSet: Boolean(row?.client_secret_sealed),
    allowedDomains: row?.allowed_domains ?? [],
    newMemberRole: row?.new_member_role === "org_admin" ? Role.ORG_ADMIN : Role.MEMBER,
    passwordLoginEnabled: row?.password_login_enabled ?? true,
    updateTime: row ? timestampFromDate(row.updated_at) : undefined,
  });
}

/** What a change did, for the audit: the parts that changed, the secret only as "replaced". */
function changeSummary(before: SettingsRow | undefined, after: SettingsRow, secretReplaced: boolean): string {
  const parts: string[] = [];
  if (before?.enabled !== after.enabled) parts.push(after.enabled ? "switched on" : "switched off");
  if ((before?.issuer ?? "") !== after.issuer) parts.push(`issuer ${after.issuer || "removed"}`);
  if ((before?.client_id ?? "") !== after.client_id) parts.push(`client id ${after.client_id || "removed"}`);
  if (secretReplaced) parts.push("client secret replaced");
  if ((before?.allowed_domains ?? []).join() !== after.allowed_domains.join()) {
    parts.push(`domains allowed to join: ${after.allowed_domains.join(", ") || "none"}`);
  }
  if ((before?.new_member_role ?? "member") !== after.new_member_role) {
    parts.push(`newcomers join as ${roleLabel(after.new_member_role)}`);
  }
  if ((before?.password_login_enabled ?? true) !== after.password_login_enabled) {
    parts.push(after.password_login_enabled ? "password log-in switched on" : "password log-in switched off");
  }
  return parts.join("; ") || "saved unchanged";
}
