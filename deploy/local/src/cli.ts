/**
 * The ops CLI: a Connect client of the services, never a second way into their databases. It talks
 * to a running standalone process through the loopback admin port recorded in its data dir, or,
 * with AUTH_ADDR set, to the auth service of a distributed deployment. Results are JSON lines on
 * stdout; errors one line on stderr.
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, ConnectError } from "@connectrpc/connect";
import { AuthService, Role, type Workspace } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { grpcTransport, serviceClient } from "@countersign/kit";
import { generateSealP12 } from "@countersign/requests";
import { readDistributedEndpoints } from "./distributed-endpoints.js";
import { readAdminEndpoint } from "./state-files.js";

const USAGE = `usage: npm run -s cli -- <command>
  workspaces list
  workspaces create --name NAME [--api-access off]
  workspaces update ID [--name NAME] [--api-access on|off]
  keys create --name NAME [--workspace ID]
  keys list [--workspace ID]
  keys delete KEY_ID [--workspace ID]
  members add --email EMAIL --role org_admin|member [--password PASSWORD] [--workspace ID]
  members list [--workspace ID]
  seal generate --out FILE [--name COMMON_NAME]   (a self-signed seal certificate; needs no running service)
Without --workspace, the oldest workspace (the one made on the first start) is used.
Finds a running standalone or local distributed deployment through COUNTERSIGN_DATA_DIR
(default ./data); elsewhere set AUTH_ADDR and COUNTERSIGN_INTERNAL_TOKEN.`;

class UsageError extends Error {}

async function connect(): Promise<Client<typeof AuthService>> {
  const authAddr = process.env.AUTH_ADDR;
  if (authAddr)
    return serviceClient(AuthService, grpcTransport(authAddr, process.env.COUNTERSIGN_INTERNAL_TOKEN));
  const dataDir = resolve(process.env.COUNTERSIGN_DATA_DIR ?? "./data");
  const endpoint = await readAdminEndpoint(dataDir);
  if (endpoint) return serviceClient(AuthService, grpcTransport(endpoint.url, endpoint.token));
  for (const dir of [dataDir, join(dataDir, "distributed")]) {
    const distributed = await readDistributedEndpoints(dir);
    const auth = distributed?.services.auth?.[0];
    if (distributed && auth)
      return serviceClient(AuthService, grpcTransport(auth, distributed.internalToken));
  }
  throw new Error(`no running Countersign found for ${dataDir}: start it with "npm start", or set AUTH_ADDR`);
}

const iso = (time: Timestamp | undefined) => (time ? timestampDate(time).toISOString() : undefined);
const workspaceJson = (w: Workspace | undefined) =>
  w && { id: w.id, name: w.name, apiAccessEnabled: w.apiAccessEnabled, createdAt: iso(w.createTime) };
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "on" || value === "off") return value === "on";
  throw new UsageError(`${flag} must be "on" or "off"`);
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

async function workspaceOf(auth: Client<typeof AuthService>, given: string | undefined): Promise<string> {
  if (given) return given;
  const { workspaces } = await auth.listWorkspaces({});
  const oldest = workspaces[0];
  if (!oldest) throw new Error("there is no workspace yet");
  return oldest.id;
}

/** A self-signed seal certificate for COUNTERSIGN_SEAL_P12, with a random password; never overwrites a file. */
async function generateSeal(out: string, commonName: string) {
  const password = randomBytes(24).toString("base64url");
  const p12 = generateSealP12(commonName, password);
  await writeFile(out, p12, { mode: 0o600, flag: "wx" }).catch((err: NodeJS.ErrnoException) => {
    throw err.code === "EEXIST" ? new UsageError(`${out} exists already; choose another --out`) : err;
  });
  return { file: resolve(out), password, commonName };
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      workspace: { type: "string" },
      email: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      "api-access": { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [group, action, argument] = positionals;
  if (values.help || !group) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (group === "seal" && action === "generate") {
    print(await generateSeal(required(values.out, "--out"), values.name ?? "Countersign seal"));
    return;
  }
  const auth = await connect();
  switch (`${group} ${action ?? ""}`) {
    case "workspaces list": {
      for (const w of (await auth.listWorkspaces({})).workspaces) print(workspaceJson(w));
      return;
    }
    case "workspaces create": {
      const accessDisabled = onOff(values["api-access"], "--api-access") === false;
      const { workspace } = await auth.createWorkspace({
        name: required(values.name, "--name"),
        apiAccessDisabled: accessDisabled,
      });
      print(workspaceJson(workspace));
      return;
    }
    case "workspaces update": {
      const { workspace } = await auth.updateWorkspace({
        workspaceId: required(argument, "the workspace id"),
        name: values.name,
        apiAccessEnabled: onOff(values["api-access"], "--api-access"),
      });
      print(workspaceJson(workspace));
      return;
    }
    case "keys create": {
      const workspaceId = await workspaceOf(auth, values.workspace);
      const { key, secret } = await auth.createApiKey({ workspaceId, name: required(values.name, "--name") });
      print({
        id: key?.id,
        name: key?.name,
        secret,
        accountId: key?.workspaceId,
        createdAt: iso(key?.createTime),
      });
      return;
    }
    case "keys list": {
      const { keys } = await auth.listApiKeys({ workspaceId: await workspaceOf(auth, values.workspace) });
      for (const key of keys) print({ id: key.id, name: key.name, createdAt: iso(key.createTime) });
      return;
    }
    case "keys delete": {
      const keyId = required(argument, "the key id");
      await auth.deleteApiKey({ workspaceId: await workspaceOf(auth, values.workspace), keyId });
      print({ deleted: keyId });
      return;
    }
    case "members add": {
      const roles: Record<string, Role> = { org_admin: Role.ORG_ADMIN, member: Role.MEMBER };
      const role = roles[required(values.role, "--role")];
      if (role === undefined) throw new UsageError("--role must be org_admin or member");
      const { member, generatedPassword } = await auth.addMember({
        workspaceId: await workspaceOf(auth, values.workspace),
        email: required(values.email, "--email"),
        role,
        password: values.password ?? "",
      });
      print({
        userId: member?.userId,
        email: member?.email,
        workspaceId: member?.workspaceId,
        role: values.role,
        ...(generatedPassword ? { generatedPassword } : {}),
      });
      return;
    }
    case "members list": {
      const { members } = await auth.listMembers({ workspaceId: await workspaceOf(auth, values.workspace) });
      for (const m of members) {
        print({ userId: m.userId, email: m.email, role: m.role === Role.ORG_ADMIN ? "org_admin" : "member" });
      }
      return;
    }
    default:
      throw new UsageError(`unknown command "${positionals.join(" ")}"`);
  }
}

run(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`error: ${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const message =
    err instanceof ConnectError ? err.rawMessage : err instanceof Error ? err.message : String(err);
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
});
