/**
 * Running a workspace's team: members' roles and removal (a workspace always keeps an Organization
 * Admin), invitations by e-mail that expire, and password resets by e-mail. Every change is audited
 * in its transaction; the e-mails are queued in it too and sent after it commits (account-emails.ts).
 */

import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { addressKey } from "@countersign/domain";
import {
  type AuditEntry,
  type Invitation,
  InvitationSchema,
  type Member,
  type Role,
  type Session,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { type Database, notFound, type Queryable, uuidv7 } from "@countersign/kit";
import type { Accounts } from "./accounts.js";
import { audit, auditEntries, OPERATOR } from "./audit.js";
import type { LoginThrottle } from "./login-throttle.js";
import { roleLabel, roleName, roleOf, toMember } from "./messages.js";
import type { Passwords } from "./passwords.js";
import { sha256 } from "./secrets.js";
import { store } from "./store.js";
import { checkEmail, checkPassword, rejectViolations, requireUuid } from "./validation.js";

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
export const PASSWORD_RESET_TTL_MS = 3600 * 1000;
/** A second reset e-mail for the same log-in within this is not sent: a form pressed twice, or a pest. */
const RESET_EMAIL_INTERVAL_MS = 60 * 1000;

interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: "org_admin" | "member";
  created_at: Date;
  expires_at: Date;
  invited_by_email: string | null;
}

const INVITATION_COLUMNS = `i.id, i.workspace_id, i.email, i.role, i.created_at, i.expires_at,
  (SELECT email FROM users WHERE id = i.invited_by) AS invited_by_email`;

export interface TeamDeps {
  db: Database;
  accounts: Accounts;
  passwords: Passwords;
  throttle: LoginThrottle;
  linkToken: (kind: "invitation" | "password_reset", id: string) => string;
  /** Queues the e-mail that carries a link, in the transaction that makes the link. */
  queueEmail: (tx: Queryable, kind: "invitation" | "password_reset", refId: string) => Promise<void>;
  /** Called after a commit that queued e-mails, so they go out at once. */
  emailsQueued: () => void;
}

export class Team {
  constructor(private readonly deps: TeamDeps) {}

  /** The workspace's audit, newest first. */
  auditEntries(workspaceId: string, limit: number): Promise<AuditEntry[]> {
    return auditEntries(this.deps.db, workspaceId, limit);
  }

  async updateMember(workspaceId: string, userId: string, role: Role, actorUserId = ""): Promise<Member> {
    requireUuid(workspaceId, "workspace");
    requireUuid(userId, "member");
    const role_ = roleName(role);
    if (!role_) rejectViolations([{ path: "role", message: "must be org_admin or member" }]);
    return this.deps.db.transaction(async (tx) => {
      const admins = await store.lockAdmins(tx, workspaceId);
      const before = await store.member(tx, workspaceId, userId);
      if (!before) throw notFound("member");
      if (before.role === role_) return toMember(before);
      if (role_ !== "org_admin") refuseLastAdmin(admins, userId, before.email, "change their role");
      const after = await store.upsertMembership(tx, workspaceId, userId, role_ as string);
      await audit(tx, {
        workspaceId,
        actorUserId,
        action: "member.role_changed",
        target: after.email,
        detail: `${roleLabel(before.role)} → ${roleLabel(after.role)}`,
      });
      return toMember(after);
    });
  }

  async removeMember(workspaceId: string, userId: string, actorUserId = ""): Promise<void> {
    requireUuid(workspaceId, "workspace");
    requireUuid(userId, "member");
    await this.deps.db.transaction(async (tx) => {
      const admins = await store.lockAdmins(tx, workspaceId);
      const member = await store.member(tx, workspaceId, userId);
      if (!member) throw notFound("member");
      refuseLastAdmin(admins, userId, member.email, "remove them");
      await store.deleteMembership(tx, workspaceId, userId);
      await audit(tx, {
        workspaceId,
        actorUserId,
        action: "member.removed",
        target: member.email,
        detail: roleLabel(member.role),
      });
    });
  }

