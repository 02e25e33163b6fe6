/**
 * Single sign-on through OpenID Connect, against real providers (oidc-provider, each in a process of
 * its own) with auth as the relying party: a person logs in and, when their e-mail's domain is
 * allowed, joins the workspace; every check of the provider's answer holds — the state the browser
 * kept, the PKCE verifier, the ID token's nonce, audience and expiry — and each refusal is audited
 * with its reason; the client secret is sealed at rest; password log-in is switched off only from a
 * session that proved single sign-on works, and then keeps nobody in by password.
 */

import { toJsonString } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  AuditEntrySchema,
  Role,
  type SingleSignOn,
  SingleSignOnRefusal,
  SingleSignOnSchema,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { fieldViolations, parseNetworks, SecretBox } from "@countersign/kit";
import { linkTokens } from "../src/secrets.js";
import { PEPPER, type StartedAuth, startAuth } from "./harness.js";
import { authorizeAtProvider, FetchBrowser, startProvider, type TestProvider } from "./identity-provider.js";

const REDIRECT_URI = "https://sign.example.test/console/sso/callback/acme";
const CLIENT = {
  client_id: "countersign",
  client_secret: "a-client-secret-of-the-test-provider",
  redirect_uris: [REDIRECT_URI],
};
const PASSWORD = "a-long-password";

let auth: StartedAuth;
let provider: TestProvider;
let expiredProvider: TestProvider;
let wrongAudienceProvider: TestProvider;
let workspaceId: string;
let adminId: string;

beforeAll(async () => {
  [auth, provider, expiredProvider, wrongAudienceProvider] = await Promise.all([
    // The test providers listen on loopback, which an operator must allow as it would a provider
    // inside the cluster.
    startAuth({ identityProviderNetworks: parseNetworks("127.0.0.0/8, ::1/128") }),
    startProvider({ clients: [CLIENT] }),
    startProvider({ clients: [CLIENT], fault: "expired" }),
    startProvider({ clients: [CLIENT], fault: "wrong-audience" }),
  ]);
});
afterAll(async () => {
  await Promise.all([auth.close(), provider.close(), expiredProvider.close(), wrongAudienceProvider.close()]);
});

beforeEach(async () => {
  await auth.db.query("TRUNCATE workspaces, users, audit_entries, login_throttle CASCADE");
  workspaceId = (await auth.client.createWorkspace({ name: "Acme" })).workspace?.id as string;
  const { member } = await auth.client.addMember({
    workspaceId,
    email: "admin@example.com",
    role: Role.ORG_ADMIN,
    password: PASSWORD,
  });
  adminId = member?.userId as string;
});

async function configure(issuer = provider.issuer, change: { passwordLoginEnabled?: boolean } = {}) {
  return auth.client.updateSingleSignOn({
    workspaceId,
    enabled: true,
    issuer,
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    allowedDomains: ["example.com"],
    newMemberRole: Role.MEMBER,
    passwordLoginEnabled: change.passwordLoginEnabled ?? true,
    actorUserId: adminId,
  });
}

/** A log-in up to the provider's redirect back: the callback and the state the browser kept. */
async function toCallback(email: string, browser = new FetchBrowser()) {
  const begun = await auth.client.beginSingleSignOn({ workspaceId, redirectUri: REDIRECT_URI });
  const callbackUrl = await authorizeAtProvider(browser, begun.authorizationUrl, email);
  expect(callbackUrl.startsWith(`${REDIRECT_URI}?`)).toBe(true);
  return { callbackUrl, state: begun.state, authorizationUrl: new URL(begun.authorizationUrl) };
}

async function logIn(email: string) {
  const { callbackUrl, state } = await toCallback(email);
  return auth.client.finishSingleSignOn({ state, callbackUrl, clientAddress: "203.0.113.9" });
}

async function audit() {
  return (await auth.client.listAuditEntries({ workspaceId, limit: 50 })).entries;
}

async function failure(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    (err) => ConnectError.from(err),
  );
}

