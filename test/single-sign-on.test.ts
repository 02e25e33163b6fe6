/**
 * Single sign-on for the console, end to end in both modes against a real OpenID provider
 * (oidc-provider in its own process): through the gateway the state is bound to the browser by a
 * cookie and a log-in lands in the workspace with a session cookie; in Chromium an Organization Admin
 * sets it up in Settings → Single sign-on, logs in through the provider from the log-in page, and
 * switches password log-in off from that session; a newcomer of an allowed domain joins on their
 * first log-in; a stranger is sent back to the log-in page with the reason in words; the operator's
 * CLI switches password log-in back on. The JSON routes answer as the OpenAPI document says.
 */
import { generateKeyPairSync } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import {
  authorizeAtProvider,
  FetchBrowser,
  locationOf,
  startProvider,
  type TestProvider,
} from "../services/auth/test/identity-provider.js";
import { launchChromium, STICKING_OUT, seriousViolations } from "./support/browser.js";
import { type Deployment, REPO, startDistributed, startStandalone } from "./support/deployments.js";
import { ConsoleClient } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { expectDocumented } from "./support/openapi.js";
import { watched } from "./support/stall-watch.js";

const ARTIFACTS = join(REPO, "test", "artifacts");
const CLIENT_ID = "countersign-console";
const CLIENT_SECRET = "the-client-secret-the-provider-issued";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 860 };

const infra = await distributedInfra();
// The test provider listens on loopback, which an operator allows as it would a provider in the cluster.
const reachProvider = { env: { COUNTERSIGN_IDENTITY_PROVIDER_ALLOW_NETWORKS: "127.0.0.0/8, ::1/128" } };
const modes: [string, () => Promise<Deployment>][] = [
  ["standalone", () => startStandalone(undefined, reachProvider)],
];
if (infra) modes.push(["distributed", () => startDistributed(infra, reachProvider)]);
afterAll(() => infra?.close());

let deployment: Deployment;
/** The deployment's public URL (localhost), which the redirect URI and the cookies belong to. */
let gateway: string;
let provider: TestProvider;
let browser: Browser;
let workspaceId: string;