  async invite(workspaceId: string, email: string, role: Role, actorUserId = ""): Promise<Invitation> {
    requireUuid(workspaceId, "workspace");
    const role_ = roleName(role);
    rejectViolations([
      ...checkEmail(email),
      ...(role_ ? [] : [{ path: "role", message: "must be org_admin or member" }]),
    ]);
    const address = addressKey(email);
    const id = uuidv7();
    const row = await this.deps.db.transaction(async (tx) => {
      if (!(await store.workspace(tx, workspaceId))) throw notFound("workspace");
      const person = await store.userByEmail(tx, address);
      if (person && (await store.member(tx, workspaceId, person.id)))
        throw new ConnectError(`${address} is a member of this workspace already`, Code.AlreadyExists);
      // One open invitation per address: the newest link is the one that works.
      await tx.query(
        "UPDATE invitations SET closed_at = now() WHERE workspace_id = $1 AND email = $2 AND closed_at IS NULL",
        [workspaceId, address],
      );
      await tx.query(
        `INSERT INTO invitations (id, workspace_id, email, role, token_hash, invited_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          id,
          workspaceId,
          address,
          role_,
          sha256(this.deps.linkToken("invitation", id)),
          actorUserId ? requireUuid(actorUserId, "actor") : null,
          new Date(Date.now() + INVITATION_TTL_MS),
        ],
      );
      await this.deps.queueEmail(tx, "invitation", id);
      await audit(tx, {
        workspaceId,
        actorUserId,
        action: "member.invited",
        target: address,
        detail: roleLabel(role_ as "org_admin" | "member"),
      });
      return invitationRow(tx, "i.id = $1", [id]);
    });
    this.deps.emailsQueued();
    return toInvitation(row as InvitationRow);
  }

  async listInvitations(workspaceId: string): Promise<Invitation[]> {
    requireUuid(workspaceId, "workspace");
    const { rows } = await this.deps.db.query<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM invitations i
       WHERE i.workspace_id = $1 AND i.closed_at IS NULL ORDER BY i.created_at DESC LIMIT 500`,
      [workspaceId],
    );
    return rows.map(toInvitation);
  }

  async revokeInvitation(workspaceId: string, invitationId: string, actorUserId = ""): Promise<void> {
    requireUuid(workspaceId, "workspace");
    requireUuid(invitationId, "invitation");
    await this.deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ email: string }>(
        `UPDATE invitations SET closed_at = now()
         WHERE workspace_id = $1 AND id = $2 AND closed_at IS NULL RETURNING email`,
        [workspaceId, invitationId],
      );
      if (!rows[0]) throw notFound("invitation");
      await audit(tx, { workspaceId, actorUserId, action: "invitation.revoked", target: rows[0].email });
    });
  }

  async getInvitation(
    token: string,
  ): Promise<{ invitation: Invitation; workspaceName: string; hasLogIn: boolean }> {
    const row = await openInvitation(this.deps.db, token);
    const workspace = await store.workspace(this.deps.db, row.workspace_id);
    return {
      invitation: toInvitation(row),
      workspaceName: workspace?.name ?? "",
      // Someone who joined through single sign-on has no password to prove: they choose one here.
      hasLogIn: Boolean((await store.userByEmail(this.deps.db, row.email))?.password_hash),
    };
  }

  /**
   * Joins the invited workspace and opens a session. Someone with a password proves it is theirs
   * (through log-in, with its throttle); someone new, or who has only logged in through single
   * sign-on, chooses one: the link came to their address, as a reset link would.
   */
  async acceptInvitation(
    token: string,
    password: string,
    clientAddress: string,
  ): Promise<{ token: string; expiresAt: Date; session: Session }> {
    const invitation = await openInvitation(this.deps.db, token);
    const existing = await store.userByEmail(this.deps.db, invitation.email);
    const proves = Boolean(existing?.password_hash);
    if (proves) await this.deps.accounts.authenticate(invitation.email, password, clientAddress);
    else rejectViolations(checkPassword(password));
    const passwordHash = proves ? "" : await this.deps.passwords.hash(password);
    const user = await this.deps.db.transaction(async (tx) => {
      // Locked and checked again: two acceptances of one link make one membership.
      const { rows } = await tx.query<{ id: string }>(
        "SELECT id FROM invitations WHERE id = $1 AND closed_at IS NULL AND expires_at > now() FOR UPDATE",
        [invitation.id],
      );
      if (!rows[0]) throw deadLink();
      let person = await store.userByEmail(tx, invitation.email);
      if (!person) {
        person = { id: uuidv7(), email: invitation.email, password_hash: passwordHash };
        await store.insertUser(tx, person);
      } else if (!person.password_hash) {
        await store.setPasswordHash(tx, person.id, passwordHash);
      }
      await store.upsertMembership(tx, invitation.workspace_id, person.id, invitation.role);
      await tx.query("UPDATE invitations SET closed_at = now() WHERE id = $1", [invitation.id]);
      await audit(tx, {
        workspaceId: invitation.workspace_id,
        actorUserId: person.id,
        action: "member.joined",
        target: person.email,
        detail: `${roleLabel(invitation.role)}, invited by ${invitation.invited_by_email ?? OPERATOR}`,
      });
      return person;
    });
    return this.deps.accounts.openSession(user);
  }

  /** E-mails a reset link when the address has a log-in; says nothing either way. */
  async requestPasswordReset(email: string): Promise<void> {
    rejectViolations(checkEmail(email));
    const user = await store.userByEmail(this.deps.db, addressKey(email));
    if (!user) return;
    const queued = await this.deps.db.transaction(async (tx) => {
      await tx.query("SELECT id FROM users WHERE id = $1 FOR UPDATE", [user.id]);
      const recent = await tx.query(
        "SELECT 1 FROM password_resets WHERE user_id = $1 AND created_at > now() - $2 * interval '1 millisecond'",
        [user.id, RESET_EMAIL_INTERVAL_MS],
      );
      if (recent.rowCount > 0) return false;
      const id = uuidv7();
      await tx.query(
        "INSERT INTO password_resets (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)",
        [
          id,
          user.id,
          sha256(this.deps.linkToken("password_reset", id)),
          new Date(Date.now() + PASSWORD_RESET_TTL_MS),
        ],
      );
      await this.deps.queueEmail(tx, "password_reset", id);
      return true;
    });
    if (queued) this.deps.emailsQueued();
  }

  /** Sets a new password with a reset link's token: the link dies, every session of the person ends. */
  async resetPassword(token: string, password: string): Promise<void> {
    rejectViolations(checkPassword(password));
    const passwordHash = await this.deps.passwords.hash(password);
    const email = await this.deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ user_id: string; email: string }>(
        `SELECT r.user_id, u.email FROM password_resets r JOIN users u ON u.id = r.user_id
         WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > now() FOR UPDATE OF r`,
        [sha256(token)],
      );
      const reset = rows[0];
      if (!reset) throw deadLink();
      await store.setPasswordHash(tx, reset.user_id, passwordHash);
      // Every link of this person dies with the one used, and every session ends.
      await tx.query("UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL", [
        reset.user_id,
      ]);
      await store.deleteSessions(tx, reset.user_id);
      return reset.email;
    });
    // Proving the mailbox ends a lock-out from failed log-ins.
    await this.deps.throttle.succeeded(email);
  }
}