test("a person of an allowed domain logs in through the provider, joins as a Member and is found by subject next time", async () => {
  await configure();
  const { authorizationUrl } = await toCallback("carol@example.com");
  // What the browser was sent with: a state, a nonce and an S256 challenge, never the verifier.
  expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorizationUrl.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
  expect(authorizationUrl.searchParams.get("nonce")).toMatch(/^[\w-]{43}$/);
  expect(authorizationUrl.searchParams.get("state")).toMatch(/^[\w-]{43}$/);

  const first = await logIn("carol@example.com");
  expect(first.refusal).toBe(SingleSignOnRefusal.UNSPECIFIED);
  expect(first.token).toMatch(/^[\w-]{43}$/);
  expect(first.session?.email).toBe("carol@example.com");
  expect(first.session?.singleSignOnWorkspaceId).toBe(workspaceId);
  expect(first.session?.memberships.map((m) => [m.workspaceId, m.role])).toEqual([
    [workspaceId, Role.MEMBER],
  ]);
  const session = await auth.client.getSession({ token: first.token });
  expect(session.session?.userId).toBe(first.session?.userId);

  const again = await logIn("carol@example.com");
  expect(again.session?.userId).toBe(first.session?.userId);
  const joined = (await audit()).filter((e) => e.action === "member.joined");
  expect(joined.map((e) => [e.actor, e.detail])).toEqual([
    ["carol@example.com", "Member, through single sign-on"],
  ]);
  // Joined without a password: password log-in finds none to match.
  expect(
    (await failure(auth.client.createSession({ email: "carol@example.com", password: PASSWORD })))?.code,
  ).toBe(Code.Unauthenticated);
});

test("a session opened through single sign-on covers that workspace only; a member of another domain logs in, a stranger does not", async () => {
  await configure();
  const other = (await auth.client.createWorkspace({ name: "Other" })).workspace?.id as string;
  await auth.client.addMember({
    workspaceId: other,
    email: "admin@example.com",
    role: Role.MEMBER,
    password: "",
  });
  await auth.client.addMember({ workspaceId, email: "dan@partner.org", role: Role.MEMBER, password: "" });

  const admin = await logIn("admin@example.com");
  expect(admin.session?.userId).toBe(adminId);
  expect(admin.session?.memberships.map((m) => m.workspaceId)).toEqual([workspaceId]);
  const byPassword = await auth.client.createSession({ email: "admin@example.com", password: PASSWORD });
  expect(byPassword.session?.memberships.map((m) => m.workspaceId).sort()).toEqual(
    [workspaceId, other].sort(),
  );

  expect((await logIn("dan@partner.org")).session?.email).toBe("dan@partner.org");

  const stranger = await logIn("eve@elsewhere.net");
  expect(stranger.refusal).toBe(SingleSignOnRefusal.NOT_ALLOWED);
  expect(stranger.token).toBe("");
  // Neither an address the provider calls unverified nor one it says nothing of finds or makes anyone.
  expect((await logIn("unverified.frank@example.com")).refusal).toBe(SingleSignOnRefusal.NOT_ALLOWED);
  expect((await logIn("unstated.admin@example.com")).refusal).toBe(SingleSignOnRefusal.NOT_ALLOWED);
  // Someone the deployment knows from another workspace is not reached through this one's provider,
  // even at an allowed domain: its admin chose the provider and could make it say any address.
  await auth.client.addMember({
    workspaceId: other,
    email: "zoe@example.com",
    role: Role.MEMBER,
    password: "",
  });
  expect((await logIn("zoe@example.com")).refusal).toBe(SingleSignOnRefusal.NOT_ALLOWED);
  const members = (await auth.client.listMembers({ workspaceId })).members.map((m) => m.email);
  expect(members).not.toContain("zoe@example.com");

  const refused = (await audit()).filter((e) => e.action === "single_sign_on.refused");
  expect(refused.map((e) => [e.actor, e.detail])).toEqual([
    [
      "zoe@example.com",
      "zoe@example.com has an account but is not a member of this workspace: an Organization Admin adds them under Members first (from 203.0.113.9)",
    ],
    [
      "admin@example.com",
      "the identity provider does not say admin@example.com is verified (email_verified) (from 203.0.113.9)",
    ],
    [
      "frank@example.com",
      "the identity provider does not say frank@example.com is verified (email_verified) (from 203.0.113.9)",
    ],
    [
      "eve@elsewhere.net",
      "eve@elsewhere.net is not a member, and elsewhere.net is not a domain allowed to join (from 203.0.113.9)",
    ],
  ]);
});

