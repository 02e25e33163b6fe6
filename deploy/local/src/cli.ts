/**
 * The ops CLI: a Connect client of the services, never a second way into their databases. It talks
 * to a running standalone process through the loopback admin port recorded in its data dir, or,
 * with AUTH_ADDR (and WEBHOOKS_ADDR, REQUESTS_ADDR) set, to the services of a distributed deployment. Results are JSON lines on
 * stdout; errors one line on stderr.
 */
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Timestamp, timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Client, ConnectError } from "@connectrpc/connect";
import { API_SCOPES, CALLERS, keyAccess, scopesProblem } from "@countersign/domain";
import {
  type ApiKey,
  AuthService,
  type Invitation,
  Role,
  type SingleSignOn,
  type Workspace,
} from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { WebhooksService } from "@countersign/gen/countersign/webhooks/v1/webhooks_service_pb.js";
import { networkTransport, serviceClient, tokenDigest } from "@countersign/kit";
import { generateSealP12, sealCertificateRequest, verifyDocument } from "@countersign/requests";
import { cliConfigSchema } from "./cli-config.js";
import { readDistributedEndpoints } from "./distributed-endpoints.js";
import { readAdminEndpoint } from "./state-files.js";

const USAGE = `usage: npm run -s cli -- <command>
  workspaces list
  workspaces create --name NAME [--api-access off]
  workspaces update ID [--name NAME] [--api-access on|off]
  keys create --name NAME [--scopes SCOPE,…] [--expires DATE_TIME] [--test] [--workspace ID]
                                 (without --scopes the key has full access; the scopes are
                                  ${API_SCOPES.join(", ")}; --test makes a test key, sk_test_…,
                                  whose requests are test data, mailed to the outbox only and
                                  sealed "TEST — NOT LEGALLY BINDING")
  keys list [--workspace ID]
  keys delete KEY_ID [--workspace ID]
  members add --email EMAIL --role org_admin|member [--password PASSWORD] [--workspace ID]
  members invite --email EMAIL --role org_admin|member [--workspace ID]
                                 (an invitation by e-mail whose link works once, for seven days)
  members set-role USER_ID --role org_admin|member [--workspace ID]
  members remove USER_ID [--workspace ID]
  members list [--workspace ID]
  invitations list [--workspace ID]
  invitations revoke INVITATION_ID [--workspace ID]
  sso show [--workspace ID]      (the workspace's single sign-on: issuer, client, domains that join)
  sso password-login on|off [--workspace ID]
                                 (whether members may log in with a password too: on again for a
                                  workspace locked out by a broken identity provider)
  audit list [--workspace ID]    (who changed the workspace's members, API access and keys; the
                                  CLI's changes are the operator's)
  webhooks list [--workspace ID]
  webhooks replay ENDPOINT_ID --since DATE_TIME [--only-failed] [--workspace ID]
  requests links REQUEST_ID [--workspace ID]
                                 (the signing link of each signer whose turn it is, as their
                                  latest e-mail carries it)
  verify FILE                    (what a sealed PDF proves, from the file alone: the report as one
                                  JSON line; exits 1 unless the file is intact; needs no service)
  seal csr --p12 FILE [--password-file FILE] --out FILE [--name CN] [--org O] [--country CC]
                                 (a certificate signing request for the seal's key, for a CA to
                                  issue a certificate readers trust; needs no running service)
  identities                     (a new token for each caller — gateway, templates, documents,
                                  requests, requests-sealer, operator — and the COUNTERSIGN_CALLERS value
                                  the services check them against; needs no running service)
  seal generate --out FILE [--name COMMON_NAME] [--password-file FILE]
                                 (a self-signed seal certificate; needs no running service; its
                                  password is random, or the one in FILE)
Without --workspace, the oldest workspace (the one made on the first start) is used.
Finds a running standalone or local distributed deployment through COUNTERSIGN_DATA_DIR
(default ./data); elsewhere set AUTH_ADDR, WEBHOOKS_ADDR, REQUESTS_ADDR and COUNTERSIGN_SERVICE_TOKEN
(the operator's token, whose digest is the operator= entry of the services' COUNTERSIGN_CALLERS).`;

class UsageError extends Error {}

interface Services {
  auth: Client<typeof AuthService>;
  webhooks: Client<typeof WebhooksService>;
  requests: Client<typeof RequestsService>;
}

