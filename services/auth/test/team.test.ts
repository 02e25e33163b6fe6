import { randomUUID } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { Role } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { simpleParser } from "mailparser";
import { PUBLIC_URL, type StartedAuth, startAuth } from "./harness.js";

let auth: StartedAuth;
let workspaceId: string;
let adminId: string;
const PASSWORD = "a-long-password";

beforeAll(async () => {
  auth = await startAuth();
});
afterAll(async () => {
  await auth.close();
});

// One service for the file (an embedded Postgres takes seconds to start), emptied before each test.
beforeEach(async () => {
  await auth.module.noticesIdle();
  await auth.db.query(
    "TRUNCATE workspaces, users, invitations, password_resets, auth_emails, audit_entries, login_throttle CASCADE",
  );
  for (const file of await readdir(auth.outboxDir)) await rm(join(auth.outboxDir, file));
  workspaceId = (await auth.client.createWorkspace({ name: "Acme" })).workspace?.id as string;
  const { member } = await auth.client.addMember({
    workspaceId,
    email: "admin@example.com",
    role: Role.ORG_ADMIN,
    password: PASSWORD,
  });
  adminId = member?.userId as string;
});

/** The e-mails sent so far, oldest first, with the link each carries. */
async function sentMails() {
  await auth.module.noticesIdle();
  const files = (await readdir(auth.outboxDir)).filter((file) => file.endsWith(".eml")).sort();
  return Promise.all(
    files.map(async (file) => {
      const mail = await simpleParser(await readFile(join(auth.outboxDir, file)));
      const link = /https:\/\/\S+#token=([\w-]+)/.exec(mail.text ?? "");
      return {
        to: mail.to && !Array.isArray(mail.to) ? mail.to.text : "",
        subject: mail.subject ?? "",
        text: mail.text ?? "",
        link: link?.[0] ?? "",
        token: link?.[1] ?? "",
      };
    }),
  );
}

async function failure(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    (err) => ConnectError.from(err),
  );
}

test("an invitation goes by e-mail; its link opens to a new person who chooses a password, once, and the audit says who did what", async () => {
  const { invitation } = await auth.client.inviteMember({
    workspaceId,
    email: "New.Person@Example.com",
    role: Role.MEMBER,
    actorUserId: adminId,
  });
  expect(invitation).toMatchObject({ email: "new.person@example.com", invitedBy: "admin@example.com" });
  const [mail] = await sentMails();
  expect(mail).toMatchObject({
    to: "new.person@example.com",
    subject: "You are invited to \u2068Acme\u2069 on Countersign",
    link: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/console/invitation#token=`)),
  });
  expect(mail?.text).toMatch(
    /\u2068admin@example\.com\u2069 invited you to the workspace “\u2068Acme\u2069” on Countersign, as a Member\./,
  );
  expect((await auth.client.listInvitations({ workspaceId })).invitations.map((i) => i.email)).toEqual([
    "new.person@example.com",
  ]);

  const token = mail?.token as string;
  expect(await auth.client.getInvitation({ token })).toMatchObject({
    workspaceName: "Acme",
    hasLogIn: false,
  });
  expect((await failure(auth.client.acceptInvitation({ token, password: "short" })))?.code).toBe(
    Code.InvalidArgument,
  );
  const accepted = await auth.client.acceptInvitation({ token, password: PASSWORD });
  expect(accepted.session?.workspaces.map((w) => w.name)).toEqual(["Acme"]);
  expect(accepted.session?.memberships[0]?.role).toBe(Role.MEMBER);
  expect((await auth.client.getSession({ token: accepted.token })).session?.email).toBe(
    "new.person@example.com",
  );

  // The link works once; the invitation is no longer open.
  expect((await failure(auth.client.getInvitation({ token })))?.code).toBe(Code.NotFound);
  expect((await failure(auth.client.acceptInvitation({ token, password: PASSWORD })))?.code).toBe(
    Code.NotFound,
  );
  expect((await auth.client.listInvitations({ workspaceId })).invitations).toEqual([]);

  const { entries } = await auth.client.listAuditEntries({ workspaceId });
  expect(entries.map((e) => [e.actor, e.action, e.target, e.detail])).toEqual([
    [
      "new.person@example.com",
      "member.joined",
      "new.person@example.com",
      "Member, invited by admin@example.com",
    ],
    ["admin@example.com", "member.invited", "new.person@example.com", "Member"],
    ["operator", "member.added", "admin@example.com", "Organization Admin, with a new log-in"],
  ]);
});