describe.each(modes)("%s", (mode, start) => {
  beforeAll(async () => {
    deployment = await start();
    const admin = new ConsoleClient(deployment.gateways[0] as string);
    const session = (await admin.logIn(deployment.adminEmail, deployment.adminPassword)).body as {
      workspaces: { id: string }[];
    };
    workspaceId = session.workspaces[0]?.id as string;
    const { redirectUri } = (await admin.call(`/console/api/workspaces/${workspaceId}/single-sign-on`))
      .body as { redirectUri: string };
    gateway = new URL(redirectUri).origin;
    provider = await startProvider({
      clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri] }],
    });
  });
  afterAll(async () => {
    await provider?.close();
    await deployment?.destroy();
  });

  /** A new browser context; `bypassCSP` lets axe-core's script in, which the console's CSP refuses. */
  async function newPage(viewport = DESKTOP, bypassCSP = false): Promise<Page> {
    const context = await browser.newContext({ viewport, bypassCSP });
    return context.newPage();
  }

  /** From the console's log-in page through the provider's, as a person clicks it. */
  async function logInThroughProvider(page: Page, email: string): Promise<void> {
    await page.goto(`${gateway}/console/`);
    await page.getByRole("button", { name: "Use single sign-on" }).click();
    await page.getByLabel("Work e-mail").fill(email);
    await page.getByRole("button", { name: "Find my workspace" }).click();
    await page.getByRole("link", { name: "Continue to Default workspace" }).click();
    await atProvider(page, email);
  }

  /** At the provider's page: the person signs in there and is sent back. */
  async function atProvider(page: Page, email: string): Promise<void> {
    await page.getByRole("heading", { name: "Test identity provider" }).waitFor();
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Sign in" }).click();
  }

  test("the JSON routes: settings read and saved as documented, the secret never answered, search by domain", async () => {
    const admin = new ConsoleClient(gateway);
    await admin.logIn(deployment.adminEmail, deployment.adminPassword);
    const path = `/console/api/workspaces/${workspaceId}/single-sign-on`;
    const before = await admin.call(path);
    expectDocumented("get", "/console/api/workspaces/{workspaceId}/single-sign-on", 200, before.body);
    expect(before.body).toMatchObject({
      enabled: false,
      passwordLoginEnabled: true,
      redirectUri: `${gateway}/console/sso/callback/${workspaceId}`,
      startUrl: `${gateway}/console/sso/start?workspace=${workspaceId}`,
    });
    const wrong = await admin.call(path, {
      method: "PUT",
      json: {
        enabled: true,
        issuer: "http://idp.example.com",
        clientId: "x",
        clientSecret: "y",
        allowedDomains: ["not a domain"],
        passwordLoginEnabled: true,
      },
    });
    expectDocumented("put", "/console/api/workspaces/{workspaceId}/single-sign-on", 422, wrong.body);
    expect((wrong.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
      "issuer",
      "allowedDomains[0]",
    ]);
    const silent = await admin.call(path, {
      method: "PUT",
      json: {
        enabled: true,
        issuer: "http://127.0.0.1:9",
        clientId: "x",
        clientSecret: "y",
        allowedDomains: [],
        passwordLoginEnabled: true,
      },
    });
    expectDocumented("put", "/console/api/workspaces/{workspaceId}/single-sign-on", 409, silent.body);
    expect((silent.body as { detail: string }).detail).toContain(
      "http://127.0.0.1:9/.well-known/openid-configuration",
    );

    const search = await admin.call("/console/api/single-sign-on/search", {
      method: "POST",
      json: { email: "ann@example.com" },
    });
    expectDocumented("post", "/console/api/single-sign-on/search", 200, search.body);
    expect(search.body).toEqual({ items: [] });
    const start = await fetch(`${gateway}/console/sso/start?workspace=${workspaceId}`, {
      redirect: "manual",
    });
    expect(start.status).toBe(303);
    expect(start.headers.get("location")).toBe(`${gateway}/console/?sso_error=unavailable`);
  });

  test("a provider whose discovery document is 100 MB is refused after 64 KiB, and the service keeps answering", async () => {
    // What an Organization Admin's provider answered in the pen test: auth read it whole and died.
    let sent = 0;
    const hostile = createServer((_req, res: ServerResponse) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let left = 100 * 1024 * 1024;
      res.write("{");
      const pump = () => {
        while (left > 0 && !res.destroyed) {
          left -= chunk.length;
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end("}");
      };
      pump();
    });
    await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
    const issuer = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
    try {
      const admin = new ConsoleClient(gateway);
      await admin.logIn(deployment.adminEmail, deployment.adminPassword);
      const {
        result: saved,
        longestMs,
        failures,
      } = await watched(`${gateway}/healthz`, () =>
        admin.call(`/console/api/workspaces/${workspaceId}/single-sign-on`, {
          method: "PUT",
          json: {
            enabled: true,
            issuer,
            clientId: "x",
            clientSecret: "y",
            allowedDomains: [],
            passwordLoginEnabled: true,
          },
        }),
      );
      expect(saved.status).toBe(409);
      expect((saved.body as { detail: string }).detail).toContain("answered more than 65536 bytes");
      expect({ failures, stalled: longestMs > 1000 }).toEqual({ failures: 0, stalled: false });
      // The cap and what the sockets buffered crossed, not the 100 MB.
      expect(sent).toBeLessThan(16 * 1024 * 1024);
    } finally {
      hostile.closeAllConnections();
      await new Promise((resolve) => hostile.close(resolve));
    }
  });

  test("through the gateway: the state rides a cookie of its own, the log-in lands in the workspace with a session for it, a callback without the cookie is refused", async () => {
    const admin = new ConsoleClient(gateway);
    await admin.logIn(deployment.adminEmail, deployment.adminPassword);
    const saved = await admin.call(`/console/api/workspaces/${workspaceId}/single-sign-on`, {
      method: "PUT",
      json: {
        enabled: true,
        issuer: provider.issuer,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        allowedDomains: ["example.com"],
        passwordLoginEnabled: true,
      },
    });
    expectDocumented("put", "/console/api/workspaces/{workspaceId}/single-sign-on", 200, saved.body);
    expect(JSON.stringify(saved.body)).not.toContain(CLIENT_SECRET);
    const search = await admin.call("/console/api/single-sign-on/search", {
      method: "POST",
      json: { email: "ann@example.com" },
    });
    const [found] = (search.body as { items: { startUrl: string }[] }).items;

    const person = new FetchBrowser();
    // Another site may link to a workspace's log-in, but not start one: it is confirmed on our page.
    const fromElsewhere = await fetch(found?.startUrl as string, {
      redirect: "manual",
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(locationOf(fromElsewhere, gateway)).toBe(`${gateway}/console/?sso_workspace=${workspaceId}`);
    expect(fromElsewhere.headers.getSetCookie()).toEqual([]);

    const started = await person.go(found?.startUrl as string);
    expect(started.status).toBe(303);
    const stateCookie = started.headers.getSetCookie().find((c) => c.startsWith("cs_sso_state="));
    expect(stateCookie).toMatch(/; Max-Age=600; Path=\/console\/sso; HttpOnly; SameSite=Lax$/);
    const callback = await authorizeAtProvider(person, locationOf(started, gateway), "ann@example.com");
    expect(callback.startsWith(`${gateway}/console/sso/callback/${workspaceId}?code=`)).toBe(true);

    // Another browser (a forged link to someone's callback) has no state cookie: refused.
    const elsewhere = await new FetchBrowser().go(callback);
    expect(locationOf(elsewhere, gateway)).toBe(`${gateway}/console/?sso_error=expired`);

    const landed = await person.go(callback);
    expect(locationOf(landed, gateway)).toBe(`${gateway}/console/w/${workspaceId}/requests`);
    expect(person.cookie(gateway, "cs_sso_state")).toBeUndefined();
    const session = await person.go(`${gateway}/console/api/session`);
    expect(session.status).toBe(200);
    const body = (await session.json()) as { user: { email: string }; singleSignOnWorkspaceId: string };
    expectDocumented("get", "/console/api/session", 200, body);
    expect(body).toMatchObject({ user: { email: "ann@example.com" }, singleSignOnWorkspaceId: workspaceId });
    // The same callback again opens nothing: the log-in was used.
    expect(locationOf(await person.go(callback), gateway)).toBe(`${gateway}/console/?sso_error=expired`);
  });

  test("a session single sign-on opened cannot consent for the person in another workspace of theirs", async () => {
    // Ann is also a member of a second workspace, whose admin registered an integration there.
    const second = JSON.parse((await deployment.cli("workspaces", "create", "--name", "Second")).stdout) as {
      id: string;
    };
    for (const [email, role] of [
      ["ann@example.com", "member"],
      [deployment.adminEmail, "org_admin"],
    ] as const) {
      const added = await deployment.cli(
        "members",
        "add",
        "--email",
        email,
        "--role",
        role,
        "--workspace",
        second.id,
      );
      expect(added.code).toBe(0);
    }
    const admin = new ConsoleClient(gateway);
    await admin.logIn(deployment.adminEmail, deployment.adminPassword);
    const publicKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({
      type: "spki",
      format: "pem",
    });
    const redirect = "https://app.example.com/callback";
    const registered = await admin.call(`/console/api/workspaces/${second.id}/integrations`, {
      method: "POST",
      json: { name: "Second's CRM", publicKey, redirectUris: [redirect] },
    });
    expect(registered.status).toBe(201);
    const { integrationKey } = registered.body as { integrationKey: string };

    const person = new FetchBrowser();
    const started = await person.go(`${gateway}/console/sso/start?workspace=${workspaceId}`);
    const landed = await person.go(
      await authorizeAtProvider(person, locationOf(started, gateway), "ann@example.com"),
    );
    expect(locationOf(landed, gateway)).toBe(`${gateway}/console/w/${workspaceId}/requests`);
    const query = new URLSearchParams({
      client_id: integrationKey,
      redirect_uri: redirect,
      scope: "signature",
    });
    const asked = await person.go(`${gateway}/console/api/oauth/consent?${query}`);
    expect(asked.status).toBe(403);
    expect(((await asked.json()) as { detail: string }).detail).toBe(
      "this session does not cover the integration's workspace: log in to that workspace, then consent",
    );
  });

  if (mode !== "standalone") return;

  describe("in Chromium", () => {
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(() => browser?.close());

    test("an admin sets single sign-on up, logs in through it, switches password log-in off; newcomers join, strangers are told why", async () => {
      // Set up in Settings → Single sign-on, logged in with the password.
      const setup = await newPage(PHONE);
      await setup.goto(`${gateway}/console/`);
      await setup.getByLabel("E-mail").fill(deployment.adminEmail);
      await setup.getByLabel("Password", { exact: true }).fill(deployment.adminPassword);
      await setup.getByRole("button", { name: "Log in", exact: true }).click();
      await setup.getByRole("heading", { name: "Signature requests" }).waitFor();
      await setup.goto(`${gateway}/console/w/${workspaceId}/settings/single-sign-on`);
      const form = setup.getByTestId("single-sign-on");
      expect(await form.getByTestId("redirect-uri").textContent()).toBe(
        `${gateway}/console/sso/callback/${workspaceId}`,
      );
      await form.getByLabel("Members may log in through the identity provider").check();
      await form.getByLabel("Issuer URL").fill(provider.issuer);
      await form.getByLabel("Client ID").fill(CLIENT_ID);
      await form.getByLabel("Client secret").fill(CLIENT_SECRET);
      await form.getByLabel("E-mail domains allowed to join, one a line").fill("example.com\nexample.org");
      // Password log-in cannot be switched off from a password session: the page says how instead.
      expect(await form.getByRole("switch").isDisabled()).toBe(true);
      await form.getByRole("button", { name: "Save single sign-on" }).click();
      await form.getByText("Saved. The identity provider answered").waitFor();
      expect(await form.getByLabel("Client secret").inputValue()).toBe("");
      expect(await setup.evaluate(STICKING_OUT)).toEqual([]);
      await setup.screenshot({ path: join(ARTIFACTS, "console-sso-settings-phone.png"), fullPage: true });
      await setup.context().close();

      // The admin logs in through the provider and lands in the workspace.
      const admin = await newPage();
      await logInThroughProvider(admin, deployment.adminEmail);
      await admin.getByRole("heading", { name: "Signature requests" }).waitFor();
      expect(new URL(admin.url()).pathname).toBe(`/console/w/${workspaceId}/requests`);
      await admin.goto(`${gateway}/console/w/${workspaceId}/settings/single-sign-on`);
      const adminForm = admin.getByTestId("single-sign-on");
      await adminForm.getByRole("switch").uncheck();
      await adminForm.getByRole("button", { name: "Save single sign-on" }).click();
      await adminForm.getByText("Saved.").waitFor();
      await admin.screenshot({ path: join(ARTIFACTS, "console-sso-settings-desktop.png"), fullPage: true });

      // The log-in page by keyboard: the way to single sign-on is a button in the tab order.
      const keyboard = await newPage();
      await keyboard.goto(`${gateway}/console/`);
      await keyboard.getByLabel("E-mail").focus();
      for (let i = 0; i < 8; i++) {
        if ((await keyboard.evaluate("document.activeElement?.textContent")) === "Use single sign-on") break;
        await keyboard.keyboard.press("Tab");
      }
      await keyboard.keyboard.press("Enter");
      await keyboard.getByLabel("Work e-mail").waitFor();
      await keyboard.getByLabel("Work e-mail").focus();
      await keyboard.screenshot({ path: join(ARTIFACTS, "console-sso-login-desktop.png") });
      await keyboard.context().close();

      // Passwords no longer open this workspace: a member with no other is told what to do, and the
      // admin's password opens only their other workspace.
      const pat = await deployment.cli(
        "members",
        "add",
        "--email",
        "pat@example.com",
        "--role",
        "member",
        "--password",
        "pats-long-password",
        "--workspace",
        workspaceId,
      );
      expect(pat.code).toBe(0);
      const byPassword = await newPage(PHONE);
      await byPassword.goto(`${gateway}/console/`);
      await byPassword.getByLabel("E-mail").fill("pat@example.com");
      await byPassword.getByLabel("Password", { exact: true }).fill("pats-long-password");
      await byPassword.getByRole("button", { name: "Log in", exact: true }).click();
      await byPassword.getByText("lets its members log in through single sign-on only").waitFor();
      await byPassword.context().close();
      const adminByPassword = new ConsoleClient(gateway);
      const covered = (await adminByPassword.logIn(deployment.adminEmail, deployment.adminPassword)).body as {
        workspaces: { id: string }[];
      };
      expect(covered.workspaces.map((w) => w.id)).not.toContain(workspaceId);

      // A newcomer of an allowed domain joins as a Member on their first log-in.
      // A newcomer follows the workspace's log-in link from elsewhere (an e-mail, a chat): the log-in
      // page asks them to confirm, then they join as a Member on their first log-in.
      const newcomer = await newPage(PHONE);
      await newcomer.goto(`${gateway}/console/?sso_workspace=${workspaceId}`);
      await newcomer.getByTestId("sso-confirm").waitFor();
      expect(new URL(newcomer.url()).search).toBe("");
      await newcomer.screenshot({ path: join(ARTIFACTS, "console-sso-confirm-phone.png") });
      await newcomer.getByRole("link", { name: "Continue with single sign-on" }).click();
      await atProvider(newcomer, "grace@example.org");
      await newcomer.getByRole("heading", { name: "Signature requests" }).waitFor();
      expect(await newcomer.evaluate(STICKING_OUT)).toEqual([]);
      await newcomer.screenshot({ path: join(ARTIFACTS, "console-sso-newcomer-phone.png") });
      await newcomer.context().close();

      // A stranger's domain finds no workspace on the log-in page; through the workspace's link they
      // reach the provider, and are sent back with the reason; the admin sees it in the activity.
      const stranger = await newPage(PHONE, true);
      await stranger.goto(`${gateway}/console/`);
      await stranger.getByRole("button", { name: "Use single sign-on" }).click();
      await stranger.getByLabel("Work e-mail").fill("eve@elsewhere.net");
      await stranger.getByRole("button", { name: "Find my workspace" }).click();
      await stranger.getByText("No workspace logs in people of elsewhere.net").waitFor();
      await stranger.screenshot({ path: join(ARTIFACTS, "console-sso-no-workspace-phone.png") });
      await stranger.goto(`${gateway}/console/sso/start?workspace=${workspaceId}`);
      await atProvider(stranger, "eve@elsewhere.net");
      await stranger.getByTestId("sso-refusal").waitFor();
      expect(await stranger.getByTestId("sso-refusal").textContent()).toContain(
        "your e-mail's domain may not join it",
      );
      expect(new URL(stranger.url()).search).toBe("");
      expect(await stranger.evaluate(STICKING_OUT)).toEqual([]);
      expect(await seriousViolations(stranger)).toEqual([]);
      await stranger.screenshot({ path: join(ARTIFACTS, "console-sso-refused-phone.png") });
      await stranger.context().close();

      await admin.goto(`${gateway}/console/w/${workspaceId}/settings/workspace`);
      const activity = admin.getByTestId("audit");
      await activity.getByText("eve@elsewhere.net was refused log-in through").waitFor();
      expect(await activity.textContent()).toContain("grace@example.org joined the workspace");
      expect(await activity.textContent()).not.toContain(CLIENT_SECRET);
      await admin.context().close();

      // The operator switches password log-in back on.
      const cli = await deployment.cli("sso", "password-login", "on");
      expect(cli.code).toBe(0);
      expect(JSON.parse(cli.stdout)).toMatchObject({
        enabled: true,
        passwordLoginEnabled: true,
        clientSecretSet: true,
      });
      const again = new ConsoleClient(gateway);
      const reopened = (await again.logIn(deployment.adminEmail, deployment.adminPassword)).body as {
        workspaces: { id: string }[];
      };
      expect(reopened.workspaces.map((w) => w.id)).toContain(workspaceId);
    });
  });
});