/** Clients of the running deployment's services: the standalone admin port serves them all. */
async function connect(): Promise<Services> {
  const config = cliConfigSchema.parse(process.env);
  const token = config.COUNTERSIGN_SERVICE_TOKEN;
  const authAddr = config.AUTH_ADDR;
  if (authAddr) {
    const webhooksAddr = config.WEBHOOKS_ADDR;
    const requestsAddr = config.REQUESTS_ADDR;
    return {
      auth: serviceClient(AuthService, networkTransport(authAddr, token)),
      get webhooks() {
        if (!webhooksAddr) throw new UsageError("set WEBHOOKS_ADDR for the webhooks commands");
        return serviceClient(WebhooksService, networkTransport(webhooksAddr, token));
      },
      get requests() {
        if (!requestsAddr) throw new UsageError("set REQUESTS_ADDR for the requests commands");
        return serviceClient(RequestsService, networkTransport(requestsAddr, token));
      },
    };
  }
  const dataDir = resolve(config.COUNTERSIGN_DATA_DIR);
  const endpoint = await readAdminEndpoint(dataDir);
  if (endpoint) {
    const transport = networkTransport(endpoint.url, endpoint.token);
    return {
      auth: serviceClient(AuthService, transport),
      webhooks: serviceClient(WebhooksService, transport),
      requests: serviceClient(RequestsService, transport),
    };
  }
  for (const dir of [dataDir, join(dataDir, "distributed")]) {
    const distributed = await readDistributedEndpoints(dir);
    const auth = distributed?.services.auth?.[0];
    const webhooks = distributed?.services.webhooks?.[0];
    const requests = distributed?.services.requests?.[0];
    if (distributed && auth && webhooks && requests)
      return {
        auth: serviceClient(AuthService, networkTransport(auth, distributed.operatorToken)),
        webhooks: serviceClient(WebhooksService, networkTransport(webhooks, distributed.operatorToken)),
        requests: serviceClient(RequestsService, networkTransport(requests, distributed.operatorToken)),
      };
  }
  throw new Error(`no running Countersign found for ${dataDir}: start it with "npm start", or set AUTH_ADDR`);
}

const iso = (time: Timestamp | undefined) => (time ? timestampDate(time).toISOString() : undefined);
const workspaceJson = (w: Workspace | undefined) =>
  w && { id: w.id, name: w.name, apiAccessEnabled: w.apiAccessEnabled, createdAt: iso(w.createTime) };
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

function singleSignOnJson(s: SingleSignOn | undefined) {
  return {
    enabled: s?.enabled ?? false,
    issuer: s?.issuer ?? "",
    clientId: s?.clientId ?? "",
    clientSecretSet: s?.clientSecretSet ?? false,
    allowedDomains: s?.allowedDomains ?? [],
    newMemberRole: s?.newMemberRole === Role.ORG_ADMIN ? "org_admin" : "member",
    passwordLoginEnabled: s?.passwordLoginEnabled ?? true,
  };
}

function onOff(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "on" || value === "off") return value === "on";
  throw new UsageError(`${flag} must be "on" or "off"`);
}

function roleOf(value: string | undefined): Role {
  const roles: Record<string, Role> = { org_admin: Role.ORG_ADMIN, member: Role.MEMBER };
  const role = roles[required(value, "--role")];
  if (role === undefined) throw new UsageError("--role must be org_admin or member");
  return role;
}

const roleName = (role: Role) => (role === Role.ORG_ADMIN ? "org_admin" : "member");
const keyJson = (key: ApiKey | undefined) =>
  key && {
    id: key.id,
    name: key.name,
    hint: key.hint,
    createdAt: iso(key.createTime),
    expiresAt: iso(key.expireTime) ?? null,
    ...keyAccess(key.scopes),
    test: key.test,
    lastUsedAt: iso(key.lastUseTime) ?? null,
  };
const invitationJson = (i: Invitation | undefined) =>
  i && {
    id: i.id,
    email: i.email,
    role: roleName(i.role),
    invitedBy: i.invitedBy,
    createdAt: iso(i.createTime),
    expiresAt: iso(i.expireTime),
  };

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

/**
 * A self-signed seal certificate for COUNTERSIGN_SEAL_P12, with a random password or one from the
 * environment (a container that makes its seal at start); never overwrites a file.
 */