test("a person with a log-in accepts with their own password, and a wrong one neither joins nor opens a session", async () => {
  const other = (await auth.client.createWorkspace({ name: "Other" })).workspace?.id as string;
  await auth.client.addMember({
    workspaceId: other,
    email: "known@example.com",
    role: Role.MEMBER,
    password: PASSWORD,
  });
  await auth.client.inviteMember({ workspaceId, email: "known@example.com", role: Role.ORG_ADMIN });
  const token = (await sentMails())[0]?.token as string;
  expect(await auth.client.getInvitation({ token })).toMatchObject({ hasLogIn: true });
  expect((await failure(auth.client.acceptInvitation({ token, password: "not-their-password" })))?.code).toBe(
    Code.Unauthenticated,
  );
  expect((await auth.client.listMembers({ workspaceId })).members.map((m) => m.email)).toEqual([
    "admin@example.com",
  ]);
  const accepted = await auth.client.acceptInvitation({ token, password: PASSWORD });
  expect(accepted.session?.workspaces.map((w) => w.name).sort()).toEqual(["Acme", "Other"]);
  expect(accepted.session?.memberships.find((m) => m.workspaceId === workspaceId)?.role).toBe(Role.ORG_ADMIN);
});

test("a revoked, replaced or expired invitation's link is dead; a member already in is not invited again", async () => {
  const first = await auth.client.inviteMember({ workspaceId, email: "x@example.com", role: Role.MEMBER });
  // Its e-mail has gone before it is replaced: an e-mail whose link is dead by then is not sent.
  await auth.module.noticesIdle();
  await auth.client.inviteMember({ workspaceId, email: "x@example.com", role: Role.ORG_ADMIN });
  const [replaced, newest] = await sentMails();
  expect((await failure(auth.client.getInvitation({ token: replaced?.token as string })))?.code).toBe(
    Code.NotFound,
  );
  const open = (await auth.client.listInvitations({ workspaceId })).invitations;
  expect(open.map((i) => [i.email, i.role])).toEqual([["x@example.com", Role.ORG_ADMIN]]);
  expect(open[0]?.id).not.toBe(first.invitation?.id);

  await auth.client.revokeInvitation({
    workspaceId,
    invitationId: open[0]?.id as string,
    actorUserId: adminId,
  });
  expect((await failure(auth.client.getInvitation({ token: newest?.token as string })))?.code).toBe(
    Code.NotFound,
  );
  expect(
    (await failure(auth.client.revokeInvitation({ workspaceId, invitationId: open[0]?.id as string })))?.code,
  ).toBe(Code.NotFound);

  await auth.client.inviteMember({ workspaceId, email: "late@example.com", role: Role.MEMBER });
  await auth.db.query(
    "UPDATE invitations SET expires_at = now() - interval '1 second' WHERE email = 'late@example.com'",
  );
  const late = (await sentMails()).at(-1);
  expect(
    (await failure(auth.client.acceptInvitation({ token: late?.token as string, password: PASSWORD })))?.code,
  ).toBe(Code.NotFound);

  expect(
    (await failure(auth.client.inviteMember({ workspaceId, email: "ADMIN@example.com", role: Role.MEMBER })))
      ?.code,
  ).toBe(Code.AlreadyExists);
  expect(
    (await failure(auth.client.inviteMember({ workspaceId, email: "not an address", role: Role.MEMBER })))
      ?.code,
  ).toBe(Code.InvalidArgument);
});

test("an e-mail whose link died before it went (revoked, say) is not sent", async () => {
  const { invitation } = await auth.client.inviteMember({
    workspaceId,
    email: "gone@example.com",
    role: Role.MEMBER,
  });
  await auth.module.noticesIdle();
  await auth.client.revokeInvitation({ workspaceId, invitationId: invitation?.id as string });
  await sentMails();
  // The revoked invitation's e-mail still waiting, as when the SMTP server refused it until now.
  const waiting = randomUUID();
  await auth.db.query("INSERT INTO auth_emails (id, kind, ref_id) VALUES ($1, 'invitation', $2)", [
    waiting,
    invitation?.id,
  ]);
  await auth.client.inviteMember({ workspaceId, email: "next@example.com", role: Role.MEMBER });
  expect((await sentMails()).map((m) => m.to)).toEqual(["gone@example.com", "next@example.com"]);
  const { rows } = await auth.db.query<{ done: boolean; last_error: string }>(
    "SELECT done_at IS NOT NULL AS done, last_error FROM auth_emails WHERE id = $1",
    [waiting],
  );
  expect(rows).toEqual([{ done: true, last_error: "not sent: the link died before its e-mail went" }]);
});

