/**
 * Workspaces, the people in them and their console sessions. A person has one log-in (email and
 * password) and may belong to several workspaces, with a role in each.
 */
import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { addressKey, subjects } from "@countersign/domain";
import {
  type Member,
  type Role,
  type Session,
  SessionSchema,
  type Workspace,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { WorkspaceUpdatedSchema } from "@countersign/gen/countersign/events/v1/auth_events_pb.js";
import { type Database, enqueueEvent, notFound, type Queryable, uuidv7 } from "@countersign/kit";
import { audit } from "./audit.js";
import type { LoginThrottle } from "./login-throttle.js";
import { roleLabel, roleName, toMember, toWorkspace } from "./messages.js";
import { type Passwords, UNKNOWN_USER_HASH } from "./passwords.js";
import { generatePassword, newSessionToken, sha256 } from "./secrets.js";
import { type SessionUser, store, type UserRow } from "./store.js";
import { checkEmail, checkName, checkPassword, rejectViolations, requireUuid } from "./validation.js";

export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface AccountsDeps {
  db: Database;
  /** Called after a commit that wrote events, so they go out at once. */
  eventsWritten: () => void;
  passwords: Passwords;
  throttle: LoginThrottle;
  /**
   * A person's account has just been locked by failed log-ins: they are told. Runs in the
   * transaction that locks it; `lockNoticesQueued` after it commits.
   */
  accountLocked: (
    tx: Queryable,
    lock: { userId: string; lockedUntil: Date; failures: number; address: string },
  ) => Promise<void>;
  lockNoticesQueued: () => void;
}

export class Accounts {
  constructor(private readonly deps: AccountsDeps) {}

  async createWorkspace(name: string, apiAccessEnabled = true): Promise<Workspace> {
    rejectViolations(checkName(name, "name", 200));
    const row = await store.insertWorkspace(this.deps.db, {
      id: uuidv7(),
      name: name.trim(),
      api_access_enabled: apiAccessEnabled,
    });
    return toWorkspace(row);
  }

  async listWorkspaces(): Promise<Workspace[]> {
    return (await store.workspaces(this.deps.db)).map(toWorkspace);
  }

  async getWorkspace(id: string): Promise<Workspace> {
    const row = await store.workspace(this.deps.db, requireUuid(id, "workspace"));
    if (!row) throw notFound("workspace");
    return toWorkspace(row);
  }

  async updateWorkspace(
    id: string,
    change: { name?: string; apiAccessEnabled?: boolean },
    actorUserId = "",
  ): Promise<Workspace> {
    requireUuid(id, "workspace");
    if (change.name !== undefined) rejectViolations(checkName(change.name, "name", 200));
    const row = await this.deps.db.transaction(async (tx) => {
      const before = await store.workspace(tx, id, { forUpdate: true });
      const updated = await store.updateWorkspace(tx, id, { ...change, name: change.name?.trim() });
      if (!before || !updated) throw notFound("workspace");
      if (updated.name !== before.name) {
        await audit(tx, {
          workspaceId: id,
          actorUserId,
          action: "workspace.renamed",
          target: updated.name,
          detail: `was “${before.name}”`,
        });
      }
      if (updated.api_access_enabled !== before.api_access_enabled) {
        await audit(tx, {
          workspaceId: id,
          actorUserId,
          action: updated.api_access_enabled
            ? "workspace.api_access_enabled"
            : "workspace.api_access_disabled",
          target: updated.name,
        });
      }
      await enqueueEvent(
        tx,
        subjects.workspaceUpdated,
        WorkspaceUpdatedSchema,
        create(WorkspaceUpdatedSchema, {
          workspaceId: id,
          apiAccessEnabled: updated.api_access_enabled,
          updateTime: timestampNow(),
        }),
      );
      return updated;
    });
    this.deps.eventsWritten();
    return toWorkspace(row);
  }

  /**
   * Adds a person to a workspace. A new email gets a log-in with the given password, or with a
   * generated one that is returned this once; an existing person keeps theirs and gets the role.
   */
  async addMember(
    workspaceId: string,
    email: string,
    role: Role,
    password: string,
    actorUserId = "",
  ): Promise<{ member: Member; generatedPassword: string }> {
    requireUuid(workspaceId, "workspace");
    const role_ = roleName(role);
    rejectViolations([
      ...checkEmail(email),
      ...(role_ ? [] : [{ path: "role", message: "must be org_admin or member" }]),
      ...(password ? checkPassword(password) : []),
    ]);
    const normalised = addressKey(email);
    const generatedPassword = password ? "" : generatePassword();
    const passwordHash = await this.deps.passwords.hash(password || generatedPassword);
    const { member, newLogIn } = await this.deps.db.transaction(async (tx) => {
      if (!(await store.workspace(tx, workspaceId))) throw notFound("workspace");
      let user = await store.userByEmail(tx, normalised);
      if (user && password) {
        throw new ConnectError(
          "this person already has a log-in; their password is left as it is",
          Code.AlreadyExists,
        );
      }
      const newLogIn = !user;
      if (!user) {
        user = { id: uuidv7(), email: normalised, password_hash: passwordHash };
        await store.insertUser(tx, user);
      }
      const member = await store.upsertMembership(tx, workspaceId, user.id, role_ as string);
      await audit(tx, {
        workspaceId,
        actorUserId,
        action: "member.added",
        target: member.email,
        detail: `${roleLabel(member.role)}${newLogIn ? ", with a new log-in" : ""}`,
      });
      return { member, newLogIn };
    });
    return { member: toMember(member), generatedPassword: newLogIn ? generatedPassword : "" };
  }

  async listMembers(workspaceId: string): Promise<Member[]> {
    requireUuid(workspaceId, "workspace");
    return (await store.members(this.deps.db, { workspaceId })).map(toMember);
  }

  async createSession(
    email: string,
    password: string,
    clientAddress = "",
  ): Promise<{ token: string; expiresAt: Date; session: Session }> {
    const user = await this.authenticate(email, password, clientAddress);
    const memberships = await store.members(this.deps.db, { userId: user.id });
    const off = await store.passwordLoginOff(
      this.deps.db,
      memberships.map((m) => m.workspace_id),
    );
    // Told only after the password was right, so that it tells nobody else where the person works.
    if (memberships.length > 0 && memberships.every((m) => off.has(m.workspace_id))) {
      throw new ConnectError(
        "your workspace lets its members log in through single sign-on only: choose “Use single sign-on” on the log-in page",
        Code.FailedPrecondition,
      );
    }
    return this.openSession(user);
  }

  /**
   * The person whose e-mail and password these are, counted by the log-in throttle: a locked
   * account or address is refused before any password is checked, a wrong password counts.
   */
  async authenticate(email: string, password: string, clientAddress = ""): Promise<UserRow> {
    const normalised = addressKey(email);
    const address = clientAddress.slice(0, 64);
    await this.deps.throttle.check(normalised, address);
    const user = await store.userByEmail(this.deps.db, normalised);
    // An unknown email costs as much time as a wrong password, so timing reveals no accounts.
    const { ok, rehash } = await this.deps.passwords.verify(
      password,
      user?.password_hash ?? UNKNOWN_USER_HASH,
    );
    if (!user || !ok) {
      const { accountLockedNow } = await this.deps.throttle.failed(
        normalised,
        address,
        user && ((tx, lock) => this.deps.accountLocked(tx, { userId: user.id, ...lock, address })),
      );
      if (user && accountLockedNow) this.deps.lockNoticesQueued();
      throw new ConnectError("email or password is wrong", Code.Unauthenticated);
    }
    await this.deps.throttle.succeeded(normalised);
    // A hash made with older parameters is replaced while the password is at hand.
    if (rehash) await store.setPasswordHash(this.deps.db, user.id, await this.deps.passwords.hash(password));
    return user;
  }

  /**
   * Opens a console session for a person whose identity was proven: by a password or an
   * invitation's link (every workspace of theirs that allows password log-in), or by a workspace's
   * identity provider (that workspace only).
   */
  async openSession(
    user: { id: string; email: string },
    singleSignOnWorkspaceId?: string,
  ): Promise<{ token: string; expiresAt: Date; session: Session }> {
    const token = newSessionToken();
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    const createdAt = await store.insertSession(this.deps.db, {
      tokenHash: sha256(token),
      userId: user.id,
      expiresAt,
      singleSignOnWorkspaceId,
    });
    return {
      token,
      expiresAt,
      session: await this.sessionOf({
        ...user,
        single_sign_on_workspace_id: singleSignOnWorkspaceId ?? null,
        created_at: createdAt,
      }),
    };
  }

  async getSession(token: string): Promise<Session> {
    return this.sessionOf(await this.sessionUser(token));
  }

  /** The person a session token belongs to; UNAUTHENTICATED when it is unknown or expired. */
  async sessionUser(token: string): Promise<SessionUser> {
    const user = token ? await store.sessionUser(this.deps.db, sha256(token)) : undefined;
    if (!user) throw new ConnectError("no such session, or it has expired", Code.Unauthenticated);
    return user;
  }

  async deleteSession(token: string): Promise<void> {
    await store.deleteSession(this.deps.db, sha256(token));
  }

  /**
   * First start: with no workspace at all, creates one with API access on and its first
   * Organization Admin. Returns undefined when there was a workspace already.
   */
  async bootstrap(options: { workspaceName: string; adminEmail: string; adminPassword?: string }) {
    if (options.adminPassword)
      rejectViolations(checkPassword(options.adminPassword, "COUNTERSIGN_ADMIN_PASSWORD"));
    rejectViolations(checkEmail(options.adminEmail, "COUNTERSIGN_ADMIN_EMAIL"));
    const generatedPassword = options.adminPassword ? "" : generatePassword();
    const passwordHash = await this.deps.passwords.hash(options.adminPassword || generatedPassword);
    return this.deps.db.transaction(async (tx) => {
      // Replicas starting together: one creates, the others wait here and then find it done.
      await tx.query("SELECT pg_advisory_xact_lock(7460222)");
      const existing = await tx.query("SELECT 1 FROM workspaces LIMIT 1");
      if (existing.rowCount > 0) return undefined;
      const workspace = await store.insertWorkspace(tx, {
        id: uuidv7(),
        name: options.workspaceName,
        api_access_enabled: true,
      });
      const email = addressKey(options.adminEmail);
      let user = await store.userByEmail(tx, email);
      if (!user) {
        user = { id: uuidv7(), email, password_hash: passwordHash };
        await store.insertUser(tx, user);
      }
      await store.upsertMembership(tx, workspace.id, user.id, "org_admin");
      return { workspace: toWorkspace(workspace), adminEmail: email, generatedPassword };
    });
  }

  /**
   * What a session covers, read at each use, so that a change of the workspace's log-in settings
   * takes effect on sessions already open: a password session, every workspace that allows
   * password log-in; a single sign-on session, its workspace while single sign-on is on with the
   * provider that opened it.
   */
  private async sessionOf(user: SessionUser): Promise<Session> {
    const all = await store.members(this.deps.db, { userId: user.id });
    const ssoWorkspace = user.single_sign_on_workspace_id;
    let memberships: typeof all;
    if (ssoWorkspace) {
      const stands = await store.singleSignOnStands(this.deps.db, ssoWorkspace, user.created_at);
      memberships = stands ? all.filter((m) => m.workspace_id === ssoWorkspace) : [];
    } else {
      const off = await store.passwordLoginOff(
        this.deps.db,
        all.map((m) => m.workspace_id),
      );
      memberships = all.filter((m) => !off.has(m.workspace_id));
    }
    const byId = new Map(
      (
        await store.workspaces(
          this.deps.db,
          memberships.map((m) => m.workspace_id),
        )
      ).map((w) => [w.id, w]),
    );
    return create(SessionSchema, {
      userId: user.id,
      email: user.email,
      singleSignOnWorkspaceId: ssoWorkspace ?? "",
      memberships: memberships.map(toMember),
      workspaces: memberships.flatMap((m) => {
        const workspace = byId.get(m.workspace_id);
        return workspace ? [toWorkspace(workspace)] : [];
      }),
    });
  }
}