async function generateSeal(out: string, commonName: string, passwordFile: string | undefined) {
  const given =
    passwordFile === undefined
      ? undefined
      : (
          await readFile(passwordFile, "utf8").catch(() => {
            throw new UsageError(`--password-file: ${passwordFile} cannot be read`);
          })
        ).replace(/\r?\n$/, "");
  if (given !== undefined && given.length < 16) {
    throw new UsageError(`--password-file: ${passwordFile} must hold at least 16 characters`);
  }
  const password = given ?? randomBytes(24).toString("base64url");
  const p12 = generateSealP12(commonName, password);
  await writeFile(out, p12, { mode: 0o600, flag: "wx" }).catch((err: NodeJS.ErrnoException) => {
    throw err.code === "EEXIST" ? new UsageError(`${out} exists already; choose another --out`) : err;
  });
  return { file: resolve(out), ...(given === undefined ? { password } : {}), commonName };
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
      "password-file": { type: "string" },
      p12: { type: "string" },
      org: { type: "string" },
      country: { type: "string" },
      since: { type: "string" },
      expires: { type: "string" },
      scopes: { type: "string" },
      "only-failed": { type: "boolean" },
      test: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [group, action, argument] = positionals;
  if (values.help || !group) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (group === "verify") {
    const file = required(action, "the PDF to verify");
    const report = await verifyDocument(
      await readFile(file).catch(() => {
        throw new UsageError(`${file} cannot be read`);
      }),
    );
    print(report);
    if (report.verdict !== "intact") process.exitCode = 1;
    return;
  }
  if (group === "seal" && action === "csr") {
    const p12Path = required(values.p12, "--p12");
    const read = (path: string, flag: string) =>
      readFile(path).catch(() => {
        throw new UsageError(`${flag}: ${path} cannot be read`);
      });
    const password = values["password-file"]
      ? (await read(values["password-file"], "--password-file")).toString("utf8").replace(/\r?\n$/, "")
      : "";
    const pem = await sealCertificateRequest(
      { p12: await read(p12Path, "--p12"), password },
      { commonName: values.name, organization: values.org, country: values.country },
    ).catch((err: Error) => {
      throw new UsageError(`the seal cannot make a request: ${err.message}`);
    });
    const out = required(values.out, "--out");
    await writeFile(out, pem, { flag: "wx" }).catch((err: NodeJS.ErrnoException) => {
      throw err.code === "EEXIST" ? new UsageError(`${out} exists already; choose another --out`) : err;
    });
    print({ file: resolve(out) });
    return;
  }
  if (group === "identities") {
    const tokens = Object.fromEntries(
      CALLERS.map((caller) => [caller, randomBytes(32).toString("base64url")]),
    );
    print({
      tokens,
      callers: CALLERS.map((caller) => `${caller}=${tokenDigest(tokens[caller] as string)}`).join(","),
    });
    return;
  }
  if (group === "seal" && action === "generate") {
    print(
      await generateSeal(
        required(values.out, "--out"),
        values.name ?? "Countersign seal",
        values["password-file"],
      ),
    );
    return;
  }
  const services = await connect();
  const { auth } = services;
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
      const expires = values.expires === undefined ? undefined : new Date(values.expires);
      if (expires && Number.isNaN(expires.getTime()))
        throw new UsageError("--expires must be a date-time, such as 2030-01-31T17:00:00Z");
      const scopes = values.scopes?.split(",").map((scope) => scope.trim());
      const refusal = scopes && (scopes.includes("") ? "names an empty scope" : scopesProblem(scopes));
      if (refusal) throw new UsageError(`--scopes ${refusal}`);
      const { key, secret } = await auth.createApiKey({
        workspaceId,
        name: required(values.name, "--name"),
        expireTime: expires && timestampFromDate(expires),
        scopes,
        test: values.test ?? false,
      });
      print({ ...keyJson(key), secret, accountId: key?.workspaceId });
      return;
    }
    case "sso show": {
      const { singleSignOn } = await auth.getSingleSignOn({
        workspaceId: await workspaceOf(auth, values.workspace),
      });
      print(singleSignOnJson(singleSignOn));
      return;
    }
    case "sso password-login": {
      const on = onOff(required(argument, "on or off"), "password-login");
      const workspaceId = await workspaceOf(auth, values.workspace);
      const { singleSignOn: current } = await auth.getSingleSignOn({ workspaceId });
      const { singleSignOn } = await auth.updateSingleSignOn({
        workspaceId,
        enabled: current?.enabled ?? false,
        issuer: current?.issuer ?? "",
        clientId: current?.clientId ?? "",
        allowedDomains: current?.allowedDomains ?? [],
        newMemberRole: current?.newMemberRole ?? Role.MEMBER,
        passwordLoginEnabled: on,
      });
      print(singleSignOnJson(singleSignOn));
      return;
    }
    case "keys list": {
      const { keys } = await auth.listApiKeys({ workspaceId: await workspaceOf(auth, values.workspace) });
      for (const key of keys) print(keyJson(key));
      return;
    }
    case "keys delete": {
      const keyId = required(argument, "the key id");
      await auth.deleteApiKey({ workspaceId: await workspaceOf(auth, values.workspace), keyId });
      print({ deleted: keyId });
      return;
    }
    case "members add": {
      const { member, generatedPassword } = await auth.addMember({
        workspaceId: await workspaceOf(auth, values.workspace),
        email: required(values.email, "--email"),
        role: roleOf(values.role),
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
      for (const m of members) print({ userId: m.userId, email: m.email, role: roleName(m.role) });
      return;
    }
    case "members invite": {
      const { invitation } = await auth.inviteMember({
        workspaceId: await workspaceOf(auth, values.workspace),
        email: required(values.email, "--email"),
        role: roleOf(values.role),
      });
      print(invitationJson(invitation));
      return;
    }
    case "members set-role": {
      const { member } = await auth.updateMember({
        workspaceId: await workspaceOf(auth, values.workspace),
        userId: required(argument, "the user id"),
        role: roleOf(values.role),
      });
      print({ userId: member?.userId, email: member?.email, role: member && roleName(member.role) });
      return;
    }
    case "members remove": {
      const userId = required(argument, "the user id");
      await auth.removeMember({ workspaceId: await workspaceOf(auth, values.workspace), userId });
      print({ removed: userId });
      return;
    }
    case "invitations list": {
      const { invitations } = await auth.listInvitations({
        workspaceId: await workspaceOf(auth, values.workspace),
      });
      for (const invitation of invitations) print(invitationJson(invitation));
      return;
    }
    case "invitations revoke": {
      const invitationId = required(argument, "the invitation id");
      await auth.revokeInvitation({ workspaceId: await workspaceOf(auth, values.workspace), invitationId });
      print({ revoked: invitationId });
      return;
    }
    case "audit list": {
      const { entries } = await auth.listAuditEntries({
        workspaceId: await workspaceOf(auth, values.workspace),
        limit: 500,
      });
      for (const e of entries)
        print({ time: iso(e.time), actor: e.actor, action: e.action, target: e.target, detail: e.detail });
      return;
    }
    case "webhooks list": {
      const workspaceId = await workspaceOf(auth, values.workspace);
      for (let pageIndex = 0; ; pageIndex++) {
        const { endpoints, totalCount } = await services.webhooks.listEndpoints({
          workspaceId,
          pageIndex,
          pageSize: 100,
        });
        for (const e of endpoints) {
          print({
            id: e.id,
            url: e.url,
            eventTypes: e.eventTypes,
            disabled: e.disabled,
            createdAt: iso(e.createTime),
          });
        }
        if ((pageIndex + 1) * 100 >= totalCount) return;
      }
    }
    case "webhooks replay": {
      const endpointId = required(argument, "the endpoint id");
      const since = new Date(required(values.since, "--since"));
      if (Number.isNaN(since.getTime()))
        throw new UsageError("--since must be a date-time, such as 2030-01-31T17:00:00Z");
      const { replayedCount } = await services.webhooks.replayMessages({
        workspaceId: await workspaceOf(auth, values.workspace),
        endpointId,
        since: timestampFromDate(since),
        onlyFailed: values["only-failed"] ?? false,
      });
      print({
        endpointId,
        since: since.toISOString(),
        onlyFailed: values["only-failed"] ?? false,
        replayedCount,
      });
      return;
    }
    case "requests links": {
      const workspaceId = await workspaceOf(auth, values.workspace);
      const requestId = required(argument, "the request id");
      const { signatureRequest } = await services.requests.getSignatureRequest({ workspaceId, requestId });
      const { links } = await services.requests.listSigningLinks({ workspaceId, requestId });
      for (const link of links) {
        const recipient = signatureRequest?.recipients.find((r) => r.id === link.recipientId);
        print({ recipientId: link.recipientId, email: recipient?.email, url: link.url });
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