test("roles change and members leave, but a workspace always keeps an Organization Admin", async () => {
  const { member } = await auth.client.addMember({ workspaceId, email: "m@example.com", role: Role.MEMBER });
  const memberId = member?.userId as string;
  const lastAdmin = await failure(
    auth.client.updateMember({ workspaceId, userId: adminId, role: Role.MEMBER }),
  );
  expect(lastAdmin?.code).toBe(Code.FailedPrecondition);
  expect(lastAdmin?.rawMessage).toMatch(/admin@example\.com is this workspace's only Organization Admin/);
  expect((await failure(auth.client.removeMember({ workspaceId, userId: adminId })))?.code).toBe(
    Code.FailedPrecondition,
  );

  await auth.client.updateMember({
    workspaceId,
    userId: memberId,
    role: Role.ORG_ADMIN,
    actorUserId: adminId,
  });
  // Now there are two: the first may step down, and be removed.
  await auth.client.updateMember({ workspaceId, userId: adminId, role: Role.MEMBER, actorUserId: memberId });
  await auth.client.removeMember({ workspaceId, userId: adminId, actorUserId: memberId });
  expect((await auth.client.listMembers({ workspaceId })).members.map((m) => [m.email, m.role])).toEqual([
    ["m@example.com", Role.ORG_ADMIN],
  ]);
  expect((await failure(auth.client.removeMember({ workspaceId, userId: adminId })))?.code).toBe(
    Code.NotFound,
  );

  const { entries } = await auth.client.listAuditEntries({ workspaceId, limit: 3 });
  expect(entries.map((e) => [e.actor, e.action, e.target, e.detail])).toEqual([
    ["m@example.com", "member.removed", "admin@example.com", "Member"],
    ["m@example.com", "member.role_changed", "admin@example.com", "Organization Admin → Member"],
    ["admin@example.com", "member.role_changed", "m@example.com", "Member → Organization Admin"],
  ]);
});

test("API access and API keys are audited, from the console (a person) and the CLI (the operator) alike", async () => {
  await auth.client.updateWorkspace({ workspaceId, apiAccessEnabled: false, actorUserId: adminId });
  await auth.client.updateWorkspace({ workspaceId, apiAccessEnabled: false });
  await auth.client.updateWorkspace({ workspaceId, name: "Acme Ltd", apiAccessEnabled: true });
  const { key } = await auth.client.createApiKey({ workspaceId, name: "CI", actorUserId: adminId });
  await auth.client.deleteApiKey({ workspaceId, keyId: key?.id as string });
  const { entries } = await auth.client.listAuditEntries({ workspaceId, limit: 5 });
  expect(entries.map((e) => [e.actor, e.action, e.target, e.detail])).toEqual([
    ["operator", "api_key.deleted", "CI", `…${key?.hint}`],
    ["admin@example.com", "api_key.created", "CI", `…${key?.hint}, full access`],
    ["operator", "workspace.api_access_enabled", "Acme Ltd", ""],
    ["operator", "workspace.renamed", "Acme Ltd", "was “Acme”"],
    ["admin@example.com", "workspace.api_access_disabled", "Acme", ""],
  ]);
});

test("a password reset link goes only to a log-in, works once within the hour, and ends every session", async () => {
  const before = await auth.client.createSession({ email: "admin@example.com", password: PASSWORD });
  await auth.client.requestPasswordReset({ email: "nobody@example.com" });
  await auth.client.requestPasswordReset({ email: "Admin@Example.com" });
  // Pressed twice: one e-mail.
  await auth.client.requestPasswordReset({ email: "admin@example.com" });
  const mails = await sentMails();
  expect(mails.map((m) => [m.to, m.subject])).toEqual([
    ["admin@example.com", "Choose a new Countersign password"],
  ]);
  expect(mails[0]?.link).toMatch(new RegExp(`^${PUBLIC_URL}/console/reset-password#token=`));

  const token = mails[0]?.token as string;
  expect((await failure(auth.client.resetPassword({ token, password: "short" })))?.code).toBe(
    Code.InvalidArgument,
  );
  await auth.client.resetPassword({ token, password: "a-new-long-password" });
  expect((await failure(auth.client.getSession({ token: before.token })))?.code).toBe(Code.Unauthenticated);
  expect(
    (await failure(auth.client.createSession({ email: "admin@example.com", password: PASSWORD })))?.code,
  ).toBe(Code.Unauthenticated);
  await auth.client.createSession({ email: "admin@example.com", password: "a-new-long-password" });
  expect((await failure(auth.client.resetPassword({ token, password: "another-long-one" })))?.code).toBe(
    Code.NotFound,
  );
  expect(
    (await failure(auth.client.resetPassword({ token: "made-up", password: "another-long-one" })))?.code,
  ).toBe(Code.NotFound);
});
