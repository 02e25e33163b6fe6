/**
 * Integrations and their tokens in auth: a token lives only as long as its consent, its person's
 * membership and its hour; the consent page is only for the integration's workspace and redirect
 * URIs; API Usage counts each key's and integration's calls under its name.
 */
import { createSign, generateKeyPairSync } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { Role } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { ApiUsageTotalSchema } from "@countersign/gen/countersign/events/v1/gateway_events_pb.js";
import { createLogger, uuidv7 } from "@countersign/kit";
import { ApiCallRecords } from "../src/api-calls.js";
import { PUBLIC_URL, type StartedAuth, startAuth } from "./harness.js";

const AUDIENCE = new URL(PUBLIC_URL).host;
const REDIRECT = "https://crm.example.com/callback";
const program = generateKeyPairSync("rsa", { modulusLength: 2048 });
const publicKeyPem = program.publicKey.export({ type: "spki", format: "pem" }).toString();

let auth: StartedAuth;
let workspaceId: string;
let userId: string;
let integrationId: string;

beforeEach(async () => {
  auth = await startAuth();
  workspaceId = (await auth.client.createWorkspace({ name: "Acme" })).workspace?.id as string;
  userId = (
    await auth.client.addMember({
      workspaceId,
      email: "ada@example.com",
      role: Role.MEMBER,
      password: "a-long-enough-password",
    })
  ).member?.userId as string;
  integrationId = (
    await auth.client.createIntegration({
      workspaceId,
      name: "Acme CRM",
      publicKeyPem,
      redirectUris: [REDIRECT],
    })
  ).integration?.id as string;
});
afterEach(() => auth.close());

function assertion(subject = userId, times: { iat?: number; exp?: number } = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = {
    iss: integrationId,
    sub: subject,
    aud: AUDIENCE,
    iat: now,
    exp: now + 600,
    scope: "signature impersonation",
    ...times,
  };
  const unsigned = `${encode({ alg: "RS256", typ: "JWT" })}.${encode(claims)}`;
  return `${unsigned}.${createSign("RSA-SHA256").update(unsigned).sign(program.privateKey).toString("base64url")}`;
}

async function consentAndToken(): Promise<string> {
  await auth.client.grantConsent({
    integrationId,
    redirectUri: REDIRECT,
    userId,
    scopes: ["signature", "impersonation"],
  });
  const answer = await auth.client.exchangeJwtAssertion({ assertion: assertion(), audience: AUDIENCE });
  expect(answer.error).toBe("");
  return answer.accessToken;
}

async function refusal(work: Promise<unknown>): Promise<Code | undefined> {
  return work.then(
    () => undefined,
    (err: unknown) => ConnectError.from(err).code,
  );
}

test("a token acts as its person in the integration's workspace until the person leaves it", async () => {
  const token = await consentAndToken();
  expect(await auth.client.verifyApiKey({ secret: token })).toMatchObject({
    key: { id: integrationId, name: "Acme CRM", workspaceId },
    workspaceName: "Acme",
    apiAccessEnabled: true,
    accessToken: { userId, email: "ada@example.com", scopes: ["signature", "impersonation"] },
  });
  expect(await auth.client.getUserInfo({ accessToken: token })).toMatchObject({
    userId,
    email: "ada@example.com",
    workspaceId,
    workspaceName: "Acme",
  });
  // Someone else must stay to run the workspace before the member can go.
  await auth.client.addMember({
    workspaceId,
    email: "boss@example.com",
    role: Role.ORG_ADMIN,
    password: "another-long-password",
  });
  await auth.client.removeMember({ workspaceId, userId });
  expect(await refusal(auth.client.verifyApiKey({ secret: token }))).toBe(Code.Unauthenticated);
  expect(
    await auth.client.exchangeJwtAssertion({ assertion: assertion(), audience: AUDIENCE }),
  ).toMatchObject({
    error: "invalid_grant",
    errorDescription: "user_not_found",
  });
});

test("a token ends after its hour; expired tokens are cleared when the next one is issued", async () => {
  const token = await consentAndToken();
  await auth.db.query("UPDATE access_tokens SET expires_at = now() - interval '1 second'");
  expect(await refusal(auth.client.verifyApiKey({ secret: token }))).toBe(Code.Unauthenticated);
  expect(await refusal(auth.client.getUserInfo({ accessToken: token }))).toBe(Code.Unauthenticated);
  await auth.client.exchangeJwtAssertion({ assertion: assertion(), audience: AUDIENCE });
  const { rows } = await auth.db.query<{ live: boolean }>(
    "SELECT expires_at > now() AS live FROM access_tokens",
  );
  expect(rows).toEqual([{ live: true }]);
});