test("the state: a callback without the browser's state, with another log-in's, or a second time is refused", async () => {
  await configure();
  const { callbackUrl, state } = await toCallback("carol@example.com");
  const other = await auth.client.beginSingleSignOn({ workspaceId, redirectUri: REDIRECT_URI });

  const none = await auth.client.finishSingleSignOn({ state: "", callbackUrl, clientAddress: "" });
  expect(none.refusal).toBe(SingleSignOnRefusal.EXPIRED);
  // A browser that started its own log-in is handed someone else's callback (log-in CSRF).
  const crossed = await auth.client.finishSingleSignOn({
    state: other.state,
    callbackUrl,
    clientAddress: "",
  });
  expect(crossed.refusal).toBe(SingleSignOnRefusal.ANSWER_REJECTED);
  expect(crossed.refusalDetail).toMatch(/\bstate\b/);

  expect((await auth.client.finishSingleSignOn({ state, callbackUrl, clientAddress: "" })).token).not.toBe(
    "",
  );
  const replayed = await auth.client.finishSingleSignOn({ state, callbackUrl, clientAddress: "" });
  expect(replayed.refusal).toBe(SingleSignOnRefusal.EXPIRED);
  expect(replayed.token).toBe("");
});

test("mix-up: a code that comes back to another workspace's redirect URI is refused before it is sent anywhere", async () => {
  await configure();
  const { callbackUrl, state } = await toCallback("carol@example.com");
  const elsewhere = new URL(callbackUrl);
  elsewhere.pathname = "/console/sso/callback/another-workspace";
  const finished = await auth.client.finishSingleSignOn({
    state,
    callbackUrl: elsewhere.href,
    clientAddress: "",
  });
  expect(finished.refusal).toBe(SingleSignOnRefusal.ANSWER_REJECTED);
  expect(finished.refusalDetail).toBe(
    "the browser came back to another workspace's redirect URI than this log-in was started for",
  );
  expect((await audit()).some((e) => e.action === "member.joined")).toBe(false);
});

test("PKCE: a code stolen from one log-in and injected into another is refused by the provider", async () => {
  await configure();
  const victim = await toCallback("carol@example.com");
  const attacker = await toCallback("mallory@example.com");
  const injected = new URL(attacker.callbackUrl);
  injected.searchParams.set("code", new URL(victim.callbackUrl).searchParams.get("code") as string);
  const finished = await auth.client.finishSingleSignOn({
    state: attacker.state,
    callbackUrl: injected.href,
    clientAddress: "",
  });
  expect(finished.refusal).toBe(SingleSignOnRefusal.ANSWER_REJECTED);
  expect(finished.refusalDetail).toMatch(/invalid_grant/);
  expect((await audit()).some((e) => e.action === "member.joined")).toBe(false);
});

test("the nonce: an ID token minted for another nonce is refused", async () => {
  await configure();
  const { callbackUrl, state } = await toCallback("carol@example.com");
  await auth.db.query("UPDATE single_sign_on_logins SET nonce = 'a-nonce-this-log-in-never-sent'");
  const finished = await auth.client.finishSingleSignOn({ state, callbackUrl, clientAddress: "" });
  expect(finished.refusal).toBe(SingleSignOnRefusal.ANSWER_REJECTED);
  expect(finished.refusalDetail).toBe("unexpected JWT claim value encountered (claim “nonce”)");
});

test("an ID token for another audience, or one already expired, is refused", async () => {
  await configure(wrongAudienceProvider.issuer);
  const wrongAudience = await logIn("carol@example.com");
  expect(wrongAudience.refusal).toBe(SingleSignOnRefusal.ANSWER_REJECTED);
  expect(wrongAudience.refusalDetail).toBe("unexpected JWT claim value encountered (claim “aud”)");

  await configure(expiredProvider.issuer);
  const expired = await logIn("carol@example.com");
  expect(expired.refusal).toBe(SingleSignOnRefusal.ANSWER_REJECTED);
  expect(expired.refusalDetail).toBe("JWT timestamp claim value failed validation (claim “exp”)");
  expect((await audit()).filter((e) => e.action === "member.joined")).toEqual([]);
});

test("a person who cancels at the provider is refused with the provider's error", async () => {
  await configure();
  const begun = await auth.client.beginSingleSignOn({ workspaceId, redirectUri: REDIRECT_URI });
  const callbackUrl = await authorizeAtProvider(new FetchBrowser(), begun.authorizationUrl, "cancel");
  const finished = await auth.client.finishSingleSignOn({
    state: begun.state,
    callbackUrl,
    clientAddress: "",
  });
  expect(finished.refusal).toBe(SingleSignOnRefusal.PROVIDER_ERROR);
  expect(finished.refusalDetail).toMatch(/access_denied/);
});

