/**
 * Settings → Members and Settings → Workspace, behind a console session: an Organization Admin
 * invites people by e-mail, changes roles, removes members, switches the workspace's API access
 * and reads the audit of those changes. Unlike the Developer settings these stay open while API
 * access is off — it is here that it is switched back on. Every change names its actor to auth,
 * which audits it as it audits the CLI's.
 */
import {
  type Invitation as InvitationMessage,
  Role,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { NextFunction, Request, Response, Router } from "express";
import {
  Invitation,
  InvitationInput,
  InvitationList,
  InvitationParams,
  Member,
  MemberList,
  MemberParams,
  MemberUpdate,
  WorkspaceAuditLog,
  WorkspaceAuditQuery,
  WorkspaceParams,
  WorkspaceSettings,
  WorkspaceSettingsInput,
} from "../contract/console.js";
import { iso } from "../json-time.js";
import { ApiProblem } from "../problems.js";
import { actorOf, type ConsoleWorkspace } from "./session.js";
import {
  FORM_BODY,
  type WorkspaceRoutesOptions,
  workspaceIdOf,
  workspaceRouter,
} from "./workspace-router.js";

const TEAM_PROBLEMS = [400, 401, 403, 404, 500, 503] as const;
const TAG = "Console: team";

export function teamRoutes({ auth, contract }: Pick<WorkspaceRoutesOptions, "auth" | "contract">): Router {
  const routes = workspaceRouter(contract, requireOrgAdmin, FORM_BODY);
  const who = (res: Response) => ({ workspaceId: workspaceIdOf(res), ...actorOf(res) });

  routes.on(
    "get",
    "/members",
    {
      summary: "List the workspace's members",
      tag: TAG,
      params: WorkspaceParams,
      answers: { 200: { description: "Members, longest-standing first.", schema: MemberList } },
      problems: [...TEAM_PROBLEMS],
    },
    async ({ res }) => {
      const { members } = await auth.listMembers({ workspaceId: who(res).workspaceId });
      res.json({
        items: members.map((m) => ({
          userId: m.userId,
          email: m.email,
          role: roleOf(m.role),
          joinedAt: iso(m.createTime),
        })),
      });
    },
  );

  routes.on(
    "patch",
    "/members/:userId",
    {
      summary: "Change a member's role",
      description: "The workspace's last Organization Admin cannot be made a Member (409).",
      tag: TAG,
      params: MemberParams,
      body: MemberUpdate,
      answers: { 200: { description: "The member as they now are.", schema: Member } },
      problems: [...TEAM_PROBLEMS, 409, 413, 415, 422],
    },
    async ({ res, params, body }) => {
      const { member } = await auth.updateMember({
        ...who(res),
        userId: params.userId,
        role: body.role === "org_admin" ? Role.ORG_ADMIN : Role.MEMBER,
      });
      if (!member) throw new Error("auth answered without the member it changed");
      res.json({
        userId: member.userId,
        email: member.email,
        role: roleOf(member.role),
        joinedAt: iso(member.createTime),
      });
    },
  );

  routes.on(
    "delete",
    "/members/:userId",
    {
      summary: "Remove a member from the workspace",
      description:
        "Their log-in stays, with any other workspaces of theirs. The workspace's last Organization Admin cannot be removed (409).",
      tag: TAG,
      params: MemberParams,
      answers: { 204: { description: "Removed." } },
      problems: [...TEAM_PROBLEMS, 409],
    },
    async ({ res, params }) => {
      await auth.removeMember({ ...who(res), userId: params.userId });
      res.status(204).end();
    },
  );

  routes.on(
    "get",
    "/invitations",
    {
      summary: "List invitations not yet accepted",
      tag: TAG,
      params: WorkspaceParams,
      answers: { 200: { description: "Newest first, expired ones included.", schema: InvitationList } },
      problems: [...TEAM_PROBLEMS],
    },
    async ({ res }) => {
      const { invitations } = await auth.listInvitations({ workspaceId: who(res).workspaceId });
      res.json({ items: invitations.map(invitationJson) });
    },
  );

  routes.on(
    "post",
    "/invitations",
    {
      summary: "Invite a person by e-mail",
      description:
        "The e-mail's link works once, for seven days. Inviting an address again sends a new link and the old one stops working. Someone already a member is a conflict (409).",
      tag: TAG,
      params: WorkspaceParams,
      body: InvitationInput,
      answers: { 201: { description: "The invitation; its link goes only by e-mail.", schema: Invitation } },
      problems: [...TEAM_PROBLEMS, 409, 413, 415, 422],
    },
    async ({ res, body }) => {
      const { invitation } = await auth.inviteMember({
        ...who(res),
        email: body.email,
        role: body.role === "org_admin" ? Role.ORG_ADMIN : Role.MEMBER,
      });
      if (!invitation) throw new Error("auth answered without the invitation it made");
      res.status(201).json(invitationJson(invitation));
    },
  );

  routes.on(
    "delete",
    "/invitations/:invitationId",
    {
      summary: "Withdraw an invitation",
      description: "Its link stops working at once.",
      tag: TAG,
      params: InvitationParams,
      answers: { 204: { description: "Withdrawn." } },
      problems: [...TEAM_PROBLEMS],
    },
    async ({ res, params }) => {
      await auth.revokeInvitation({ ...who(res), invitationId: params.invitationId });
      res.status(204).end();
    },
  );

  routes.on(
    "patch",
    "/settings",
    {
      summary: "Rename the workspace or switch its API access",
      description:
        "Switching API access off refuses every API key of the workspace at once, on every gateway replica.",
      tag: TAG,
      params: WorkspaceParams,
      body: WorkspaceSettingsInput,
      answers: { 200: { description: "The workspace as it now is.", schema: WorkspaceSettings } },
      problems: [...TEAM_PROBLEMS, 413, 415, 422],
    },
    async ({ res, body }) => {
      const { workspace } = await auth.updateWorkspace({
        ...who(res),
        name: body.name,
        apiAccessEnabled: body.apiAccessEnabled,
      });
      if (!workspace) throw new Error("auth answered without the workspace it changed");
      res.json({ id: workspace.id, name: workspace.name, apiAccessEnabled: workspace.apiAccessEnabled });
    },
  );

  routes.on(
    "get",
    "/audit",
    {
      summary: "The audit of the workspace's administration",
      description:
        "Who invited, added, removed or changed whom, switched API access, created or deleted API keys — from the console or the CLI — newest first.",
      tag: TAG,
      params: WorkspaceParams,
      query: WorkspaceAuditQuery,
      answers: { 200: { description: "Newest first.", schema: WorkspaceAuditLog } },
      problems: [...TEAM_PROBLEMS],
    },
    async ({ res, query }) => {
      const { entries } = await auth.listAuditEntries({
        workspaceId: who(res).workspaceId,
        limit: query.limit,
      });
      res.json({
        items: entries.map((e) => ({
          id: e.id,
          timestamp: iso(e.time),
          actor: e.actor,
          action: e.action,
          target: e.target,
          detail: e.detail,
        })),
      });
    },
  );
  return routes.router;
}

/** After requireMembership: running the team is an Organization Admin's, whatever the API access. */
export function requireOrgAdmin(_req: Request, res: Response, next: NextFunction): void {
  if ((res.locals.workspace as ConsoleWorkspace).role !== "org_admin") {
    throw new ApiProblem(
      "forbidden",
      "only an Organization Admin can manage the workspace's members and settings",
    );
  }
  next();
}

function roleOf(role: Role): "org_admin" | "member" {
  return role === Role.ORG_ADMIN ? "org_admin" : "member";
}

function invitationJson(invitation: InvitationMessage) {
  const expiresAt = iso(invitation.expireTime);
  return {
    id: invitation.id,
    email: invitation.email,
    role: roleOf(invitation.role),
    invitedBy: invitation.invitedBy,
    createdAt: iso(invitation.createTime),
    expiresAt,
    expired: Date.parse(expiresAt) <= Date.now(),
  };
}