function refuseLastAdmin(admins: string[], userId: string, email: string, what: string): void {
  if (admins.length === 1 && admins[0] === userId) {
    throw new ConnectError(
      `${email} is this workspace's only Organization Admin: make another member an Organization Admin before you ${what}`,
      Code.FailedPrecondition,
    );
  }
}

function deadLink(): ConnectError {
  return new ConnectError(
    "this link is no longer valid: it was used, withdrawn or replaced, or it expired",
    Code.NotFound,
  );
}

async function invitationRow(db: Queryable, where: string, values: unknown[]) {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${INVITATION_COLUMNS} FROM invitations i WHERE ${where}`,
    values,
  );
  return rows[0];
}

async function openInvitation(db: Queryable, token: string): Promise<InvitationRow> {
  const row = token
    ? await invitationRow(db, "i.token_hash = $1 AND i.closed_at IS NULL AND i.expires_at > now()", [
        sha256(token),
      ])
    : undefined;
  if (!row) throw deadLink();
  return row;
}

function toInvitation(row: InvitationRow): Invitation {
  return create(InvitationSchema, {
    id: row.id,
    workspaceId: row.workspace_id,
    email: row.email,
    role: roleOf(row.role),
    createTime: timestampFromDate(row.created_at),
    expireTime: timestampFromDate(row.expires_at),
    invitedBy: row.invited_by_email ?? OPERATOR,
  });
}