test("settings: the issuer is read before saving, the secret is sealed and never answered, and the change is audited", async () => {
  const unreachable = await failure(configure("http://127.0.0.1:9/realms/none"));
  expect(unreachable?.code).toBe(Code.FailedPrecondition);
  expect(unreachable?.rawMessage).toContain(
    "http://127.0.0.1:9/realms/none/.well-known/openid-configuration",
  );
  const plainHttp = await failure(configure("http://login.example.com"));
  expect(plainHttp?.code).toBe(Code.InvalidArgument);
  expect(fieldViolations(plainHttp as ConnectError)).toEqual([
    { path: "issuer", message: "must be an https URL (http only on a loopback address)" },
  ]);
  const noSecret = await failure(
    auth.client.updateSingleSignOn({
      workspaceId,
      enabled: true,
      issuer: provider.issuer,
      clientId: "x",
      passwordLoginEnabled: true,
    }),
  );
  expect(fieldViolations(noSecret as ConnectError).map((v) => v.path)).toEqual(["clientSecret"]);
  expect((await auth.client.getSingleSignOn({ workspaceId })).singleSignOn?.enabled).toBe(false);

  const saved = (await configure()).singleSignOn;
  expect(saved).toMatchObject({ enabled: true, clientSecretSet: true, allowedDomains: ["example.com"] });
  expect(toJsonString(SingleSignOnSchema, saved as SingleSignOn)).not.toContain(CLIENT.client_secret);
  const { rows } = await auth.db.query<{ client_secret_sealed: Buffer }>(
    "SELECT client_secret_sealed FROM single_sign_on",
  );
  expect(rows[0]?.client_secret_sealed.includes(Buffer.from(CLIENT.client_secret))).toBe(false);
  // The secret kept when none is given: log-in still works.
  await auth.client.updateSingleSignOn({
    workspaceId,
    enabled: true,
    issuer: provider.issuer,
    clientId: CLIENT.client_id,
    allowedDomains: ["example.com", "example.org"],
    passwordLoginEnabled: true,
    actorUserId: adminId,
  });
  expect((await logIn("carol@example.com")).token).not.toBe("");
  const changes = (await audit()).filter((e) => e.action === "single_sign_on.changed");
  expect(changes.map((e) => e.detail)).toEqual([
    "domains allowed to join: example.com, example.org",
    `switched on; issuer ${provider.issuer}; client id countersign; client secret replaced; domains allowed to join: example.com`,
  ]);
  expect((await audit()).map((e) => toJsonString(AuditEntrySchema, e)).join()).not.toContain(
    CLIENT.client_secret,
  );
});

test("password log-in is switched off only from a session that came through single sign-on, and then lets nobody in by password", async () => {
  await configure();
  const byPassword = await auth.client.createSession({ email: "admin@example.com", password: PASSWORD });
  const fromPasswordSession = await failure(
    configure(provider.issuer, { passwordLoginEnabled: false }).then(() => undefined),
  );
  expect(fromPasswordSession?.code).toBe(Code.FailedPrecondition);
  const offWithSso = (token: string) =>
    auth.client.updateSingleSignOn({
      workspaceId,
      enabled: true,
      issuer: provider.issuer,
      clientId: CLIENT.client_id,
      allowedDomains: ["example.com"],
      passwordLoginEnabled: false,
      actorUserId: adminId,
      actorSessionToken: token,
    });
  expect((await failure(offWithSso(byPassword.token)))?.code).toBe(Code.FailedPrecondition);

  const bySso = await logIn("admin@example.com");
  expect((await offWithSso(bySso.token)).singleSignOn?.passwordLoginEnabled).toBe(false);

  // While password log-in is off the console may not change the provider (a wrong secret would
  // lock everyone out); the operator may.
  const replaceSecret = (actor: { actorUserId?: string; actorSessionToken?: string }) =>
    auth.client.updateSingleSignOn({
      workspaceId,
      enabled: true,
      issuer: provider.issuer,
      clientId: CLIENT.client_id,
      clientSecret: CLIENT.client_secret,
      allowedDomains: ["example.com"],
      passwordLoginEnabled: false,
      ...actor,
    });
  const fromConsole = await failure(replaceSecret({ actorUserId: adminId, actorSessionToken: bySso.token }));
  expect(fromConsole?.rawMessage).toContain(
    "switch password log-in on before changing the identity provider",
  );
  await replaceSecret({});
  // A session the provider opened before it changed no longer counts.
  expect((await auth.client.getSession({ token: bySso.token })).session?.memberships).toEqual([]);
  const bySsoAgain = await logIn("admin@example.com");
  expect((await auth.client.getSession({ token: bySsoAgain.token })).session?.memberships).toHaveLength(1);

  // The password session already open loses the workspace at once; a new one is refused.
  expect((await auth.client.getSession({ token: byPassword.token })).session?.memberships).toEqual([]);
  const refused = await failure(
    auth.client.createSession({ email: "admin@example.com", password: PASSWORD }),
  );
  expect(refused?.code).toBe(Code.FailedPrecondition);
  expect(refused?.rawMessage).toMatch(/single sign-on/);
  // A wrong password is told nothing more.
  expect(
    (await failure(auth.client.createSession({ email: "admin@example.com", password: "not-the-password" })))
      ?.code,
  ).toBe(Code.Unauthenticated);
  // Single sign-on cannot be switched off while it is the only way in; the operator can switch password log-in back on.
  const offEntirely = await failure(
    auth.client.updateSingleSignOn({
      workspaceId,
      enabled: false,
      issuer: provider.issuer,
      clientId: CLIENT.client_id,
      passwordLoginEnabled: false,
    }),
  );
  expect(offEntirely?.code).toBe(Code.FailedPrecondition);
  await auth.client.updateSingleSignOn({
    workspaceId,
    enabled: true,
    issuer: provider.issuer,
    clientId: CLIENT.client_id,
    allowedDomains: ["example.com"],
    passwordLoginEnabled: true,
  });
  expect(
    (await auth.client.createSession({ email: "admin@example.com", password: PASSWORD })).session
      ?.memberships,
  ).toHaveLength(1);
});

