import { fromBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { subjects } from "@countersign/domain";
import { Role } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { WorkspaceUpdatedSchema } from "@countersign/gen/countersign/events/v1/auth_events_pb.js";
import { type StartedAuth, startAuth } from "./harness.js";

let auth: StartedAuth;

beforeEach(async () => {
  auth = await startAuth();
});
afterEach(() => auth.close());

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => ConnectError.from(err).code,
  );

test("bootstrap creates one workspace with API access and its admin, and does nothing the second time", async () => {
  const created = await auth.module.accounts.bootstrap({
    workspaceName: "Default workspace",
    adminEmail: "Admin@Example.com",
  });
  expect(created?.workspace.apiAccessEnabled).toBe(true);
  expect(created?.adminEmail).toBe("admin@example.com");
  expect(created?.generatedPassword).toMatch(/^[A-Za-z0-9]{20}$/);
  expect(
    await auth.module.accounts.bootstrap({ workspaceName: "Again", adminEmail: "other@example.com" }),
  ).toBeUndefined();
  expect((await auth.client.listWorkspaces({})).workspaces.map((w) => w.name)).toEqual(["Default workspace"]);

  const login = await auth.client.createSession({
    email: "admin@example.com",
    password: created?.generatedPassword as string,
  });
  expect(login.session?.memberships[0]?.role).toBe(Role.ORG_ADMIN);
  expect(login.session?.workspaces[0]?.id).toBe(created?.workspace.id);
});

test("a wrong password, an empty one and an unknown email are refused alike", async () => {
  await auth.module.accounts.bootstrap({
    workspaceName: "W",
    adminEmail: "a@example.com",
    adminPassword: "a-long-password",
  });
  for (const [email, password] of [
    ["a@example.com", "wrong-password"],
    ["a@example.com", ""],
    ["nobody@example.com", "a-long-password"],
    ["nobody@example.com", ""],
  ]) {
    expect(await codeOf(auth.client.createSession({ email, password }))).toBe(Code.Unauthenticated);
  }
});

test("a session token resolves until the session is deleted; only its hash is stored", async () => {
  await auth.module.accounts.bootstrap({
    workspaceName: "W",
    adminEmail: "a@example.com",
    adminPassword: "a-long-password",
  });
  const { token } = await auth.client.createSession({ email: "a@example.com", password: "a-long-password" });
  expect((await auth.client.getSession({ token })).session?.email).toBe("a@example.com");
  const { rows } = await auth.db.query("SELECT * FROM sessions");
  expect(JSON.stringify(rows)).not.toContain(token);
  await auth.client.deleteSession({ token });
  expect(await codeOf(auth.client.getSession({ token }))).toBe(Code.Unauthenticated);
});

test("adding a new person returns a generated password once; an existing person keeps theirs", async () => {
  const workspaceId = (await auth.client.createWorkspace({ name: "W" })).workspace?.id as string;
  const added = await auth.client.addMember({
    workspaceId,
    email: "m@example.com",
    role: Role.MEMBER,
    password: "",
  });
  expect(added.generatedPassword).toMatch(/^[A-Za-z0-9]{20}$/);
  expect(added.member?.role).toBe(Role.MEMBER);

  const second = (await auth.client.createWorkspace({ name: "Second" })).workspace?.id as string;
  const again = await auth.client.addMember({
    workspaceId: second,
    email: "M@example.com",
    role: Role.ORG_ADMIN,
    password: "",
  });
  expect(again.generatedPassword).toBe("");
  expect(
    await codeOf(
      auth.client.addMember({
        workspaceId,
        email: "m@example.com",
        role: Role.MEMBER,
        password: "another-pass",
      }),
    ),
  ).toBe(Code.AlreadyExists);

  const { session } = await auth.client.createSession({
    email: "m@example.com",
    password: added.generatedPassword,
  });
  expect(session?.memberships.map((m) => m.role)).toEqual([Role.MEMBER, Role.ORG_ADMIN]);
});

test("an address typed with a decomposed letter is the same person as the composed one, and stored composed", async () => {
  const composed = "jos\u00e9@example.com";
  const decomposed = "Jose\u0301@Example.com";
  const workspaceId = (await auth.client.createWorkspace({ name: "W" })).workspace?.id as string;
  const added = await auth.client.addMember({
    workspaceId,
    email: decomposed,
    role: Role.MEMBER,
    password: "",
  });
  expect(added.member?.email).toBe(composed);
  const second = (await auth.client.createWorkspace({ name: "Second" })).workspace?.id as string;
  const again = await auth.client.addMember({
    workspaceId: second,
    email: composed,
    role: Role.MEMBER,
    password: "",
  });
  expect(again.generatedPassword).toBe("");
  const { session } = await auth.client.createSession({
    email: decomposed,
    password: added.generatedPassword,
  });
  expect(session?.workspaces.map((w) => w.name)).toEqual(["W", "Second"]);
});

test("the migration to composed addresses moves a stored decomposed one, and leaves one whose composed form is taken", async () => {
  const { readFile } = await import("node:fs/promises");
  const sql = await readFile(new URL("../migrations/014_email_nfc.sql", import.meta.url), "utf8");
  const stored = async () =>
    (await auth.db.query<{ email: string }>("SELECT email FROM users")).rows.map((r) => r.email).sort();
  await auth.db.query(
    "INSERT INTO users (id, email, password_hash) VALUES (gen_random_uuid(), $1, ''), (gen_random_uuid(), $2, ''), (gen_random_uuid(), $3, '')",
    ["rene\u0301@example.com", "zoe\u0308@example.com", "zo\u00eb@example.com"],
  );
  // Its statements one by one, as a prepared statement holds one.
  for (const statement of sql.split(/;\s*$/m).filter((part) => part.replace(/--.*$/gm, "").trim()))
    await auth.db.query(statement);
  expect(await stored()).toEqual(
    ["ren\u00e9@example.com", "zoe\u0308@example.com", "zo\u00eb@example.com"].sort(),
  );
});

test("member input is validated: email, role and password length", async () => {
  const workspaceId = (await auth.client.createWorkspace({ name: "W" })).workspace?.id as string;
  const err = await auth.client
    .addMember({ workspaceId, email: "not-an-email", role: Role.UNSPECIFIED, password: "short" })
    .catch((e: unknown) => ConnectError.from(e));
  expect((err as ConnectError).code).toBe(Code.InvalidArgument);
  expect((err as ConnectError).rawMessage).toBe("the request is not valid");
});

test("updating a workspace announces WorkspaceUpdated with its API access", async () => {
  const workspaceId = (await auth.client.createWorkspace({ name: "W" })).workspace?.id as string;
  const announced = new Promise<{ workspaceId: string; apiAccessEnabled: boolean }>((resolve) => {
    void auth.bus.listen(subjects.workspaceUpdated, (msg) =>
      resolve(fromBinary(WorkspaceUpdatedSchema, msg.data)),
    );
  });
  const { workspace } = await auth.client.updateWorkspace({
    workspaceId,
    apiAccessEnabled: false,
    name: " Renamed ",
  });
  expect(workspace?.name).toBe("Renamed");
  expect(await announced).toMatchObject({ workspaceId, apiAccessEnabled: false });
});