test("an assertion is made now and lives at most an hour, as DocuSign requires: a far exp, a future iat or a missing time is refused", async () => {
  await consentAndToken();
  const now = Math.floor(Date.now() / 1000);
  const HOUR = 3600;
  const answers = Object.fromEntries(
    await Promise.all(
      Object.entries({
        year2100: { exp: Date.UTC(2100, 0, 1) / 1000 },
        overAnHour: { iat: now, exp: now + HOUR + 1 },
        iatInFuture: { iat: now + 600, exp: now + 900 },
        bothInFuture: { iat: now + 2 * HOUR, exp: now + 2 * HOUR + 60 },
        noIat: { iat: undefined },
        noExp: { exp: undefined },
        withinSkew: { iat: now + 30, exp: now + HOUR + 30 },
        fullHour: { iat: now - 60, exp: now + HOUR - 60 },
      }).map(async ([name, times]) => {
        const answer = await auth.client.exchangeJwtAssertion({
          assertion: assertion(userId, times),
          audience: AUDIENCE,
        });
        return [name, [answer.error, answer.errorDescription]];
      }),
    ),
  );
  expect(answers).toEqual({
    year2100: ["invalid_grant", expect.stringContaining("longer than an hour")],
    overAnHour: ["invalid_grant", expect.stringContaining("longer than an hour")],
    iatInFuture: ["invalid_grant", "the assertion's iat is in the future"],
    bothInFuture: ["invalid_grant", "the assertion's iat is in the future"],
    noIat: ["invalid_grant", expect.stringContaining("iat")],
    noExp: ["invalid_grant", expect.stringContaining("exp")],
    withinSkew: ["", ""],
    fullHour: ["", ""],
  });
});

test("the consent page is for the integration's own redirect URIs and the members of its workspace", async () => {
  const outsider = (await auth.client.createWorkspace({ name: "Other" })).workspace?.id as string;
  const stranger = (
    await auth.client.addMember({
      workspaceId: outsider,
      email: "eve@example.com",
      role: Role.ORG_ADMIN,
      password: "eve-long-password",
    })
  ).member?.userId as string;
  expect({
    elsewhere: await refusal(
      auth.client.describeConsent({ integrationId, redirectUri: "https://evil.example/", userId }),
    ),
    stranger: await refusal(
      auth.client.describeConsent({ integrationId, redirectUri: REDIRECT, userId: stranger }),
    ),
    strangerGrants: await refusal(
      auth.client.grantConsent({
        integrationId,
        redirectUri: REDIRECT,
        userId: stranger,
        scopes: ["signature"],
      }),
    ),
    unknown: await refusal(
      auth.client.describeConsent({ integrationId: uuidv7(), redirectUri: REDIRECT, userId }),
    ),
    unknownScope: await refusal(
      auth.client.grantConsent({
        integrationId,
        redirectUri: REDIRECT,
        userId,
        scopes: ["signature", "extended"],
      }),
    ),
  }).toEqual({
    elsewhere: Code.NotFound,
    stranger: Code.PermissionDenied,
    strangerGrants: Code.PermissionDenied,
    unknown: Code.NotFound,
    unknownScope: Code.InvalidArgument,
  });
  expect(await auth.client.describeConsent({ integrationId, redirectUri: REDIRECT, userId })).toMatchObject({
    integrationName: "Acme CRM",
    consentedScopes: [],
  });
});

test("API Usage counts each caller's calls under the key's or integration's name, a deleted one without", async () => {
  const { key } = await auth.client.createApiKey({ workspaceId, name: "Back office" });
  const gone = uuidv7();
  const records = new ApiCallRecords(auth.db, createLogger({ name: "test", level: "silent" }), {
    flushIntervalMs: 5,
  });
  const day = new Date().toISOString().slice(0, 10);
  const total = (keyId: string, calls: bigint) =>
    create(ApiUsageTotalSchema, {
      workspaceId,
      keyId,
      day,
      method: "GET",
      route: "/v1/ping",
      latency: [{ bucket: 1, calls }],
    });
  await records.record({
    calls: [],
    usage: [total(key?.id as string, 3n), total(integrationId, 5n), total(gone, 1n)],
  });
  await records.stop();
  const { callers } = await auth.client.getApiUsage({ workspaceId });
  expect(callers.map((c) => [c.name, c.kind, Number(c.callCount)])).toEqual([
    ["Acme CRM", "integration", 5],
    ["Back office", "api_key", 3],
    ["", "", 1],
  ]);
});