test("the log-in page finds a workspace's single sign-on by the e-mail's domain", async () => {
  expect((await auth.client.findSingleSignOn({ email: "carol@example.com" })).workspaces).toEqual([]);
  await configure();
  expect(
    (await auth.client.findSingleSignOn({ email: "Carol@Example.com" })).workspaces.map((w) => w.name),
  ).toEqual(["Acme"]);
  expect((await auth.client.findSingleSignOn({ email: "carol@example.org" })).workspaces).toEqual([]);
  expect((await auth.client.findSingleSignOn({ email: "not an address" })).workspaces).toEqual([]);
});

test("the operator switches password log-in back on while the identity provider is down; a secret that no longer opens is asked for again", async () => {
  const doomed = await startProvider({ clients: [CLIENT] });
  await configure(doomed.issuer);
  const bySso = await logIn("admin@example.com");
  await auth.client.updateSingleSignOn({
    workspaceId,
    enabled: true,
    issuer: doomed.issuer,
    clientId: CLIENT.client_id,
    allowedDomains: ["example.com"],
    passwordLoginEnabled: false,
    actorUserId: adminId,
    actorSessionToken: bySso.token,
  });
  await doomed.close();
  const operator = {
    workspaceId,
    enabled: true,
    issuer: doomed.issuer,
    clientId: CLIENT.client_id,
    allowedDomains: ["example.com"],
    passwordLoginEnabled: true,
  };
  expect((await auth.client.updateSingleSignOn(operator)).singleSignOn?.passwordLoginEnabled).toBe(true);
  expect(
    (await auth.client.createSession({ email: "admin@example.com", password: PASSWORD })).token,
  ).not.toBe("");

  // A secret sealed under another key (the pepper changed) is asked for again, by name.
  await auth.db.query("UPDATE single_sign_on SET client_secret_sealed = $1", [
    new SecretBox("another-pepper-of-at-least-thirty-two-characters", {
      purpose: "single sign-on client secrets v1",
      variable: "COUNTERSIGN_KEY_PEPPER",
    }).seal(CLIENT.client_secret, workspaceId),
  ]);
  const unopenable = await failure(auth.client.updateSingleSignOn({ ...operator, issuer: provider.issuer }));
  expect(fieldViolations(unopenable as ConnectError)).toEqual([
    {
      path: "clientSecret",
      message:
        "the stored secret cannot be opened: COUNTERSIGN_KEY_PEPPER has changed, or the row was altered: enter it again",
    },
  ]);
});

test("someone who joined through single sign-on accepts an invitation elsewhere by choosing a password, not by proving one they never had", async () => {
  await configure();
  await logIn("carol@example.com");
  const other = (await auth.client.createWorkspace({ name: "Other" })).workspace?.id as string;
  const { invitation } = await auth.client.inviteMember({
    workspaceId: other,
    email: "carol@example.com",
    role: Role.MEMBER,
  });
  const token = linkTokens(PEPPER)("invitation", invitation?.id as string);
  expect((await auth.client.getInvitation({ token })).hasLogIn).toBe(false);
  const accepted = await auth.client.acceptInvitation({
    token,
    password: "carols-new-password",
    clientAddress: "",
  });
  expect(accepted.session?.memberships.map((m) => m.workspaceId).sort()).toEqual([workspaceId, other].sort());
  expect(
    (await auth.client.createSession({ email: "carol@example.com", password: "carols-new-password" })).token,
  ).not.toBe("");
});
