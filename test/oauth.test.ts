/**
 * DocuSign's way in: the official `docusign-esign` client's JWT grant, unchanged, against our host.
 * An Organization Admin registers the program's public key in the console, a person consents on
 * the consent page, `requestJWTUserToken` gets a token, `getUserInfo` names the account and its
 * base URI, and the envelope flow runs with that token. The client reaches its OAuth host over
 * https only, so the deployment sits behind a TLS proxy, as it would behind an ingress.
 */
import { createSign, generateKeyPairSync, randomUUID } from "node:crypto";
import { globalAgent } from "node:https";
import { createRequire } from "node:module";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import fc from "fast-check";
import type { Page } from "playwright-core";
import { launchChromium, STICKING_OUT } from "./support/browser.js";
import {
  type Deployment,
  REPO,
  type StartOptions,
  startDistributed,
  startStandalone,
} from "./support/deployments.js";
import { ConsoleClient, call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { createTwoRoleTemplate } from "./support/templates.js";
import { startTlsProxy, type TlsProxy } from "./support/tls-proxy.js";

const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: the official client is untyped JavaScript.
type Json = any;
const docusign = require("docusign-esign") as {
  ApiClient: new (options?: { basePath?: string; oAuthBasePath?: string }) => DocuSignClient;
  EnvelopesApi: new (
    client: DocuSignClient,
  ) => {
    createEnvelope(accountId: string, options: { envelopeDefinition: Json }): Promise<Json>;
    getEnvelope(accountId: string, envelopeId: string): Promise<Json>;
  };
};
interface DocuSignClient {
  setOAuthBasePath(host: string): void;
  addDefaultHeader(name: string, value: string): void;
  requestJWTUserToken(
    clientId: string,
    userId: string,
    scopes: string[],
    privateKey: string | Buffer,
    expiresIn: number,
  ): Promise<{ body: Json }>;
  getUserInfo(accessToken: string): Promise<Json>;
}

const SCOPES = ["signature", "impersonation"];
const REDIRECT = "https://crm.example.com/docusign/callback";

const program = generateKeyPairSync("rsa", { modulusLength: 2048 });
const privatePem = program.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const publicPem = program.publicKey.export({ type: "spki", format: "pem" }).toString();

let proxy: TlsProxy;
let deployment: Deployment;
let gateway: string;
let admin: ConsoleClient;
let accountId: string;
let adminUserId: string;
let apiKey: string;

const infra = await distributedInfra();
const modes: [string, (options: StartOptions) => Promise<Deployment>][] = [
  ["standalone", (options) => startStandalone(undefined, options)],
];
if (infra) modes.push(["distributed", (options) => startDistributed(infra, options)]);
afterAll(() => infra?.close());

const developer = (path: string) => `/console/api/workspaces/${accountId}${path}`;

async function register(name: string, publicKey = publicPem, redirectUris = [REDIRECT]) {
  return admin.call(developer("/integrations"), {
    method: "POST",
    json: { name, publicKey, redirectUris },
  });
}

function oauthClient(): DocuSignClient {
  const client = new docusign.ApiClient();
  client.setOAuthBasePath(new URL(proxy.url).host);
  return client;
}

/** What the official client's grant answered, or the OAuth error it was refused with. */
async function grant(integrationKey: string, userId: string, key: string | Buffer = privatePem) {
  try {
    return {
      status: 200,
      body: (await oauthClient().requestJWTUserToken(integrationKey, userId, SCOPES, key, 600)).body,
    };
  } catch (err) {
    const { status, data } = (err as { response?: { status: number; data: Json } }).response ?? {};
    if (!status) throw err;
    return { status, body: data };
  }
}

async function consent(integrationKey: string, who = admin, scope = SCOPES.join(" ")) {
  return who.call("/console/api/oauth/consent", {
    method: "POST",
    json: { clientId: integrationKey, redirectUri: REDIRECT, scope, state: "from-crm-42" },
  });
}

/** A JWT signed by hand (RS256), for the grants the official client would never make. */
function assertion(claims: Record<string, unknown>, key = privatePem): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode({ alg: "RS256", typ: "JWT" })}.${encode(claims)}`;
  return `${unsigned}.${createSign("RSA-SHA256").update(unsigned).sign(key).toString("base64url")}`;
}

async function postGrant(body: Record<string, string>) {
  return call(gateway, "/oauth/token", {
    method: "POST",
    body: new URLSearchParams(body).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}

const ARTIFACTS = join(REPO, "test", "artifacts");
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
const MEMBER = { email: "colleague@example.com", password: "colleague-password-123" };

async function logIn(page: Page, who: { email: string; password: string }) {
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Log in" }).click();
}

describe.each(modes)("%s mode", (mode, start) => {
  beforeAll(async () => {
    proxy = await startTlsProxy();
    // The client's https requests go through Node's global agent: it trusts the proxy's CA too.
    globalAgent.options.ca = [...rootCertificates, proxy.caPem];
    deployment = await start({ env: { COUNTERSIGN_PUBLIC_URL: proxy.url } });
    gateway = deployment.gateways[0] as string;
    proxy.forwardTo(gateway);
    admin = new ConsoleClient(gateway);
    const session = (await admin.logIn(deployment.adminEmail, deployment.adminPassword)).body as Json;
    adminUserId = session.user.id;
    accountId = session.workspaces[0].id;
    apiKey = JSON.parse((await deployment.cli("keys", "create", "--name", "set-up")).stdout).secret;
  }, 180_000);

  afterAll(async () => {
    globalAgent.options.ca = undefined;
    await deployment?.destroy();
    await proxy?.close();
  });

  test("the official client's JWT grant: consent required until the person consents, then a token, the account's base URI, and envelopes sent with it", async () => {
    const registered = await register("Acme CRM");
    expect(registered.status).toBe(201);
    const integrationKey = (registered.body as Json).integrationKey as string;

    expect(await grant(integrationKey, adminUserId)).toEqual({
      status: 400,
      body: { error: "consent_required" },
    });

    // The consent URL DocuSign's documentation has programs open: it leads to the console's page.
    const query = new URLSearchParams({
      response_type: "code",
      scope: SCOPES.join(" "),
      client_id: integrationKey,
      redirect_uri: REDIRECT,
      state: "from-crm-42",
    });
    const opened = await call(gateway, `/oauth/auth?${query}`, { redirect: "manual" });
    expect([opened.status, opened.headers.get("location")]).toEqual([302, `/console/oauth/consent?${query}`]);
    const asked = await admin.call(
      `/console/api/oauth/consent?${new URLSearchParams({ client_id: integrationKey, redirect_uri: REDIRECT, scope: SCOPES.join(" ") })}`,
    );
    expect(asked.body).toMatchObject({
      integrationName: "Acme CRM",
      workspaceId: accountId,
      scopes: SCOPES,
      consentedScopes: [],
    });
    const given = await consent(integrationKey);
    expect([given.status, given.body]).toEqual([200, { redirect: `${REDIRECT}?state=from-crm-42` }]);

    const granted = await grant(integrationKey, adminUserId);
    expect(granted).toMatchObject({
      status: 200,
      body: { token_type: "Bearer", expires_in: 3600, scope: "signature impersonation" },
    });
    const token = granted.body.access_token as string;
    expect(token).toMatch(/^oat_[0-9A-Za-z]{43}$/);

    const user = await oauthClient().getUserInfo(token);
    expect(user).toMatchObject({ sub: adminUserId, email: deployment.adminEmail });
    expect(user.accounts).toHaveLength(1);
    expect(user.accounts[0]).toMatchObject({ accountId, isDefault: "true", baseUri: proxy.url });

    // As DocuSign's quick-start does: the account's base URI and "/restapi", with the token.
    const templateId = await createTwoRoleTemplate(`${gateway}/api/v1`, apiKey, "Supplier agreement");
    const client = new docusign.ApiClient({ basePath: `${user.accounts[0].baseUri}/restapi` });
    client.addDefaultHeader("Authorization", `Bearer ${token}`);
    const envelopes = new docusign.EnvelopesApi(client);
    const created = await envelopes.createEnvelope(accountId, {
      envelopeDefinition: {
        templateId,
        emailSubject: "Supplier agreement",
        status: "sent",
        templateRoles: [
          { roleName: "Client", name: "Ada Client", email: "ada@example.com" },
          { roleName: "Company", name: "Cy Company", email: "cy@example.com" },
        ],
      },
    });
    expect(created.status).toBe("sent");
    expect((await envelopes.getEnvelope(accountId, created.envelopeId)).status).toBe("sent");

    // The request's trail names the integration and the person it acted as.
    const trail = await call(gateway, `/api/v1/signature-requests/${created.envelopeId}/audit-trail`, {
      key: apiKey,
    });
    expect((trail.body as Json).items[0].actor).toMatchObject({
      type: "api_key",
      name: "Acme CRM",
      email: deployment.adminEmail,
    });

    // API Usage counts the calls under the integration's name; the native API does not take the token.
    expect((await call(gateway, "/api/v1/templates", { key: token })).status).toBe(401);
    const callers = await eventually(async () => {
      const usage = (await admin.call(developer("/api-usage"))).body as Json;
      const mine = usage.callers.find((c: Json) => c.kind === "integration");
      return mine?.calls >= 2 ? usage.callers : undefined;
    });
    expect(callers).toContainEqual(
      expect.objectContaining({ name: "Acme CRM", kind: "integration", errors: 0 }),
    );
    const listed = (await admin.call(developer("/integrations"))).body as Json;
    expect(listed.items[0]).toMatchObject({
      integrationKey,
      consents: [{ userId: adminUserId, email: deployment.adminEmail, scopes: SCOPES }],
    });
  }, 120_000);

  test("a refused grant names its reason as DocuSign does: wrong key, unknown issuer, expired, another audience, no such user, missing scope, other grant types", async () => {
    const integrationKey = ((await register("Refusals")).body as Json).integrationKey as string;
    expect((await consent(integrationKey)).status).toBe(200);
    const audience = new URL(proxy.url).host;
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: integrationKey,
      sub: adminUserId,
      aud: audience,
      iat: now,
      exp: now + 600,
      scope: "signature impersonation",
    };
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    });
    const refusals = {
      wrongKey: await grant(integrationKey, adminUserId, other),
      unknownIssuer: await grant(randomUUID(), adminUserId),
      notMember: await grant(integrationKey, randomUUID()),
      expired: await postGrant({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: assertion({ ...claims, iat: now - 7200, exp: now - 3600 }),
      }),
      otherAudience: await postGrant({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: assertion({ ...claims, aud: "account-d.docusign.com" }),
      }),
      noImpersonation: await postGrant({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: assertion({ ...claims, scope: "signature" }),
      }),
      notAJwt: await postGrant({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: "abc",
      }),
      codeGrant: await postGrant({ grant_type: "authorization_code", code: "abc" }),
    };
    const outcome = Object.fromEntries(
      Object.entries(refusals).map(([name, r]) => [
        name,
        [r.status, (r.body as Json).error, (r.body as Json).error_description],
      ]),
    );
    expect(outcome).toEqual({
      wrongKey: [400, "invalid_grant", "no_valid_keys_or_signatures"],
      unknownIssuer: [400, "invalid_grant", "issuer_not_found"],
      notMember: [400, "invalid_grant", "user_not_found"],
      expired: [400, "invalid_grant", "expired_grant"],
      otherAudience: [400, "invalid_grant", expect.stringContaining("aud")],
      noImpersonation: [400, "invalid_scope", 'the JWT grant needs the scope "signature impersonation"'],
      notAJwt: [400, "invalid_grant", "the assertion is not a JWT"],
      codeGrant: [400, "unsupported_grant_type", expect.stringContaining("JWT grant only")],
    });
  }, 60_000);

  test("tokens end with the consent and with the integration: withdrawn or deleted, the next call is 401 and a new grant is refused", async () => {
    const integrationKey = ((await register("Short-lived")).body as Json).integrationKey as string;
    expect((await consent(integrationKey)).status).toBe(200);
    const envelopesPath = `/restapi/v2.1/accounts/${accountId}/envelopes?from_date=2020-01-01`;
    const token = async () => (await grant(integrationKey, adminUserId)).body.access_token as string;

    // Every replica has verified the token; the ones the console did not call hear auth's event.
    const refusedEverywhere = (secret: string) =>
      Promise.all(
        deployment.gateways.map((replica) =>
          eventually(async () =>
            (await call(replica, envelopesPath, { key: secret })).status === 401 ? true : undefined,
          ),
        ),
      );
    const first = await token();
    for (const replica of deployment.gateways)
      expect((await call(replica, envelopesPath, { key: first })).status).toBe(200);
    const withdrawn = await admin.call(developer(`/integrations/${integrationKey}/consents/${adminUserId}`), {
      method: "DELETE",
    });
    expect(withdrawn.status).toBe(204);
    expect((await call(gateway, envelopesPath, { key: first })).status).toBe(401);
    await refusedEverywhere(first);
    expect((await grant(integrationKey, adminUserId)).body).toEqual({ error: "consent_required" });

    expect((await consent(integrationKey)).status).toBe(200);
    const second = await token();
    for (const replica of deployment.gateways)
      expect((await call(replica, envelopesPath, { key: second })).status).toBe(200);
    expect(
      (await admin.call(developer(`/integrations/${integrationKey}`), { method: "DELETE" })).status,
    ).toBe(204);
    expect((await call(gateway, envelopesPath, { key: second })).status).toBe(401);
    await refusedEverywhere(second);
    expect((await grant(integrationKey, adminUserId)).body).toMatchObject({
      error_description: "issuer_not_found",
    });
  }, 60_000);

  // What the deployment's shape does not change: checked once, where a browser is at hand.
  if (mode !== "standalone") return;

  test("registration refuses what cannot work, naming the field: a private key, a short key, not a key, a redirect URI that is not a URL", async () => {
    const small = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({
      type: "spki",
      format: "pem",
    });
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({
      type: "spki",
      format: "pem",
    });
    const refused = {
      privateKey: await register("Leaky", privatePem),
      shortKey: await register("Short", small.toString()),
      ecKey: await register("Elliptic", ec.toString()),
      notAKey: await register("Garbage", "hello"),
      badRedirect: await register("Lost", publicPem, ["crm.example.com/callback"]),
    };
    const outcome = Object.fromEntries(
      Object.entries(refused).map(([name, r]) => [name, [r.status, (r.body as Json).errors?.[0]]]),
    );
    expect(outcome).toEqual({
      privateKey: [422, { path: "publicKey", message: expect.stringContaining("is a private key") }],
      shortKey: [422, { path: "publicKey", message: "must be at least 2048 bits; this one has 1024" }],
      ecKey: [422, { path: "publicKey", message: expect.stringContaining("must be an RSA key") }],
      notAKey: [422, { path: "publicKey", message: expect.stringContaining("must be an RSA public key") }],
      badRedirect: [422, { path: "redirectUris.0", message: "must be an absolute http or https URL" }],
    });
    // The consent page never sends a browser where the integration did not register.
    const integrationKey = ((await register("Careful")).body as Json).integrationKey as string;
    const elsewhere = await admin.call("/console/api/oauth/consent", {
      method: "POST",
      json: {
        clientId: integrationKey,
        redirectUri: "https://evil.example.net/",
        scope: "signature impersonation",
      },
    });
    expect(elsewhere.status).toBe(404);
  }, 60_000);

  test("no assertion, however malformed, makes the token endpoint fail: every answer is an OAuth error or a token", async () => {
    const integrationKey = ((await register("Fuzzed")).body as Json).integrationKey as string;
    const segment = fc.oneof(
      fc.string(),
      fc.base64String(),
      fc.json().map((text) => Buffer.from(text).toString("base64url")),
      fc
        .record({
          alg: fc.constantFrom("RS256", "none", "HS256", "ES256", ""),
          iss: fc.constantFrom(integrationKey, "", "not-a-uuid"),
          sub: fc.constantFrom(adminUserId, "", 42),
          exp: fc.oneof(fc.integer(), fc.constant("soon")),
          scope: fc.oneof(fc.string(), fc.constant("signature impersonation")),
        })
        .map((claims) => Buffer.from(JSON.stringify(claims)).toString("base64url")),
    );
    const bodies = fc.oneof(
      fc.tuple(segment, segment, segment).map(([a, b, c]) => ({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: `${a}.${b}.${c}`,
      })),
      fc.dictionary(fc.string({ maxLength: 20 }), fc.string({ maxLength: 200 })),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        // The endpoint's own limit (5 a second per address) would answer most of these 429 unread.
        let answer = await postGrant(body);
        while (answer.status === 429) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          answer = await postGrant(body);
        }
        expect(answer.status).toBeLessThan(500);
        expect(answer.status === 200 || typeof (answer.body as Json).error === "string").toBe(true);
      }),
      { numRuns: 120 },
    );
  }, 90_000);

  test("in Chromium, through https: an admin registers an integration in Settings → Developer, a member consents on their phone and is sent back, the admin sees the consent", async () => {
    await deployment.cli(
      "members",
      "add",
      "--workspace",
      accountId,
      "--email",
      MEMBER.email,
      "--role",
      "member",
      "--password",
      MEMBER.password,
    );
    const browser = await launchChromium();
    try {
      const desk = await (await browser.newContext({ viewport: DESKTOP, ignoreHTTPSErrors: true })).newPage();
      await desk.goto(`${proxy.url}/console/w/${accountId}/developer/integrations`);
      await logIn(desk, { email: deployment.adminEmail, password: deployment.adminPassword });
      await desk.getByRole("heading", { name: "Integrations" }).waitFor();
      await desk.getByRole("button", { name: "Register integration" }).click();
      const dialog = desk.getByTestId("register-integration-dialog");
      await dialog.getByLabel("Name").fill("Helpdesk");
      await dialog.getByLabel("RSA public key (PEM)").fill(privatePem);
      await dialog.getByLabel("Redirect URIs, one per line").fill(REDIRECT);
      await dialog.getByRole("button", { name: "Register" }).click();
      await dialog.getByText("is a private key: paste the public key").waitFor();
      await desk.screenshot({ path: join(ARTIFACTS, "console-integration-refused.png") });
      await dialog.getByLabel("RSA public key (PEM)").fill(publicPem);
      await dialog.getByRole("button", { name: "Register" }).click();
      await dialog.waitFor({ state: "detached" });
      const row = desk.getByTestId("integrations").locator("li.row", { hasText: "Helpdesk" });
      await row.waitFor();
      const link = (await row.locator("code", { hasText: "/oauth/auth?" }).textContent()) as string;
      expect(link).toContain(
        `${proxy.url}/oauth/auth?response_type=code&scope=signature+impersonation&client_id=`,
      );
      await desk.screenshot({ path: join(ARTIFACTS, "console-integrations.png"), fullPage: true });

      // The member opens the consent link on a phone, logs in, and allows.
      const phone = await (await browser.newContext({ viewport: PHONE, ignoreHTTPSErrors: true })).newPage();
      await phone.route(`${REDIRECT}**`, (route) =>
        route.fulfill({ contentType: "text/html", body: "<title>CRM</title><h1>Back in the CRM</h1>" }),
      );
      await phone.goto(link);
      await logIn(phone, MEMBER);
      await phone.getByRole("heading", { name: "Allow “Helpdesk” to act as you?" }).waitFor();
      expect(await phone.evaluate(STICKING_OUT)).toEqual([]);
      await phone.screenshot({ path: join(ARTIFACTS, "console-phone-consent.png"), fullPage: true });
      await phone.getByRole("button", { name: "Allow" }).click();
      await phone.getByRole("heading", { name: "Back in the CRM" }).waitFor();
      expect(phone.url()).toBe(REDIRECT);

      // A link with a return address the integration did not register goes nowhere.
      const forged = new URL(link);
      forged.searchParams.set("redirect_uri", "https://evil.example.net/");
      await phone.goto(forged.href);
      await phone.getByRole("heading", { name: "This consent link does not work" }).waitFor();
      expect(await phone.evaluate(STICKING_OUT)).toEqual([]);
      await phone.screenshot({ path: join(ARTIFACTS, "console-phone-consent-refused.png"), fullPage: true });

      await desk.reload();
      await row.getByTestId("consents").getByText(MEMBER.email).waitFor();
      await row.getByRole("button", { name: `Withdraw the consent of ${MEMBER.email}` }).waitFor();
      await desk.screenshot({ path: join(ARTIFACTS, "console-integrations-consented.png") });
      // On a phone the tab's keys, links and consents wrap inside the screen.
      await desk.setViewportSize(PHONE);
      expect(await desk.evaluate(STICKING_OUT)).toEqual([]);
      await desk.screenshot({ path: join(ARTIFACTS, "console-phone-integrations.png"), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 120_000);
});
