/**
 * The console in a real browser (Debian's Chromium through playwright-core), against a standalone
 * deployment: log-in and log-out, the workspace switcher, Settings → Developer (API keys with a
 * real key test, webhooks with test-fire and the delivery portal, Configuration, Recent Errors,
 * API Usage), Team (invitations by e-mail, roles, removal, API access, the activity), a forgotten
 * password reset by e-mail, role gating, and a request followed to its signed PDF. Screenshots at desktop and
 * phone width go to test/artifacts/console-*.png.
 */
import { createHmac } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { launchChromium, STICKING_OUT, seriousViolations } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { makeDocx } from "./support/office-documents.js";
import { outboxMails } from "./support/outbox-mail.js";
import { pdfText } from "./support/pdf-tools.js";
import { makePdf } from "./support/pdfs.js";
import { sealFile, testCa } from "./support/seal-files.js";
import { sealedPdfOf } from "./support/sealed-pdf.js";
import { SignerBrowser } from "./support/signer-browser.js";
import {
  createTestCa,
  startWebhookReceiver,
  verifyWebhook,
  type WebhookReceiver,
} from "./support/webhook-receiver.js";

const ARTIFACTS = join(REPO, "test", "artifacts");
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
/** A phone as a person holds it: touch, a mobile viewport, taps rather than clicks. */
const TOUCH = { isMobile: true, hasTouch: true };
const MEMBER = { email: "member@example.com", password: "member-password-123" };

const caFile = join(tmpdir(), `countersign-console-ca-${process.pid}.pem`);
await writeFile(caFile, createTestCa().caPem);

let browser: Browser;
let deployment: Deployment;
let gateway: string;
let key: { secret: string; accountId: string };
let otherWorkspace: { id: string; name: string };
let receiver: WebhookReceiver;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  [browser, deployment, receiver] = await Promise.all([
    launchChromium(),
    startStandalone(undefined, {
      env: { COUNTERSIGN_WEBHOOK_ALLOW_NETWORKS: "127.0.0.0/8", COUNTERSIGN_WEBHOOK_CA_FILE: caFile },
    }),
    startWebhookReceiver(),
  ]);
  gateway = deployment.gateways[0] as string;
  key = JSON.parse((await deployment.cli("keys", "create", "--name", "fixtures")).stdout);
  otherWorkspace = JSON.parse(
    (await deployment.cli("workspaces", "create", "--name", "Sandbox (no API)", "--api-access", "off"))
      .stdout,
  );
  await deployment.cli(
    "members",
    "add",
    "--workspace",
    otherWorkspace.id,
    "--email",
    deployment.adminEmail,
    "--role",
    "org_admin",
  );
  await deployment.cli(
    "members",
    "add",
    "--workspace",
    key.accountId,
    "--email",
    MEMBER.email,
    "--role",
    "member",
    "--password",
    MEMBER.password,
  );
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await deployment?.destroy();
});

/**
 * Log-ins are throttled per address, as for any user: each person logs in once and later contexts
 * start from that session, logging in again only when it has ended (the log-out test ends one).
 */
const sessions = new Map<string, Awaited<ReturnType<BrowserContext["storageState"]>>>();

async function openConsole(
  as: { email: string; password: string },
  viewport = DESKTOP,
  bypassCSP = false,
  touch = false,
): Promise<{ context: BrowserContext; page: Page }> {
  const stored = sessions.get(as.email);
  const context = await browser.newContext({
    viewport,
    bypassCSP,
    ...(touch ? TOUCH : {}),
    permissions: ["clipboard-read", "clipboard-write"],
    ...(stored ? { storageState: stored } : {}),
  });
  const page = await context.newPage();
  await page.goto(`${gateway}/`);
  const ready = page.getByRole("heading", { name: "Signature requests" });
  const logIn = page.getByRole("button", { name: "Log in" });
  await ready.or(logIn).first().waitFor();
  if (await logIn.isVisible()) {
    await page.getByLabel("E-mail").fill(as.email);
    await page.getByLabel("Password", { exact: true }).fill(as.password);
    await logIn.click();
    await ready.waitFor();
    sessions.set(as.email, await context.storageState());
  }
  return { context, page };
}

/** Waits until the element holds the text (all of it, when exact), as a user would wait for it. */
const shows = (locator: Locator, text: string, exact = false) =>
  locator
    .filter({ hasText: exact ? new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) : text })
    .first()
    .waitFor();
/** The Configuration the console shows, read as the page reads it. */
function configurationOf(page: Page) {
  return page.evaluate(
    `fetch("/console/api/workspaces/${key.accountId}/configuration").then((r) => r.json())`,
  ) as Promise<{
    accountId: string;
    baseUrls: Record<"accountScoped" | "resourceStyle" | "compatibility" | "tools", string>;
  }>;
}

/** Presses Refresh until the element holds the text: what it shows was recorded a moment later. */
async function untilShown(page: Page, locator: Locator, text: string) {
  await eventually(async () => {
    if ((await locator.filter({ hasText: text }).count()) > 0) return true;
    await page.getByRole("button", { name: "Refresh" }).click();
    return undefined;
  });
}

const admin = () => ({ email: deployment.adminEmail, password: deployment.adminPassword });
/** The whole page, or what the window shows (the template editor's side panel stays in view as it scrolls). */
const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: join(ARTIFACTS, `console-${name}.png`), fullPage });
const api = (path: string, init: Parameters<typeof call>[2] = {}) =>
  call(`${gateway}/api/v1`, path, { key: key.secret, ...init });

async function makeRequest(
  title: string,
  send: boolean,
  signer: { name: string; email: string } = { name: "Tess Tenant", email: "tess@example.com" },
) {
  const upload = await api("/documents/upload?filename=lease.pdf", {
    method: "POST",
    // The PDF's standard font writes Latin-1 only: a title in another script is left off the page.
    body: await makePdf(1, title.replace(/[^\u0020-\u00ff]/g, "")),
    headers: { "content-type": "application/pdf" },
  });
  const documentId = (upload.body as { id: string }).id;
  const created = await api("/signature-requests", {
    method: "POST",
    json: {
      title,
      documentIds: [documentId],
      fields: [{ type: "signature", role: "tenant", page: 1, x: 60, y: 600, width: 200, height: 50 }],
      recipients: [{ ...signer, role: "tenant" }],
      send,
    },
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; recipients: { id: string }[] };
}

test("log-in refuses a wrong password in words, then opens the workspace; log-out returns to log-in and the session is gone", async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto(`${gateway}/console/`);
  await page.getByLabel("E-mail").fill(deployment.adminEmail);
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  // What was typed can be checked before it is sent.
  await expect(page.getByLabel("Password", { exact: true }).getAttribute("type")).resolves.toBe("password");
  await page.getByLabel("Show password").check();
  await expect(page.getByLabel("Password", { exact: true }).getAttribute("type")).resolves.toBe("text");
  await page.getByLabel("Show password").uncheck();
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("alert").filter({ hasText: "do not match" }).waitFor();
  await shot(page, "login-refused");
  await page.getByLabel("Password", { exact: true }).fill(deployment.adminPassword);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Signature requests" }).waitFor();
  expect(page.url()).toContain(`/console/w/${key.accountId}/requests`);
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByRole("heading", { name: "Log in" }).waitFor();
  const session = await page.evaluate(async () => (await fetch("/console/api/session")).status);
  expect(session).toBe(401);
  await context.close();
});

test("an ended session sends the user back to log-in, saying why", async () => {
  const { context, page } = await openConsole(admin());
  await context.clearCookies();
  await page.getByRole("link", { name: /Templates/ }).click();
  await page.getByText("Your session ended").waitFor();
  await context.close();
});

test("API keys: create (secret shown once, copyable), test it against the public API, delete it with confirmation — the test then answers 401", async () => {
  const { context, page } = await openConsole(admin());
  await page.getByRole("link", { name: /Developer/ }).click();
  await page.getByRole("heading", { name: "API keys" }).waitFor();
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByText("Give the key a name.").waitFor();
  await page.getByLabel("Name").fill("Billing service");
  await page.getByLabel("Expires", { exact: true }).selectOption({ label: "In 90 days" });
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("new-key-secret").textContent()) ?? "";
  expect(secret).toMatch(/^sk_[0-9A-Za-z]{43}$/);
  await page.getByRole("button", { name: "Copy secret" }).click();
  await page.getByRole("button", { name: "Copied" }).waitFor();
  expect(await page.evaluate("navigator.clipboard.readText()")).toBe(secret);
  await shot(page, "key-created");
  await page.getByRole("button", { name: "I have stored it" }).click();
  await shows(page.getByTestId("api-keys"), "Billing service");
  expect(await page.getByTestId("api-keys").textContent()).not.toContain(secret);
  // Told apart by the secret's last four characters; never used yet; working for 90 days.
  const billing = page.getByTestId("api-keys").locator("li", { hasText: "Billing service" });
  await shows(billing, `sk_…${secret.slice(-4)}`);
  await shows(billing, "never used");
  await shows(billing, "expires");

  await page.getByLabel("Secret").fill(secret);
  await page.getByRole("button", { name: "Send test call" }).click();
  await page.getByTestId("key-test-outcome").waitFor();
  expect(await page.getByTestId("key-test-status").textContent()).toBe("200");
  expect(await page.getByTestId("key-test-ms").textContent()).toMatch(/^\d+ ms$/);
  const body = JSON.parse((await page.getByTestId("key-test-body").textContent()) ?? "");
  expect(body).toMatchObject({ pageIndex: 0, pageSize: 5 });
  const { baseUrls } = await configurationOf(page);
  const curl = (shown: string) =>
    `curl -sS "${baseUrls.accountScoped}/templates?pageIndex=0&pageSize=5" \\\n  -H "Authorization: Bearer ${shown}"`;
  expect(await page.getByTestId("key-test-curl").textContent()).toBe(curl(`${secret.slice(0, 7)}…`));
  await page.getByRole("button", { name: "Copy cURL" }).click();
  expect(await page.evaluate("navigator.clipboard.readText()")).toBe(curl(secret));
  await shot(page, "key-test");
  // Another secret: the old answer goes at once, and a malformed one stands alone with its error.
  await page.getByLabel("Secret").fill("sk_short");
  await expect(page.getByTestId("key-test-outcome").count()).resolves.toBe(0);
  await page.getByRole("button", { name: "Send test call" }).click();
  await page.getByText("A secret starts with sk_ followed by 43 letters and digits.").waitFor();
  await expect(page.getByTestId("key-test-outcome").count()).resolves.toBe(0);
  await page.getByLabel("Secret").fill(secret);

  // The test call was a use of the key: the list says when, once the gateway has reported it.
  await eventually(async () => {
    await page.reload();
    return (await billing.filter({ hasText: "last used" }).count()) > 0 || undefined;
  });

  // A secret not copied: closing asks first.
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.getByLabel("Name").fill("Scratch");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("button", { name: "I have stored it" }).click();
  await page.getByRole("heading", { name: "Close without copying the secret?" }).waitFor();
  await shot(page, "key-close-uncopied");
  await page.getByRole("button", { name: "Close anyway" }).click();
  await page.getByTestId("created-key-dialog").waitFor({ state: "hidden" });
  await shows(page.getByTestId("api-keys"), "Scratch");

  await page.getByLabel("Secret").fill(secret);
  await page.getByRole("button", { name: "Delete the key Billing service" }).click();
  await page.getByRole("button", { name: "Delete key" }).click();
  await page.getByTestId("confirm-dialog").waitFor({ state: "hidden" });
  await eventually(async () => {
    await page.getByRole("button", { name: "Send test call" }).click();
    await page.getByTestId("key-test-outcome").waitFor();
    return (await page.getByTestId("key-test-status").textContent()) === "401" || undefined;
  });
  await context.close();
});

test("API keys with scopes: the dialog asks for at least one, the list shows them, and a call outside them answers 403 naming the scope", async () => {
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/developer`);
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.getByLabel("Name").fill("Document archiver");
  await page.getByLabel("Only the scopes I choose").check();
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByText("Choose at least one scope.").waitFor();
  await page.getByLabel("documents:read").check();
  await page.getByLabel("documents:write").check();
  await shot(page, "key-scopes-dialog");
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("new-key-secret").textContent()) ?? "";
  await page.getByRole("button", { name: "Copy secret" }).click();
  await page.getByRole("button", { name: "I have stored it" }).click();
  const archiver = page.getByTestId("api-keys").locator("li", { hasText: "Document archiver" });
  await shows(
    archiver.getByRole("list", { name: "Scopes of Document archiver" }),
    "documents:readdocuments:write",
  );
  expect(await archiver.getByText("Full access").count()).toBe(0);
  // A key made without choosing is marked as having full access.
  const others = page
    .getByTestId("api-keys")
    .locator(":scope > li")
    .filter({ hasNotText: "Document archiver" });
  expect(await others.first().getByText("Full access").count()).toBe(1);

  // The key test lists templates, which this key may not.
  await page.getByLabel("Secret").fill(secret);
  await page.getByRole("button", { name: "Send test call" }).click();
  await page.getByTestId("key-test-outcome").waitFor();
  expect(await page.getByTestId("key-test-status").textContent()).toBe("403");
  expect(JSON.parse((await page.getByTestId("key-test-body").textContent()) ?? "")).toMatchObject({
    code: "insufficient_scope",
    requiredScope: "templates:read",
  });
  await shot(page, "key-scopes");
  await page.setViewportSize(PHONE);
  await shot(page, "key-scopes-phone");
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.getByLabel("Only the scopes I choose").check();
  await shot(page, "key-scopes-dialog-phone", false);
  await context.close();
});

test("webhooks: http:// refused inline; an endpoint is added, its secret revealed, a test event verified by the receiver and kept in the log, deliveries listed with attempts, retried and replayed", async () => {
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/developer/webhooks`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByLabel("Endpoint URL").fill("http://example.com/hook");
  await page.getByRole("button", { name: "Add endpoint" }).last().click();
  await page.getByText("Only https:// URLs are allowed").waitFor();
  await shot(page, "webhook-refused");
  await page.getByLabel("Endpoint URL").fill(receiver.url);
  await page.getByLabel("Description").fill("Receiver on loopback");
  // Every event type says what it tells; "All events" takes them all, or none.
  await page.getByText("Everyone signed, and the sealed PDF is ready to download.").waitFor();
  const all = page.getByLabel("All events");
  await expect(all.isChecked()).resolves.toBe(true);
  await all.uncheck();
  await expect(page.getByLabel("signature_request.completed").isChecked()).resolves.toBe(false);
  await all.check();
  await page.getByRole("button", { name: "Add endpoint" }).last().click();
  await page.getByTestId("endpoint-detail").waitFor();
  // The endpoint has a page of its own, to link to.
  expect(page.url()).toMatch(/\/developer\/webhooks\/[0-9a-f-]{36}$/);
  const endpointPage = page.url();
  const shown = (await page.getByTestId("created-endpoint-secret").locator("code").textContent()) ?? "";
  expect(shown).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "Reveal" }).click();
  await shows(page.getByTestId("endpoint-secret"), shown, true);

  await page.getByLabel("Event type").first().selectOption("signature_request.signed");
  await page.getByRole("button", { name: "Send test event" }).click();
  await shows(page.getByTestId("test-fire-result"), "204");
  await shows(page.getByTestId("test-fire-outcome"), "Your endpoint took the test event: it answered 204");
  const test = receiver.received.at(-1);
  expect(test && (verifyWebhook(shown, test) as { type: string }).type).toBe("signature_request.signed");
  // The test event is in the delivery log too, its attempt marked as a test.
  const tested = page.getByTestId("webhook-messages").locator("li.message").first();
  await shows(tested, "signature_request.signed");
  await tested.locator(":scope > details > summary").click();
  await shows(tested, "test ·");
  await shot(page, "webhook-test-fire");

  await makeRequest("Webhook lease", true);
  await eventually(async () => receiver.received.length >= 2 || undefined);
  await page.getByRole("button", { name: "Refresh" }).click();
  const message = page.getByTestId("webhook-messages").locator("li.message").first();
  // Newest first: the request's event stands above the test event once the log has read again.
  await shows(message, "signature_request.sent");
  await message.locator(":scope > details > summary").click();
  await shows(message, "delivery");
  const before = receiver.received.length;
  await message.getByRole("button", { name: "Retry now" }).click();
  await page.getByText("queued to be delivered again").waitFor();
  await eventually(async () => receiver.received.length > before || undefined);
  const beforeReplay = receiver.received.length;
  await page.getByLabel("Only failed messages").uncheck();
  await page.getByRole("button", { name: "Replay" }).click();
  const replayed = await page.getByText(/\d+ messages? queued to be delivered again/).textContent();
  // The request's "sent" event: a test event is in the log, but a replay does not send it again.
  expect(Number(replayed?.match(/\d+/)?.[0])).toBe(1);
  await eventually(async () => receiver.received.length > beforeReplay || undefined);
  await shot(page, "webhook-deliveries");
  await page.goto(endpointPage);
  await page.getByTestId("endpoint-detail").waitFor();
  await page.getByRole("link", { name: "All webhook endpoints" }).click();
  await shows(page.getByTestId("webhook-endpoints"), receiver.url);
  await context.close();
});

test("webhooks: the DocuSign Connect format is chosen when an endpoint is added, said on its page, and its test event carries DocuSign's HMAC", async () => {
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/developer/webhooks`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByLabel("Endpoint URL").fill(`${receiver.url}/connect`);
  await page.getByLabel("All events").uncheck();
  await page.getByLabel("signature_request.completed").check();
  const format = page.getByTestId("endpoint-dialog").getByTestId("endpoint-format");
  await expect(page.getByLabel("Countersign events (Standard Webhooks)").isChecked()).resolves.toBe(true);
  await format.getByLabel("DocuSign Connect").check();
  await page.setViewportSize(PHONE);
  await format.scrollIntoViewIfNeeded();
  await shot(page, "phone-webhook-format");
  await page.setViewportSize(DESKTOP);
  await shot(page, "webhook-format");
  await page.getByRole("button", { name: "Add endpoint" }).last().click();
  await page.getByTestId("endpoint-detail").waitFor();
  await shows(page.getByTestId("endpoint-detail").getByTestId("endpoint-format"), "X-DocuSign-Signature-1");
  const secret = (await page.getByTestId("created-endpoint-secret").locator("code").textContent()) ?? "";
  const before = receiver.received.length;
  await page.getByLabel("Event type").first().selectOption("signature_request.completed");
  await page.getByRole("button", { name: "Send test event" }).click();
  await shows(page.getByTestId("test-fire-result"), "204");
  const fired = receiver.received.slice(before).find((req) => req.path.endsWith("/connect"));
  const expected = createHmac("sha256", secret)
    .update(fired?.body ?? "")
    .digest("base64");
  expect([
    fired?.headers["x-docusign-signature-1"],
    (JSON.parse(fired?.body ?? "{}") as { event?: string }).event,
  ]).toEqual([expected, "envelope-completed"]);
  await shot(page, "webhook-connect-endpoint");
  await page.getByRole("link", { name: "All webhook endpoints" }).click();
  await shows(
    page.getByTestId("webhook-endpoints").locator("li", { hasText: "/connect" }),
    "DocuSign Connect",
  );
  await page.getByRole("link", { name: `Manage ${receiver.url}/connect` }).click();
  await page.getByTestId("endpoint-detail").waitFor();
  // Gone again: the other tests' requests are delivered to the receiver in our own format only.
  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Delete endpoint" }).click();
  await page.getByTestId("webhook-endpoints").waitFor();
  await context.close();
});

test("an Organization Admin seals the workspace's documents with a certificate of its own: a refused file says why, the kept one shows who uploaded it, and the deployment's comes back", async () => {
  const ca = testCa();
  const dir = join(tmpdir(), `countersign-console-seals-${process.pid}`);
  await mkdir(dir, { recursive: true });
  const files = {
    server: join(dir, "web-server.p12"),
    acme: join(dir, "acme-seal.p12"),
  };
  await writeFile(
    files.server,
    sealFile({ commonName: "www.acme.example", ca, extKeyUsage: { serverAuth: true } }).p12,
  );
  await writeFile(files.acme, sealFile({ commonName: "Acme Corp seal", ca, password: "p12-password" }).p12);
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/developer/configuration`);
  const seal = page.getByTestId("seal-certificate");
  await shows(seal.getByTestId("seal-owner"), "The deployment's, set by its operator");

  await seal.getByRole("button", { name: "Upload this workspace's own" }).click();
  const dialog = page.getByTestId("upload-seal-dialog");
  await dialog.getByRole("button", { name: "Check and use it" }).click();
  await shows(dialog, "Choose the PKCS#12 file (.p12 or .pfx).");
  await dialog.getByTestId("seal-file").setInputFiles(files.server);
  await dialog.getByLabel("Password").fill("seal-password");
  await dialog.getByRole("button", { name: "Check and use it" }).click();
  await shows(dialog, "extended key usage does not allow signing documents");
  await shot(page, "seal-upload-refused");

  await dialog.getByTestId("seal-file").setInputFiles(files.acme);
  await dialog.getByLabel("Password").fill("not-the-password");
  await dialog.getByRole("button", { name: "Check and use it" }).click();
  await shows(dialog, "the password does not fit");
  await dialog.getByLabel("Password").fill("p12-password");
  await dialog.getByRole("button", { name: "Check and use it" }).click();
  await dialog.waitFor({ state: "detached" });
  await shows(
    seal.getByTestId("seal-changed"),
    "From now on this workspace's documents are sealed with “CN=Acme Corp seal,O=Acme”.",
  );
  await shows(
    seal.getByTestId("seal-owner"),
    `This workspace's own, uploaded by ${deployment.adminEmail} on`,
  );
  await shows(seal, "CN=Countersign Test Seal CA");
  await shot(page, "seal-uploaded");
  await page.setViewportSize(PHONE);
  await seal.scrollIntoViewIfNeeded();
  expect(await page.evaluate(STICKING_OUT)).toEqual([]);
  await shot(page, "phone-seal-uploaded", false);
  await page.setViewportSize(DESKTOP);

  await seal.getByRole("button", { name: "Use the deployment's seal" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Use the deployment's seal" }).click();
  await shows(seal.getByTestId("seal-owner"), "The deployment's, set by its operator");
  await shows(seal, "Self-signed: PDF readers show the seal's issuer as unknown.");
  await context.close();
});

test("a Developer tab that does not exist says so, with every tab to choose from, none shown as current", async () => {
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/developer/api-key`);
  await page.getByTestId("developer-unknown-tab").waitFor();
  await shot(page, "developer-unknown-tab");
  expect(await page.getByRole("link", { name: "API keys" }).getAttribute("aria-current")).toBeNull();
  expect(await page.getByRole("button", { name: "Create API key" }).count()).toBe(0);
  await context.close();
});

test("Configuration, Recent Errors and API Usage show this workspace's own figures; an error opens to what the caller got", async () => {
  const missing = await api("/signature-requests/00000000-0000-7000-8000-000000000000");
  expect(missing.status).toBe(404);
  const requestId = missing.headers.get("x-request-id") as string;
  const invalid = await api("/signature-requests", {
    method: "POST",
    json: { title: "", recipients: [{ name: "Ann", email: "not-an-address" }] },
  });
  expect(invalid.status).toBe(422);
  const invalidId = invalid.headers.get("x-request-id") as string;
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/developer/configuration`);
  await shows(page.getByTestId("account-id"), key.accountId, true);
  const { baseUrls } = await configurationOf(page);
  const publicUrl = baseUrls.resourceStyle.replace(/\/api\/v1$/, "");
  expect(baseUrls).toEqual({
    accountScoped: `${publicUrl}/v1/accounts/${key.accountId}`,
    resourceStyle: `${publicUrl}/api/v1`,
    compatibility: `${publicUrl}/restapi`,
    tools: `${publicUrl}/mcp/v1`,
  });
  for (const url of Object.values(baseUrls)) await page.getByText(url, { exact: true }).waitFor();
  // Standalone's own seal: made on the first start, self-signed, ten years ahead, sealing PAdES B-B.
  const seal = page.getByTestId("seal-certificate");
  await shows(seal, "Self-signed: PDF readers show the seal's issuer as unknown.");
  await shows(seal, "PAdES B-B");
  expect(await seal.getByTestId("seal-expiry-warning").count()).toBe(0);
  await shot(page, "configuration");
  await page.setViewportSize(PHONE);
  await seal.scrollIntoViewIfNeeded();
  await shot(page, "phone-seal-certificate", false);
  await page.setViewportSize(DESKTOP);
  await page.getByRole("link", { name: "Recent Errors" }).click();
  await untilShown(page, page.getByTestId("recent-errors"), invalidId);
  await shot(page, "recent-errors");
  const row = page.getByTestId("recent-errors").locator("tr", { hasText: invalidId });
  await row.getByRole("button").click();
  const details = page.getByTestId("error-details");
  await shows(details, "POST /api/v1/signature-requests");
  await shows(details, "fixtures");
  await shows(details, "422");
  // The validation error's field paths, as the caller got them.
  const fields = await details.getByTestId("error-fields").locator("li").allInnerTexts();
  expect(fields.some((f) => f.startsWith("title:"))).toBe(true);
  await details.getByRole("button", { name: "Copy request ID" }).click();
  expect(await page.evaluate("navigator.clipboard.readText()")).toBe(invalidId);
  await shot(page, "recent-error-details");
  await page.setViewportSize(PHONE);
  await shot(page, "phone-recent-error-details");
  await page.setViewportSize(DESKTOP);
  expect(await page.getByTestId("recent-errors").textContent()).toContain(requestId);
  await page.getByRole("link", { name: "API Usage" }).click();
  await untilShown(page, page.getByTestId("usage-routes"), "GET /api/v1/signature-requests/{requestId}");
  await page.getByTestId("usage-chart").locator("rect").first().waitFor();
  await shot(page, "api-usage");
  await context.close();
});

test("role gating: a member, and an admin in a workspace without API access, get no usable Developer tab — and the API refuses them too", async () => {
  const member = await openConsole(MEMBER);
  await member.page.getByRole("link", { name: /Developer/ }).click();
  await shows(member.page.getByTestId("developer-blocked"), "for Organization Admins");
  expect(await member.page.getByRole("button", { name: "Create API key" }).count()).toBe(0);
  const refused = await member.page.evaluate(
    async (id) => (await fetch(`/console/api/workspaces/${id}/webhook-endpoints`)).status,
    key.accountId,
  );
  expect(refused).toBe(403);
  await shot(member.page, "developer-member");
  await member.context.close();

  const { context, page } = await openConsole(admin());
  await page.getByRole("link", { name: /Templates/ }).click();
  await page.getByLabel("Workspace").selectOption({ label: "Sandbox (no API)" });
  await page.waitForURL(`${gateway}/console/w/${otherWorkspace.id}/templates`);
  await page.getByText("No templates yet").waitFor();
  await page.getByRole("link", { name: /Developer/ }).click();
  await shows(page.getByTestId("developer-blocked"), "API access is turned off");
  await shot(page, "developer-no-api");
  await context.close();
});

/** The link of the newest e-mail to `to` whose link leads to `page` of the console. */
async function consoleLink(to: string, page: "invitation" | "reset-password"): Promise<string> {
  const pattern = new RegExp(`https?://\\S+/console/${page}#token=[\\w-]+`);
  return eventually(async () => {
    const mail = (await outboxMails(deployment.dataDir))
      .filter((m) => m.to === to && pattern.test(m.text))
      .at(-1);
    return mail && (pattern.exec(mail.text)?.[0] as string);
  });
}

test("the team: a person invited by e-mail joins from the link with a password of their own; the admin changes their role and removes them, switches API access off and on, and the activity says who did each", async () => {
  const { context, page } = await openConsole(admin());
  await page.getByRole("link", { name: "Team" }).click();
  await page.getByRole("heading", { name: "Members" }).waitFor();
  await shows(page.getByTestId("members"), deployment.adminEmail);
  await page.getByRole("button", { name: "Invite people" }).click();
  const dialog = page.getByTestId("invite-dialog");
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await shows(dialog, "Enter the e-mail address to invite.");
  await dialog.getByLabel("E-mail").fill("new.colleague@example.com");
  await dialog.getByLabel("Role").selectOption("org_admin");
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await shows(page.getByRole("status"), "Invitation sent to new.colleague@example.com");
  await shows(page.getByTestId("invitations"), "new.colleague@example.com");
  await shot(page, "team-members");

  // The invitee, on a phone, from the e-mail's link.
  const link = await consoleLink("new.colleague@example.com", "invitation");
  const invitee = await browser.newContext({ viewport: PHONE });
  const phone = await invitee.newPage();
  await phone.goto(link);
  await phone.getByRole("heading", { name: "Join a workspace" }).waitFor();
  await shows(phone.locator("form"), `${deployment.adminEmail} invited new.colleague@example.com to`);
  // The token leaves the address bar once read.
  expect(phone.url()).not.toContain("token");
  await phone.getByLabel("New password").fill("short");
  await phone.getByRole("button", { name: /^Join / }).click();
  await shows(phone.locator(".field-error"), "at least 10 characters");
  await shot(phone, "phone-invitation");
  await phone.getByLabel("New password").fill("colleague-password-1");
  await phone.getByRole("button", { name: /^Join / }).click();
  await phone.getByRole("heading", { name: "Signature requests" }).waitFor();
  // The link works once.
  await phone.goto(link);
  await shows(phone.getByRole("alert"), "This invitation link no longer works");
  await invitee.close();

  await page.reload();
  const row = page.getByTestId("members").locator("li", { hasText: "new.colleague@example.com" });
  await expect(row.getByLabel("Role of new.colleague@example.com").inputValue()).resolves.toBe("org_admin");
  // The role is saved when it is chosen; the page is reloaded once that save has answered, not while
  // it is on its way (a reload then cancels it, and the row shows the role before).
  await Promise.all([
    page.waitForResponse((res) => res.request().method() === "PATCH" && /\/members\//.test(res.url())),
    row.getByLabel("Role of new.colleague@example.com").selectOption("member"),
  ]);
  await page.reload();
  await expect(row.getByLabel("Role of new.colleague@example.com").inputValue()).resolves.toBe("member");
  await row.getByRole("button", { name: "Remove new.colleague@example.com" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Remove" }).click();
  await eventually(async () => (await row.count()) === 0 || undefined);

  await page.getByRole("link", { name: "Workspace", exact: true }).click();
  await page.getByRole("switch", { name: /^API access/ }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Turn API access off" }).click();
  await shows(page.locator("label.switch"), "API access is off");
  await eventually(async () => ((await api("/templates")).status === 403 ? true : undefined));
  await page.getByRole("switch", { name: /^API access/ }).click();
  await shows(page.locator("label.switch"), "API access is on");
  await eventually(async () => ((await api("/templates")).status === 200 ? true : undefined));
  const activity = page.getByTestId("audit");
  await shows(activity, `${deployment.adminEmail} turned API access on`);
  const sentences = await activity.locator("tbody tr td:nth-child(2)").allInnerTexts();
  expect(sentences.slice(0, 6)).toEqual([
    `${deployment.adminEmail} turned API access on`,
    `${deployment.adminEmail} turned API access off`,
    `${deployment.adminEmail} removed new.colleague@example.com`,
    `${deployment.adminEmail} changed the role of new.colleague@example.com`,
    "new.colleague@example.com joined the workspace",
    `${deployment.adminEmail} invited new.colleague@example.com`,
  ]);
  // Keys made and deleted in the console earlier are the admin's, not the CLI's.
  expect(sentences).toContain(`${deployment.adminEmail} created the API key “Billing service”`);
  expect(sentences).toContain(`${deployment.adminEmail} deleted the API key “Billing service”`);
  await shot(page, "team-workspace");
  await context.close();
});

test("Settings → Requests: an admin sets the reminder schedule and expiry warning; a value out of range is shown at its field; new requests get the defaults and show them", async () => {
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/settings/requests`);
  const form = page.getByTestId("request-settings");
  await form.waitFor();
  await expect(page.getByLabel("Warn before expiry (days)").inputValue()).resolves.toBe("2");
  await page.getByLabel("Remind every (days)").fill("45");
  await form.getByRole("button", { name: "Save" }).click();
  await shows(form, "must be a whole number of days from 0 (never) to 30");
  await expect(page.getByLabel("Remind every (days)").getAttribute("aria-invalid")).resolves.toBe("true");
  await page.getByLabel("Remind every (days)").fill("3");
  await shows(form, "gets a reminder 3 days after their last e-mail");
  await form.getByRole("button", { name: "Save" }).click();
  await shows(form, "Saved. New requests get these defaults.");
  await shot(page, "settings-requests");
  await page.reload();
  await expect(page.getByLabel("Remind every (days)").inputValue()).resolves.toBe("3");
  expect((await api("/request-settings")).body).toEqual({
    reminderEveryDays: 3,
    expiryWarningDays: 2,
    retentionDays: null,
    retentionDeletesEvidence: false,
    approverUserId: null,
  });

  const request = await makeRequest("Scheduled lease", true);
  expect((await api(`/signature-requests/${request.id}`)).body).toMatchObject({
    reminderEveryDays: 3,
    expiryWarningSentAt: null,
  });
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/${request.id}`);
  await shows(page.getByTestId("schedule"), "Reminded automatically every 3 days");
  await page.setViewportSize(PHONE);
  await page.goto(`${gateway}/console/w/${key.accountId}/settings/requests`);
  await form.waitFor();
  expect(await page.evaluate(STICKING_OUT)).toEqual([]);
  await shot(page, "settings-requests-390");
  expect(
    (await api("/request-settings", { method: "PUT", json: { reminderEveryDays: 0, expiryWarningDays: 2 } }))
      .status,
  ).toBe(200);
  await context.close();
});

test("Settings → Requests: an admin turns retention on, out of range shown at its field, without touching the reminders; a request is held and released from its page, and the hold shown", async () => {
  await api("/request-settings", { method: "PUT", json: { reminderEveryDays: 4, expiryWarningDays: 2 } });
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/settings/requests`);
  const form = page.getByTestId("retention-settings");
  await shows(form, "Documents are kept for good.");
  await form.getByLabel("Delete the documents of ended requests").check();
  // Nothing typed is said at once: sent as none, it would keep documents for good.
  await page.getByLabel("Days after a request ends").fill("");
  await form.getByRole("button", { name: "Save" }).click();
  await shows(form, "must be a whole number of days from 1 to 3650");
  await page.getByLabel("Days after a request ends").fill("5000");
  await form.getByRole("button", { name: "Save" }).click();
  await shows(form, "must be a whole number of days from 1 to 3650");
  await page.getByLabel("Days after a request ends").fill("400");
  await form.getByLabel("Delete the audit trail with them").check();
  await shows(form, "Nothing is left to prove who signed.");
  await form.getByRole("button", { name: "Save" }).click();
  await shows(form, "Saved. Retention applies from the next sweep.");
  await shot(page, "settings-retention");
  expect((await api("/request-settings")).body).toEqual({
    reminderEveryDays: 4,
    expiryWarningDays: 2,
    retentionDays: 400,
    retentionDeletesEvidence: true,
    approverUserId: null,
  });
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(STICKING_OUT)).toEqual([]);
  await shot(page, "settings-retention-390");
  await page.setViewportSize(DESKTOP);

  const request = await makeRequest("Held lease", true);
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/${request.id}`);
  const card = page.getByTestId("retention");
  await card.getByRole("button", { name: "Place legal hold" }).click();
  const dialog = page.getByTestId("legal-hold-dialog");
  await dialog.getByRole("button", { name: "Place hold" }).click();
  await shows(dialog, "Say why the request is held.");
  await dialog.getByLabel("Reason").fill("Dispute with the landlord");
  await dialog.getByRole("button", { name: "Place hold" }).click();
  await shows(card, "placed by admin@example.com: “Dispute with the landlord”");
  await shows(page.getByTestId("audit-trail"), "legal hold placed");
  await shot(page, "request-legal-hold");
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(STICKING_OUT)).toEqual([]);
  await shot(page, "request-legal-hold-390");
  await page.setViewportSize(DESKTOP);
  expect(
    ((await api(`/signature-requests/${request.id}`)).body as { legalHold: { reason: string } }).legalHold,
  ).toMatchObject({
    reason: "Dispute with the landlord",
  });
  await card.getByRole("button", { name: "Release hold" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Release hold" }).click();
  await card.getByRole("button", { name: "Place legal hold" }).waitFor();
  await shows(page.getByTestId("audit-trail"), "legal hold released");
  await api("/request-settings", { method: "PUT", json: { reminderEveryDays: 0, expiryWarningDays: 2 } });
  await context.close();
});

test("a forgotten password: the log-in form's link e-mails a reset link, which sets a new password once; the new one logs in", async () => {
  await deployment.cli(
    "members",
    "add",
    "--email",
    "forgetful@example.com",
    "--role",
    "member",
    "--password",
    "forgetful-password-1",
  );
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto(`${gateway}/console/`);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.getByLabel("E-mail").fill("forgetful@example.com");
  await page.getByRole("button", { name: "Send the link" }).click();
  await shows(page.getByRole("status"), "is on its way");
  await shot(page, "forgot-password");

  const link = await consoleLink("forgetful@example.com", "reset-password");
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("forgetful-new-password");
  await page.getByLabel("The new password again").fill("something-else-entirely");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await shows(page.locator(".field-error"), "The two passwords differ.");
  await page.getByLabel("The new password again").fill("forgetful-new-password");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await shows(page.getByRole("status"), "Your password is changed");
  await shot(page, "reset-password");
  await page.getByRole("link", { name: "Go to log-in" }).click();
  await page.getByLabel("E-mail").fill("forgetful@example.com");
  await page.getByLabel("Password", { exact: true }).fill("forgetful-new-password");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Signature requests" }).waitFor();

  // The link works once.
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("yet-another-password");
  await page.getByLabel("The new password again").fill("yet-another-password");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await shows(page.getByRole("alert"), "This link no longer works");
  await context.close();
});

test("a request from draft to its signed PDF: listed by status, sent, reminded, its audit trail shown, the signed PDF downloaded; another cancelled", async () => {
  const draft = await makeRequest("Office lease 2027", false);
  const other = await makeRequest("Parking space", true);
  const { context, page } = await openConsole(admin());
  await page.getByLabel("Status").selectOption("draft");
  await page.getByRole("link", { name: "Office lease 2027" }).waitFor();
  expect(await page.getByTestId("requests").getByText("Parking space").count()).toBe(0);
  await page.getByRole("link", { name: "Office lease 2027" }).click();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByText("Sent. Recipients who sign by e-mail have been notified.").waitFor();
  await page.getByRole("button", { name: "Remind Tess Tenant" }).click();
  await page.getByText("Tess Tenant has been reminded.").waitFor();
  await shows(page.getByTestId("audit-trail"), "sent");

  const signing = await api("/embedded-signing-url", {
    method: "POST",
    json: { requestId: draft.id, recipientId: draft.recipients[0]?.id },
  });
  const signer = new SignerBrowser(gateway);
  await signer.open((signing.body as { url: string }).url);
  const session = (await signer.call("/sign/api/session")).body as { fields: { id: string }[] };
  const values = Object.fromEntries(
    session.fields.map((f) => [f.id, { kind: "typed", text: "Tess Tenant" }]),
  );
  expect((await signer.call("/sign/api/submit", { consent: true, values })).status).toBe(200);
  // Nobody reloads: the page follows the request while it is signed and sealed.
  await page.getByTestId("download-signed").waitFor({ timeout: 90_000 });
  await page.getByText("Chain verified").waitFor();
  await shot(page, "request-completed");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("download-signed").click(),
  ]);
  const pdf = await readFile((await download.path()) as string);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  expect(pdf.includes("/ByteRange")).toBe(true);
  // The evidence to take away: the whole package, and the audit trail as CSV and as a report.
  const [evidence] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("download-evidence").click(),
  ]);
  expect(evidence.suggestedFilename()).toMatch(/\(evidence\)\.zip$/);
  const files = Object.keys(unzipSync(await readFile((await evidence.path()) as string)));
  expect(files).toEqual(expect.arrayContaining(["README.txt", "audit-trail.json", "SHA256SUMS"]));
  expect(files.some((name) => name.startsWith("sealed/"))).toBe(true);
  for (const [label, start] of [
    ["CSV", "\uFEFFsequence,time,action"],
    ["PDF report", "%PDF-"],
  ] as const) {
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: label, exact: true }).click(),
    ]);
    expect((await readFile((await file.path()) as string, "utf8")).startsWith(start)).toBe(true);
  }
  await page.setViewportSize(PHONE);
  await page.getByTestId("download-evidence").scrollIntoViewIfNeeded();
  expect(await page.evaluate(STICKING_OUT)).toEqual([]);
  await shot(page, "request-exports-390");
  await page.setViewportSize(DESKTOP);

  await page.goto(`${gateway}/console/w/${key.accountId}/requests/${other.id}`);
  await page.getByRole("button", { name: "Cancel request" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Cancel request" }).click();
  await page.getByText("Cancelled", { exact: true }).waitFor();
  await context.close();
});

test("in person: the signed-in user hosts a signer on their own device — the page asks to hand it over, the signer signs, the console comes back, and the audit trail and certificate name host and signer", async () => {
  const upload = await api("/documents/upload?filename=loan.pdf", {
    method: "POST",
    body: await makePdf(1, "Loan agreement"),
    headers: { "content-type": "application/pdf" },
  });
  const created = await api("/signature-requests", {
    method: "POST",
    json: {
      title: "Loan agreement",
      documentIds: [(upload.body as { id: string }).id],
      fields: [{ type: "signature", role: "borrower", page: 1, x: 60, y: 600, width: 200, height: 50 }],
      recipients: [
        {
          name: "Bea Borrower",
          email: "bea@example.com",
          role: "borrower",
          host: { name: "Front desk", email: deployment.adminEmail },
        },
      ],
      send: true,
    },
  });
  expect(created.status).toBe(201);
  const request = created.body as { id: string; recipients: { id: string; host: unknown }[] };
  expect(request.recipients[0]?.host).toEqual({ name: "Front desk", email: deployment.adminEmail });
  // Nothing is e-mailed to a signer who signs in person, and they cannot be reminded.
  expect((await outboxMails(deployment.dataDir)).some((m) => m.to === "bea@example.com")).toBe(false);
  const remind = await api(`/recipients/${request.recipients[0]?.id}/reminders`, {
    method: "POST",
    json: {},
  });
  expect(remind.status).toBe(409);

  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/${request.id}`);
  await shows(page.getByTestId("recipients"), "in person, hosted by Front desk");
  await page.getByRole("button", { name: "Sign in person: Bea Borrower" }).click();
  await page.getByTestId("hand-over-state").waitFor();
  await shot(page, "in-person-hand-over", false);
  await page.getByRole("button", { name: "I am Bea Borrower: continue" }).click();
  await page.getByTestId("hosted-by").waitFor();
  await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
  await page.getByRole("button", { name: /^Sign: Signature, required/ }).click();
  await page.getByTestId("tab-type").click();
  await page.getByTestId("signature-text").fill("Bea Borrower");
  await page.getByTestId("apply-signature").click();
  await page.getByTestId("consent").check();
  await page.getByTestId("finish").click();
  // The signing page returns to the request in the console, which follows it to its sealed PDF.
  await page.waitForURL(new RegExp(`/requests/${request.id}`));
  await page.getByTestId("download-signed").waitFor({ timeout: 90_000 });
  await shot(page, "in-person-signed");
  await context.close();

  const audit = (await api(`/signature-requests/${request.id}/audit-trail`)).body as {
    items: { action: string; actor: { type: string; email?: string }; details: Record<string, unknown> }[];
  };
  const started = audit.items.find((e) => e.action === "in_person_signing_started");
  expect(started).toMatchObject({
    actor: { type: "user", email: deployment.adminEmail },
    details: { host: { name: "Front desk", email: deployment.adminEmail }, signer: "Bea Borrower" },
  });
  expect(audit.items.find((e) => e.action === "signed")?.details).toMatchObject({
    inPerson: { host: { name: "Front desk", email: deployment.adminEmail } },
  });
  const sealed = await sealedPdfOf(`${gateway}/api/v1`, key.secret, request.id);
  const text = (await pdfText(sealed)).replace(/\s+/g, " ");
  expect(text).toContain(
    `in person, hosted by Front desk <${deployment.adminEmail}>, started by ${deployment.adminEmail}`,
  );
});

test("a template built in the browser: a PDF uploaded, a field dragged onto the page and resized, a role's missing signature and a text field without a label reported, fixed and saved; a request made from it and sent", async () => {
  const { context, page } = await openConsole(admin());
  await page.getByRole("link", { name: /Templates/ }).click();
  await page.getByRole("link", { name: "New template" }).first().click();
  await page.getByTestId("document-input").setInputFiles({
    name: "Lease agreement.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(await makePdf(2, "Lease agreement")),
  });
  const firstPage = page.locator('[data-testid="page-1"][data-rendered]');
  await firstPage.waitFor();
  await page.getByLabel("Name", { exact: true }).fill("Lease agreement");
  await page.getByLabel("Name of role 1").clear();
  await page.getByLabel("Name of role 1").pressSequentially("Tenant");

  // 595 × 842 pt pages: the drop point becomes the centre of a 180 × 48 pt signature box.
  const box = (await firstPage.boundingBox()) as { x: number; y: number; width: number; height: number };
  const scale = box.width / 595;
  await page
    .getByTestId("palette-signature")
    .dragTo(firstPage, { targetPosition: { x: 300 * scale, y: 600 * scale } });
  const placed = page.getByTestId("placed-field");
  await placed.first().waitFor();
  const handle = (await page.getByTestId("resize-handle").first().boundingBox()) as { x: number; y: number };
  await page.mouse.move(handle.x + 5, handle.y + 5);
  await page.mouse.down();
  await page.mouse.move(handle.x + 5 + 40 * scale, handle.y + 5 + 12 * scale, { steps: 5 });
  await page.mouse.up();

  await page.getByLabel("Add a role").fill("Landlord");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  // Adding a role leaves whose new fields are as it was, and says so: the user chooses.
  await shows(page.getByTestId("role-added"), "New fields are still for Tenant");
  const fieldsFor = page.getByTestId("field-palette").getByLabel("New fields are for");
  await expect(fieldsFor.locator("option:checked").textContent()).resolves.toBe("Tenant");
  // The roles list shows it too, as the choice it is.
  const pick = (role: string) => page.getByRole("radio", { name: `New fields are for ${role}` });
  await expect(pick("Tenant").isChecked()).resolves.toBe(true);
  await expect(pick("Landlord").isChecked()).resolves.toBe(false);
  await page.getByRole("button", { name: "Save template" }).click();
  await shows(page.getByTestId("template-problems"), "Landlord");
  await shot(page, "template-problems", false);

  // Chosen in the roles list, the palette says the same.
  await pick("Landlord").check();
  await expect(fieldsFor.locator("option:checked").textContent()).resolves.toBe("Landlord");
  await page.getByTestId("palette-signature").click();
  await page.getByTestId("palette-date_signed").click();
  await page.getByTestId("palette-text").click();
  await page.getByRole("button", { name: "Save template" }).click();
  // The signer would see only "Text": the console asks for a label before the service is asked.
  await shows(page.getByTestId("template-problems"), "Text on page 1 (Landlord): give it a label");
  const label = page.getByTestId("field-inspector").getByLabel("Label");
  await expect(label.getAttribute("aria-invalid")).resolves.toBe("true");
  await shot(page, "template-label-needed", false);
  await label.fill("Company name");
  await page.getByRole("button", { name: "Save template" }).click();
  await page.waitForURL(/\/templates\/[0-9a-f-]{36}$/);
  const templateId = page.url().split("/").at(-1) as string;
  await firstPage.waitFor();
  await shot(page, "template-editor", false);

  const stored = (await api(`/templates/${templateId}`)).body as {
    name: string;
    roles: { name: string; order: number }[];
    fields: {
      type: string;
      role: string;
      label?: string;
      page: number;
      x: number;
      y: number;
      width: number;
      height: number;
    }[];
  };
  expect(stored.name).toBe("Lease agreement");
  expect(stored.roles).toEqual([
    { name: "Tenant", order: 1 },
    { name: "Landlord", order: 2 },
  ]);
  const tenant = stored.fields.find((f) => f.role === "Tenant");
  expect(tenant).toMatchObject({ type: "signature", page: 1 });
  expect(tenant?.x).toBeCloseTo(300 - 90, -1);
  expect(tenant?.y).toBeCloseTo(600 - 24, -1);
  expect(tenant?.width).toBeCloseTo(220, -1);
  expect(tenant?.height).toBeCloseTo(60, -1);
  expect(
    stored.fields
      .filter((f) => f.role === "Landlord")
      .map((f) => f.type)
      .sort(),
  ).toEqual(["date_signed", "signature", "text"]);
  expect(stored.fields.find((f) => f.type === "text")?.label).toBe("Company name");

  await page.getByRole("link", { name: "Use in a request" }).click();
  await page.getByLabel("Title").fill("Lease for flat 4");
  const signers = page.locator("fieldset.signer");
  await signers.nth(0).getByLabel("Name").fill("Tess Tenant");
  await signers.nth(0).getByLabel("E-mail").fill("tess@example.com");
  await signers.nth(1).getByLabel("Name").fill("Lars Landlord");
  await signers.nth(1).getByLabel("E-mail").fill("not-an-address");
  await page.getByRole("button", { name: "Send for signature" }).click();
  await page.locator("fieldset.signer .field-error").first().waitFor();
  await shot(page, "request-new-invalid");
  await signers.nth(1).getByLabel("E-mail").fill("lars@example.com");
  // The tenant must give an access code and an e-mailed code before seeing the lease.
  await signers.nth(0).getByText("Confirm who signs (optional)").click();
  await signers.nth(0).getByLabel("Access code").fill("12");
  await signers.nth(0).getByLabel("Ask for a one-time code sent to their inbox").check();
  // Its deadline and reminders: a schedule past a month is named at its field.
  const schedule = page.locator("details.schedule-choice");
  await schedule.getByText("Deadline and reminders").click();
  await schedule.getByLabel("Remind every (days)").fill("45");
  await page.getByRole("button", { name: "Send for signature" }).click();
  await signers.nth(0).getByText("must be 4 to 50 characters").waitFor();
  await shows(schedule, "must be a whole number of days from 0 (never) to 30");
  await schedule.getByLabel("Remind every (days)").fill("4");
  const lastDay = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  await schedule.getByLabel("Expires on").fill(lastDay);
  await shows(schedule, "gets a reminder 4 days after their last e-mail");
  await shot(page, "request-new-signer-checks");
  await signers.nth(0).getByLabel("Access code").fill("tulip-1234");
  // The landlord gets their e-mails and signing page in Dutch.
  await signers.nth(1).getByLabel("Their language").selectOption("nl");
  await shot(page, "request-new-language");
  await page.getByRole("button", { name: "Send for signature" }).click();
  await page.getByRole("heading", { name: "Lease for flat 4" }).waitFor();
  await shows(page.locator(".badge"), "Sent", true);
  await shows(page.getByTestId("recipients"), "Lars Landlord");
  await shows(page.getByTestId("recipients"), "asked for access code and e-mailed code");
  await shows(page.getByTestId("recipients"), "in Nederlands");
  await shows(page.getByTestId("schedule"), "Reminded automatically every 4 days");
  const sentId = page.url().split("/").at(-1) as string;
  const sent = (await api(`/signature-requests/${sentId}`)).body as {
    expiresAt: string;
    reminderEveryDays: number;
  };
  expect(sent.reminderEveryDays).toBe(4);
  // The end of the chosen day where the browser is (this machine's zone: the test runs beside it).
  expect(sent.expiresAt).toBe(new Date(`${lastDay}T23:59:59`).toISOString());
  await context.close();
});

test("placed boxes in the template editor say their label and their role, on the box and in their names; a radio button asks for a label at its field", async () => {
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/templates/new`);
  await page.getByTestId("document-input").setInputFiles({
    name: "Company form.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(await makePdf(1, "Company form")),
  });
  await page.locator('[data-testid="page-1"][data-rendered]').waitFor();
  await page.getByLabel("Name of role 1").fill("Tenant");
  await page.getByLabel("Add a role").fill("Landlord");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  const inspector = page.getByTestId("field-inspector");
  await page.getByTestId("palette-signature").click();
  await page.getByTestId("palette-text").click();
  await inspector.getByLabel("Label").fill("Company name");
  await page.getByTestId("palette-text").click();
  await inspector.getByLabel("Label").fill("VAT number");
  await page
    .getByTestId("field-palette")
    .getByLabel("New fields are for")
    .selectOption({ label: "Landlord" });
  await page.getByTestId("palette-signature").click();
  await page.getByTestId("palette-radio").click();
  await page.getByTestId("field-group").fill("billing");
  await page.getByTestId("field-option").fill("Yearly");
  await page.getByRole("button", { name: "Save template" }).click();
  // The signer would hear only "Yearly": the question its buttons answer is asked for, at the field.
  await shows(
    page.getByTestId("template-problems"),
    "Radio button “Yearly” on page 1 (Landlord): give it a label",
  );
  const label = inspector.getByLabel("Label");
  await expect(label.getAttribute("aria-invalid")).resolves.toBe("true");
  await shows(inspector.locator(".field-error"), "give it a label");
  await shot(page, "template-radio-label-needed", false);
  await label.fill("Billing period");

  const boxes = page.getByTestId("placed-field");
  const names = await boxes.evaluateAll((els) => els.map((el) => el.getAttribute("aria-label") ?? ""));
  expect(new Set(names).size).toBe(names.length);
  const text = page.getByRole("button", { name: /^Text “Company name” for Tenant on page 1/ });
  await shows(text, "Company name");
  // Its tab, the element after it, names the role.
  const tabOf = (box: Locator) => box.locator("xpath=following-sibling::*[1]");
  await shows(tabOf(text), "Tenant", true);
  await shows(page.getByRole("button", { name: /^Text “VAT number” for Tenant on page 1/ }), "VAT number");
  const radio = page.getByRole("button", {
    name: /^Radio button “Billing period: Yearly” for Landlord on page 1/,
  });
  await shows(tabOf(radio), "Landlord · Billing period: Yearly", true);
  await page.getByRole("button", { name: /^Signature without a label for Landlord on page 1/ }).waitFor();
  await shot(page, "template-boxes-named", false);
  await page.getByRole("button", { name: "Save template" }).click();
  await page.waitForURL(/\/templates\/[0-9a-f-]{36}$/);
  const templateId = page.url().split("/").at(-1) as string;
  const stored = (await api(`/templates/${templateId}`)).body as {
    fields: { type: string; label?: string }[];
  };
  expect(stored.fields.find((f) => f.type === "radio")?.label).toBe("Billing period");
  await context.close();

  // On a phone the boxes say the same, and nothing sticks out past the edge.
  const phone = await openConsole(admin(), PHONE, false, true);
  await phone.page.goto(`${gateway}/console/w/${key.accountId}/templates/${templateId}`);
  await phone.page.getByTestId("page-1").scrollIntoViewIfNeeded();
  await phone.page.locator('[data-testid="page-1"][data-rendered]').waitFor();
  await shows(phone.page.getByTestId("placed-field-tag"), "Landlord · Billing period: Yearly", true);
  expect(await phone.page.evaluate(STICKING_OUT)).toEqual([]);
  await phone.page.getByRole("button", { name: /^Text “Company name”/ }).tap();
  await shows(phone.page.getByTestId("field-inspector"), "Text field");
  await phone.page
    .getByTestId("page-1")
    .screenshot({ path: join(ARTIFACTS, "console-phone-template-boxes.png") });
  await shot(phone.page, "phone-template-editor");
  await phone.context.close();
});

test("a template with every field type, each configured in the editor: a dropdown's options, a number's bounds, a radio group, a checkbox group held to one, a date, an attachment, and a field shown on a condition", async () => {
  const { context, page } = await openConsole(admin());
  await page.getByRole("link", { name: /Templates/ }).click();
  await page.getByRole("link", { name: "New template" }).first().click();
  await uploadInBrowser(page, "Order form.pdf", 1);
  await page.locator('[data-testid="page-1"][data-rendered]').waitFor();
  await page.getByLabel("Name", { exact: true }).fill("Order form");
  const inspector = page.getByTestId("field-inspector");
  /** Adds a field of `type` (selected once added) and gives it a label. */
  const add = async (type: string, label?: string) => {
    await page.getByTestId(`palette-${type}`).click();
    if (label) await inspector.getByLabel("Label").fill(label);
  };
  await add("signature");
  await add("dropdown", "Plan");
  await inspector.getByTestId("field-options").fill("Basic\nTeam\n");
  await add("number", "Seats");
  await inspector.getByLabel("Minimum").fill("1");
  await inspector.getByLabel("Maximum").fill("50");
  await add("date", "Start date");
  for (const option of ["Monthly", "Yearly"]) {
    await add("radio", "Billing period");
    await inspector.getByTestId("field-group").fill("Billing");
    await inspector.getByTestId("field-option").fill(option);
  }
  for (const label of ["Support", "Training"]) {
    await add("checkbox", label);
    await inspector.getByTestId("field-group").fill("Extras");
  }
  await inspector.getByLabel("Check at most").fill("1");
  await add("attachment", "Copy of your ID");
  await add("text", "PO number");
  await inspector.getByLabel("Show only when").selectOption({ label: "Radio group: Billing" });
  await inspector.getByLabel("…reads").selectOption({ label: 'is "Yearly"' });
  await shot(page, "template-field-rules", false);
  await page.getByRole("button", { name: "Save template" }).click();
  await page.waitForURL(/\/templates\/[0-9a-f-]{36}$/);
  const templateId = page.url().split("/").at(-1) as string;

  const fields = ((await api(`/templates/${templateId}`)).body as { fields: Record<string, unknown>[] })
    .fields;
  const byLabel = (label: string) => fields.find((f) => f.label === label);
  expect(byLabel("Plan")).toMatchObject({ type: "dropdown", options: ["Basic", "Team"] });
  expect(byLabel("Seats")).toMatchObject({ type: "number", minimum: 1, maximum: 50 });
  expect(byLabel("Start date")).toMatchObject({ type: "date" });
  expect(fields.filter((f) => f.type === "radio").map((f) => [f.group, f.option])).toEqual([
    ["Billing", "Monthly"],
    ["Billing", "Yearly"],
  ]);
  expect(byLabel("Training")).toMatchObject({ type: "checkbox", group: "Extras", maximum: 1 });
  expect(byLabel("Copy of your ID")).toMatchObject({ type: "attachment" });
  const monthly = fields.find((f) => f.option === "Monthly");
  expect(byLabel("PO number")?.condition).toEqual({ fieldId: monthly?.id, value: "Yearly" });

  // Opened again, the condition reads as it was set.
  await page.reload();
  await page.locator('[data-testid="page-1"][data-rendered]').waitFor();
  await page.locator('[data-testid="placed-field"][data-type="text"]').click();
  await expect(
    inspector
      .getByLabel("Show only when")
      .evaluate(
        (select) => (select as unknown as { selectedOptions: { text: string }[] }).selectedOptions[0]?.text,
      ),
  ).resolves.toBe("Radio group: Billing");
  await context.close();
});

/** Drops a field kind from the palette at (x, y) points of page 1 of the document shown under `within`. */
async function dropField(page: Page, type: string, within: Locator, x: number, y: number) {
  // Pages are drawn as they come into view.
  await within.locator('[data-testid="page-1"]').scrollIntoViewIfNeeded();
  const target = within.locator('[data-testid="page-1"][data-rendered]');
  await target.waitFor();
  const box = (await target.boundingBox()) as { width: number };
  const scale = box.width / 595;
  await page
    .getByTestId(`palette-${type}`)
    .dragTo(target, { targetPosition: { x: x * scale, y: y * scale } });
}

async function uploadInBrowser(page: Page, name: string, pages: number) {
  await page.getByTestId("document-input").setInputFiles({
    name,
    mimeType: "application/pdf",
    buffer: Buffer.from(await makePdf(pages, name)),
  });
}

test("documents sent without a template: two PDFs, a signer, a copy and a second signer in order, fields on each document, a signer without a signature reported, reviewed and sent", async () => {
  const { context, page } = await openConsole(admin());
  await page.getByRole("link", { name: "Send documents" }).click();
  await page.getByRole("heading", { name: "The documents to sign" }).waitFor();
  await shot(page, "send-documents-start");
  await uploadInBrowser(page, "Contract.pdf", 2);
  const contract = page.locator('section[aria-label="Contract.pdf"]');
  await contract.locator('[data-testid="page-1"][data-rendered]').waitFor();
  await page.getByRole("button", { name: "Add a document" }).click();
  await uploadInBrowser(page, "Annex.pdf", 1);
  const annex = page.locator('section[aria-label="Annex.pdf"]');
  await annex.locator('[data-testid="page-1"]').scrollIntoViewIfNeeded();
  await annex.locator('[data-testid="page-1"][data-rendered]').waitFor();
  await expect(page.getByTestId("documents").locator("li").allInnerTexts()).resolves.toEqual([
    expect.stringMatching(/^Contract\.pdf\s*· 2 pages · 0 fields/),
    expect.stringMatching(/^Annex\.pdf\s*· 1 page · 0 fields/),
  ]);
  // The title comes from the first document, and the sender may change it.
  await expect(page.getByLabel("Title").inputValue()).resolves.toBe("Contract");
  await page.getByLabel("Title").fill("Contract with annex");

  const recipients = page.getByTestId("recipient");
  await recipients.nth(0).getByLabel("Name").fill("Ada Signer");
  await recipients.nth(0).getByLabel("E-mail").fill("ada@example.com");
  await page.getByRole("button", { name: "Add recipient" }).click();
  await recipients.nth(1).getByLabel("Name").fill("Cy Copy");
  await recipients.nth(1).getByLabel("E-mail").fill("cy@example.com");
  await recipients.nth(1).getByLabel("Does").selectOption("cc");
  await recipients.nth(1).getByLabel("Signing order").fill("1");
  await page.getByRole("button", { name: "Add recipient" }).click();
  await recipients.nth(2).getByLabel("Name").fill("Bo Second");
  await recipients.nth(2).getByLabel("E-mail").fill("bo@example.com");
  // A new recipient comes after everyone listed.
  await expect(recipients.nth(2).getByLabel("Signing order").inputValue()).resolves.toBe("2");
  // A viewer who must open the documents once Bo has signed.
  await page.getByRole("button", { name: "Add recipient" }).click();
  await recipients.nth(3).getByLabel("Name").fill("Vi Viewer");
  await recipients.nth(3).getByLabel("E-mail").fill("vi@example.com");
  await recipients.nth(3).getByLabel("Does").selectOption("viewer");

  const fieldsFor = page.getByTestId("field-palette").getByLabel("New fields are for");
  await fieldsFor.selectOption({ label: "Ada Signer" });
  await dropField(page, "signature", contract, 300, 600);
  // Following a link away asks first; staying keeps everything.
  const asked: string[] = [];
  page.once("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.locator(".crumb").getByRole("link", { name: "Signature requests" }).click();
  expect(asked).toEqual(["Leave this page? What you changed here is not saved."]);
  await expect(page.getByLabel("Title").inputValue()).resolves.toBe("Contract with annex");
  await page.getByRole("button", { name: "Review and send" }).click();
  await shows(
    page.getByTestId("request-problems"),
    "Bo Second: no required signature field yet: place one for them",
  );
  await shot(page, "send-documents-problems", false);
  await page.setViewportSize(PHONE);
  await shot(page, "phone-send-documents-composing");
  await page.setViewportSize(DESKTOP);
  await fieldsFor.selectOption({ label: "Bo Second" });
  await dropField(page, "signature", annex, 300, 500);
  await page.getByTestId("palette-date_signed").click();
  await page.getByRole("button", { name: "Review and send" }).click();
  const review = page.getByTestId("review-dialog");
  await shows(
    review,
    "First: Ada Signer <ada@example.com> (signs, 1 field); Cy Copy <cy@example.com> (gets a copy)",
  );
  await shows(review, "Then (order 2): Bo Second <bo@example.com> (signs, 2 fields)");
  await shows(review, "Then (order 3): Vi Viewer <vi@example.com> (must view)");
  await shot(page, "send-documents-review", false);
  await review.getByRole("button", { name: "Send for signature" }).click();
  await page.getByRole("heading", { name: "Contract with annex", exact: true }).waitFor();
  await shows(page.locator(".badge"), "Sent", true);

  const requestId = page.url().split("/").at(-1) as string;
  const stored = (await api(`/signature-requests/${requestId}`)).body as {
    templateId: string | null;
    documentIds: string[];
    recipients: { id: string; name: string; kind: string; routingOrder: number }[];
    fields: { type: string; recipientId: string; documentId: string; page: number }[];
  };
  expect(stored.templateId).toBeNull();
  expect(stored.documentIds).toHaveLength(2);
  const [contractId, annexId] = stored.documentIds;
  const idOf = (name: string) => stored.recipients.find((r) => r.name === name)?.id;
  expect(stored.recipients.map((r) => [r.name, r.kind, r.routingOrder])).toEqual([
    ["Ada Signer", "signer", 1],
    ["Cy Copy", "cc", 1],
    ["Bo Second", "signer", 2],
    ["Vi Viewer", "viewer", 3],
  ]);
  expect(stored.fields.map((f) => [f.type, f.recipientId, f.documentId])).toEqual([
    ["signature", idOf("Ada Signer"), contractId],
    ["signature", idOf("Bo Second"), annexId],
    // Added by keyboard: page 1 of the first document.
    ["date_signed", idOf("Bo Second"), contractId],
  ]);
  await context.close();
});

test("text tags: a PDF whose text holds {{signature:Client}} and {{text:Client:Company}} gets a signer for Client and those fields, listed before sending, and the request places them on the tags", async () => {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const sheet = pdf.addPage([612, 792]);
  sheet.drawText("Service agreement", { x: 72, y: 720, size: 18, font });
  sheet.drawText("{{signature:Client}}", { x: 72, y: 600, size: 11, font });
  sheet.drawText("{{text:Client:Company}}", { x: 72, y: 520, size: 11, font });
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/send`);
  await page.getByRole("heading", { name: "The documents to sign" }).waitFor();
  await page.getByTestId("document-input").setInputFiles({
    name: "Tagged.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(await pdf.save()),
  });
  const notes = page.getByTestId("text-tags");
  await shows(notes, "2 fields from text tags in the documents");
  await shows(notes, "signature for Client, Tagged.pdf page 1");
  await shows(notes, "text “Company” for Client, Tagged.pdf page 1");
  const recipients = page.getByTestId("recipient");
  await expect(recipients.count()).resolves.toBe(1);
  await recipients.nth(0).getByLabel("Name").fill("Cleo Client");
  await recipients.nth(0).getByLabel("E-mail").fill("cleo@example.com");
  await shot(page, "send-documents-text-tags");
  await page.getByRole("button", { name: "Review and send" }).click();
  await page.getByTestId("review-dialog").getByRole("button", { name: "Send for signature" }).click();
  await page.getByRole("heading", { name: "Tagged", exact: true }).waitFor();
  const requestId = page.url().split("/").at(-1) as string;
  const stored = (await api(`/signature-requests/${requestId}`)).body as {
    recipients: { role: string }[];
    fields: { type: string; label: string; cover?: object }[];
  };
  expect(stored.recipients.map((r) => r.role)).toEqual(["Client"]);
  expect(stored.fields.map((f) => [f.type, f.label, f.cover !== undefined])).toEqual([
    ["signature", "", true],
    ["text", "Company", true],
  ]);
  await context.close();
});

test("a Word document with text tags is made a PDF when it is uploaded: the page shows it, and its tags add the signer and place the fields", async () => {
  const docx = makeDocx({
    paragraphs: ["Consulting agreement", "Client: {{signature:Client}}", "Company: {{text:Client:Company}}"],
  });
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/send`);
  await page.getByRole("heading", { name: "The documents to sign" }).waitFor();
  await page.getByTestId("document-input").setInputFiles({
    name: "Consulting.docx",
    mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    buffer: Buffer.from(docx),
  });
  const notes = page.getByTestId("text-tags");
  await shows(notes, "2 fields from text tags in the documents");
  await shows(notes, "signature for Client, Consulting.pdf page 1");
  const sheet = page.locator('section[aria-label="Consulting.pdf"]');
  await sheet.locator('[data-testid="page-1"][data-rendered]').waitFor();
  await page.getByTestId("recipient").nth(0).getByLabel("Name").fill("Cleo Client");
  await page.getByTestId("recipient").nth(0).getByLabel("E-mail").fill("cleo@example.com");
  await shot(page, "send-documents-word");
  await page.getByRole("button", { name: "Review and send" }).click();
  await page.getByTestId("review-dialog").getByRole("button", { name: "Send for signature" }).click();
  await page.getByRole("heading", { name: "Consulting", exact: true }).waitFor();
  const requestId = page.url().split("/").at(-1) as string;
  const stored = (await api(`/signature-requests/${requestId}`)).body as {
    fields: { type: string; label: string; cover?: object }[];
  };
  expect(stored.fields.map((f) => [f.type, f.label, f.cover !== undefined])).toEqual([
    ["signature", "", true],
    ["text", "Company", true],
  ]);
  await context.close();
});

test("a file of a kind that cannot be signed is refused in place, before it is sent", async () => {
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/send`);
  await page.getByRole("heading", { name: "The documents to sign" }).waitFor();
  await page.getByTestId("document-input").setInputFiles({
    name: "budget.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: Buffer.from("PK"),
  });
  await shows(
    page.getByRole("alert"),
    "budget.xlsx is not a document that can be signed. Choose a PDF, Word (.docx), .odt, .rtf, .png or .jpg file.",
  );
  await context.close();
});

test("a one-off request of one document saved as a template: its signers become the template's roles", async () => {
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/send`);
  await uploadInBrowser(page, "Offer letter.pdf", 1);
  const offer = page.locator('section[aria-label="Offer letter.pdf"]');
  await offer.locator('[data-testid="page-1"][data-rendered]').waitFor();
  await page.getByTestId("recipient").nth(0).getByLabel("Name").fill("Ivy Hire");
  await page.getByTestId("recipient").nth(0).getByLabel("E-mail").fill("ivy@example.com");
  await dropField(page, "signature", offer, 300, 650);
  await page.getByRole("button", { name: "Save as template" }).click();
  const saved = page.getByRole("link", { name: "Offer letter" });
  await saved.waitFor();
  const templateId = ((await saved.getAttribute("href")) as string).split("/").at(-1) as string;
  const template = (await api(`/templates/${templateId}`)).body as {
    name: string;
    roles: { name: string; order: number }[];
    fields: { type: string; role: string }[];
  };
  expect(template.name).toBe("Offer letter");
  expect(template.roles).toEqual([{ name: "Signer 1", order: 1 }]);
  expect(template.fields.map((f) => [f.type, f.role])).toEqual([["signature", "Signer 1"]]);

  // The templates list offers it for use: a request from it, the template already chosen.
  await page.goto(`${gateway}/console/w/${key.accountId}/templates`);
  await page.getByRole("link", { name: "Use the template Offer letter" }).click();
  await page.waitForURL(`**/requests/new?templateId=${templateId}`);
  await expect(page.getByLabel("Template", { exact: true }).inputValue()).resolves.toBe(templateId);
  await context.close();
});

/** A request's page on a phone: `testId` shows `text` and nothing sticks out past the edge; a screenshot. */
async function requestOnPhone(requestId: string, testId: string, text: string, name: string) {
  const { context, page } = await openConsole(admin(), PHONE, false, true);
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/${requestId}`);
  await shows(page.getByTestId(testId), text);
  expect(await page.evaluate(STICKING_OUT)).toEqual([]);
  await shot(page, `phone-${name}`);
  await context.close();
}

/** A request whose signer attached papers.pdf and signed: its page has an attachment row. */
async function requestWithAttachment() {
  const upload = await api("/documents/upload?filename=application.pdf", {
    method: "POST",
    body: await makePdf(1, "Application"),
    headers: { "content-type": "application/pdf" },
  });
  const created = await api("/signature-requests", {
    method: "POST",
    json: {
      title: "Application with papers",
      documentIds: [(upload.body as { id: string }).id],
      fields: [
        { type: "signature", role: "applicant", page: 1, x: 60, y: 600, width: 200, height: 50 },
        {
          id: "papers",
          type: "attachment",
          role: "applicant",
          page: 1,
          x: 300,
          y: 600,
          width: 200,
          height: 30,
        },
      ],
      recipients: [
        { name: "Ana Applicant", email: "ana@example.com", role: "applicant", clientUserId: "ana" },
      ],
      send: true,
    },
  });
  const request = created.body as { id: string; recipients: { id: string }[] };
  const signing = await api("/embedded-signing-url", {
    method: "POST",
    json: { requestId: request.id, recipientId: request.recipients[0]?.id },
  });
  const signer = new SignerBrowser(gateway);
  await signer.open((signing.body as { url: string }).url);
  const form = new FormData();
  form.append("file", new Blob([await makePdf(1, "Papers")], { type: "application/pdf" }), "papers.pdf");
  const attached = await fetch(`${gateway}/sign/api/attachments/papers`, {
    method: "POST",
    headers: { cookie: signer.cookie },
    body: form,
  });
  const { id: attachmentId } = (await attached.json()) as { id: string };
  const session = (await signer.call("/sign/api/session")).body as { fields: { id: string; type: string }[] };
  const values = Object.fromEntries(
    session.fields.map((f) => [
      f.id,
      f.type === "attachment" ? { kind: "attachment", id: attachmentId } : { kind: "typed", text: "Ana" },
    ]),
  );
  const submitted = await signer.call("/sign/api/submit", { consent: true, values });
  expect({ status: submitted.status, text: submitted.status === 200 ? "" : submitted.text }).toEqual({
    status: 200,
    text: "",
  });

  return request;
}

test("a file a signer attached is offered on the request's page, named with who attached it, and downloads", async () => {
  const request = await requestWithAttachment();
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/${request.id}`);
  const row = page.getByTestId("signer-attachment");
  await shows(row, "papers.pdf");
  await shows(row, "attached by Ana Applicant");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: "Download papers.pdf" }).click(),
  ]);
  const pdf = await readFile((await download.path()) as string);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  // …and under the signer who attached it, where the sender reads what each signer did.
  const signerRow = page.getByTestId("recipients").locator("li.row", { hasText: "Ana Applicant" });
  const attachedLine = signerRow.getByTestId("recipient-attachment");
  await shows(attachedLine, "Attached papers.pdf");
  const [again] = await Promise.all([
    page.waitForEvent("download"),
    attachedLine.getByRole("link", { name: "papers.pdf" }).click(),
  ]);
  expect((await readFile((await again.path()) as string)).subarray(0, 5).toString()).toBe("%PDF-");
  await shot(page, "request-attachment");
  await context.close();
  await requestOnPhone(request.id, "recipient-attachment", "Attached papers.pdf", "request-attachment");
});

/** A request whose signer, Olga Owner at `from`, handed her place to Dana Deputy, saying why. */
async function handedOverRequest(from = "olga@example.com") {
  const upload = await api("/documents/upload?filename=handover.pdf", {
    method: "POST",
    body: await makePdf(1, "Handover"),
    headers: { "content-type": "application/pdf" },
  });
  const created = await api("/signature-requests", {
    method: "POST",
    json: {
      title: "Handover note",
      documentIds: [(upload.body as { id: string }).id],
      fields: [{ type: "signature", role: "owner", page: 1, x: 60, y: 600, width: 200, height: 50 }],
      recipients: [{ name: "Olga Owner", email: from, role: "owner" }],
      allowReassign: true,
      send: true,
    },
  });
  const request = created.body as { id: string };
  // Only a signer who came by e-mail may hand their place on.
  const link = await eventually(async () => {
    const mail = (await outboxMails(deployment.dataDir)).find((m) => m.to === from && m.link);
    return mail?.link;
  });
  const signer = new SignerBrowser(gateway);
  await signer.open(link);
  const handed = await signer.call("/sign/api/reassign", {
    name: "Dana Deputy",
    email: "dana@example.com",
    reason: "Olga is on leave",
  });
  expect(handed.status).toBe(200);
  return request;
}

test("an audit entry opens to what it records: a reassignment names who it went to and why", async () => {
  const request = await handedOverRequest();

  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/${request.id}`);
  const entry = page.getByTestId("audit-trail").locator("details", { hasText: "reassigned" });
  await entry.locator("summary").click();
  const recorded = entry.locator(".audit-details");
  await shows(recorded, "Olga Owner <olga@example.com>");
  await shows(recorded, "Dana Deputy <dana@example.com>");
  await shows(recorded, "Olga is on leave");
  // The hand-over is said under the signer who has the place now, not only in the audit entry.
  const handedTo = page.getByTestId("recipients").locator("li.row", { hasText: "Dana Deputy" });
  const line = handedTo.getByTestId("recipient-handover");
  await shows(line, "Handed over by Olga Owner (olga@example.com) to Dana Deputy (dana@example.com)");
  await shows(line, "“Olga is on leave”");
  await expect(line.locator("bdi").allTextContents()).resolves.toEqual([
    "Olga Owner",
    "Dana Deputy",
    "Olga is on leave",
  ]);
  await shot(page, "request-handover");
  await context.close();
  await requestOnPhone(request.id, "recipient-handover", "Handed over by Olga Owner", "request-handover");
});

test("the requests list searches titles and recipients, filters by creation day and sorts", async () => {
  await makeRequest("Quarterly zebra report", false);
  await makeRequest("Annual aardvark review", false);
  const { context, page } = await openConsole(admin());
  const titles = () => page.getByTestId("requests").locator(".row-title").allInnerTexts();
  await page.getByLabel("Search").fill("zebra");
  await eventually(async () => {
    const shown = await titles();
    return (shown.length === 1 && shown[0] === "Quarterly zebra report") || undefined;
  });
  // The recipient's address finds them too (makeRequest's signer is tess@example.com).
  await page.getByLabel("Search").fill("TESS@EXAMPLE");
  await eventually(async () => ((await titles()).length >= 2 ? true : undefined));
  await page.getByLabel("Search").fill("a");
  await page.getByLabel("Sort").selectOption("title");
  await eventually(async () => {
    const shown = await titles();
    return (shown[0] === "Annual aardvark review" && shown.length > 1) || undefined;
  });
  await shot(page, "requests-search");
  // Nothing was created tomorrow.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Created from").fill(tomorrow);
  await page.getByText("No request matches").waitFor();
  await context.close();
});

test("a title and a signer's name in another direction are set apart in the requests list and on the request's page", async () => {
  const title = "Consulting offer — عرض استشاري";
  await makeRequest(title, false, { name: "محمد عبد الله", email: "mohammed@example.com" });
  const { context, page } = await openConsole(admin());
  await page.getByLabel("Search").fill("Consulting offer");
  // The list the search answers, not the one shown before it: other tests' requests are gone from it.
  const rows = page.getByTestId("requests").locator(".row");
  await eventually(async () => ((await rows.count()) === 1 ? true : undefined));
  const row = rows.filter({ hasText: "Consulting offer" });
  // Each isolated, the name does not take the count with it: "محمد عبد الله · 0 of 1 signed", not
  // "1 · محمد عبد الله of 1 signed".
  await expect(row.locator(".row-title bdi").textContent()).resolves.toBe(title);
  await expect(row.getByTestId("request-signers").locator("bdi").allTextContents()).resolves.toEqual([
    "محمد عبد الله",
  ]);
  await row.locator(".row-title").click();
  await expect(page.locator("h1#request-title").getAttribute("dir")).resolves.toBe("auto");
  await expect(page.getByTestId("recipients").locator("bdi").first().textContent()).resolves.toBe(
    "محمد عبد الله",
  );
  await context.close();
});

test("what the console says after an action, and the dialogs that ask first, set a name in another direction apart", async () => {
  const name = "محمد عبد الله";
  const request = await makeRequest("Notice check", true, { name, email: "mohammed.notice@example.com" });
  const keyName = "مفتاح الفوترة";
  await deployment.cli("keys", "create", "--name", keyName);
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/${request.id}`);
  await page.getByRole("button", { name: `Remind ${name}` }).click();
  // The name isolated, "has been reminded." stays after it rather than before it.
  const notice = page.locator(".note.success", { hasText: "has been reminded." });
  await notice.waitFor();
  await expect(notice.locator("bdi").allTextContents()).resolves.toEqual([name]);
  await shot(page, "notice-isolated");
  // A dialog's title is a string: first-strong isolate and pop around the name.
  await page.goto(`${gateway}/console/w/${key.accountId}/developer/api-keys`);
  await page.getByRole("button", { name: `Delete the key ${keyName}` }).click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog.locator("h2").textContent()).resolves.toBe(`Delete “\u2068${keyName}\u2069”?`);
  await shot(page, "confirm-isolated", false);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await context.close();
});

/** A request of two signers whose first declined, saying why; the second was never asked. */
async function declinedRequest(title: string, tag: string) {
  const upload = await api("/documents/upload?filename=rent.pdf", {
    method: "POST",
    body: await makePdf(1, "Rent"),
    headers: { "content-type": "application/pdf" },
  });
  const documentId = (upload.body as { id: string }).id;
  const created = await api("/signature-requests", {
    method: "POST",
    json: {
      title,
      documentIds: [documentId],
      fields: [
        { type: "signature", role: "tenant", page: 1, x: 60, y: 600, width: 200, height: 50 },
        { type: "signature", role: "landlord", page: 1, x: 300, y: 600, width: 200, height: 50 },
      ],
      recipients: [
        {
          name: "Tess Tenant",
          email: `tess.${tag}@example.com`,
          role: "tenant",
          clientUserId: `tess-${tag}`,
        },
        { name: "Lars Landlord", email: `lars.${tag}@example.com`, role: "landlord", routingOrder: 2 },
      ],
      send: true,
    },
  });
  expect(created.status).toBe(201);
  const request = created.body as { id: string; recipients: { id: string }[] };
  const signing = await api("/embedded-signing-url", {
    method: "POST",
    json: { requestId: request.id, recipientId: request.recipients[0]?.id },
  });
  const tenant = new SignerBrowser(gateway);
  await tenant.open((signing.body as { url: string }).url);
  expect((await tenant.call("/sign/api/decline", { reason: "The rent is wrong" })).status).toBe(200);
  return { request, documentId };
}

test("a declined request says who declined and why, shows who was never asked, and is corrected and sent again from a copy", async () => {
  const { request, documentId } = await declinedRequest("Rent agreement", "1");

  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/${request.id}`);
  await shows(page.getByTestId("ended-note"), "Tess Tenant declined to sign");
  await shows(page.getByTestId("ended-note"), "“The rent is wrong”");
  await shows(page.getByTestId("recipients").locator("li", { hasText: "Lars Landlord" }), "not asked");
  // Under the signer too: who declined, when, and their reason in their own words.
  const declined = page
    .getByTestId("recipients")
    .locator("li.row", { hasText: "Tess Tenant" })
    .getByTestId("recipient-declined");
  await shows(declined, "Declined by Tess Tenant");
  await shows(declined, "“The rent is wrong”");
  await declined.locator("time").waitFor();
  await shot(page, "request-declined");
  await requestOnPhone(request.id, "recipient-declined", "Declined by Tess Tenant", "request-declined");
  await page.getByRole("link", { name: "Correct and send again" }).click();
  await page.getByRole("heading", { name: "Send again" }).waitFor();
  await page.locator('section[aria-label="rent.pdf"] [data-testid="page-1"][data-rendered]').waitFor();
  await expect(page.getByLabel("Title").inputValue()).resolves.toBe("Rent agreement");
  const recipients = page.getByTestId("recipient");
  await expect(recipients.nth(0).getByLabel("Name").inputValue()).resolves.toBe("Tess Tenant");
  await expect(recipients.nth(1).getByLabel("Signing order").inputValue()).resolves.toBe("2");
  await shows(page.getByTestId("documents"), "2 fields");
  await shot(page, "request-send-again", false);
  await page.getByRole("button", { name: "Review and send" }).click();
  await page.getByTestId("review-dialog").getByRole("button", { name: "Send for signature" }).click();
  await page.getByRole("heading", { name: "Rent agreement", exact: true }).waitFor();
  await shows(page.locator(".badge"), "Sent", true);
  const againId = page.url().split("/").at(-1) as string;
  expect(againId).not.toBe(request.id);
  const again = (await api(`/signature-requests/${againId}`)).body as {
    status: string;
    documentIds: string[];
    recipients: { name: string; routingOrder: number }[];
    fields: unknown[];
  };
  expect(again.status).toBe("sent");
  expect(again.documentIds).toEqual([documentId]);
  expect(again.recipients.map((r) => [r.name, r.routingOrder])).toEqual([
    ["Tess Tenant", 1],
    ["Lars Landlord", 2],
  ]);
  expect(again.fields).toHaveLength(2);
  await context.close();
});

test("bulk send: a CSV file with a bad line is refused naming it and sends nothing; the corrected file's lines are sent, followed to the end with each row's request; a long batch is cancelled part-way", async () => {
  const upload = await api("/documents/upload?filename=offer.pdf", {
    method: "POST",
    body: await makePdf(1, "Offer"),
    headers: { "content-type": "application/pdf" },
  });
  const at = { page: 1, x: 60, width: 220, height: 28, role: "Candidate" };
  const template = await api("/templates", {
    method: "POST",
    json: {
      name: "Offer for bulk",
      documentId: (upload.body as { id: string }).id,
      roles: [{ name: "Candidate" }],
      fields: [
        { ...at, type: "signature", y: 620, height: 40 },
        { ...at, type: "text", y: 560, label: "Salary" },
      ],
    },
  });
  const templateId = (template.body as { id: string }).id;
  const csvTemplate = await api(`/bulk-sends/csv-template?templateId=${templateId}`);
  // fetch's text() drops the byte order mark that tells spreadsheets the file is UTF-8.
  expect([csvTemplate.headers.get("content-type"), csvTemplate.text]).toEqual([
    "text/csv; charset=utf-8",
    "Candidate name,Candidate email,Salary\r\n",
  ]);

  const { context, page } = await openConsole(admin());
  await page.getByRole("link", { name: "Bulk send" }).click();
  await page.getByRole("heading", { name: "New bulk send" }).waitFor();
  await page.getByLabel("Template").selectOption({ label: "Offer for bulk" });
  await expect(page.getByLabel("Title").inputValue()).resolves.toBe("Offer for bulk");
  await expect(
    page.getByRole("link", { name: "Download the CSV file to fill in" }).getAttribute("href"),
  ).resolves.toContain(`/bulk-sends/csv-template?templateId=${templateId}`);
  const file = (lines: string[]) => ({
    name: "offers.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(["Candidate name,Candidate email,Salary", ...lines].join("\n")),
  });
  await page
    .getByLabel("CSV file")
    .setInputFiles(
      file([
        "Ann Able,ann@example.com,50000",
        "Ben Bad,not-an-address,51000",
        "Cat Cole,cat@example.com,52000",
      ]),
    );
  await page.getByRole("button", { name: "Check and send" }).click();
  const problems = page.getByTestId("bulk-problems");
  await shows(problems, "Nothing was sent.");
  await shows(problems, "line 3:");
  await shot(page, "bulk-send-problems");
  const before = ((await api("/bulk-sends")).body as { totalCount: number }).totalCount;

  await page
    .getByLabel("CSV file")
    .setInputFiles(
      file([
        "Ann Able,ann@example.com,50000",
        "Ben Good,ben@example.com,51000",
        "Cat Cole,cat@example.com,52000",
      ]),
    );
  await page.getByRole("button", { name: "Check and send" }).click();
  await page.getByRole("heading", { name: "Offer for bulk" }).waitFor();
  await shows(page.locator(".badge"), "Completed");
  await shows(page.getByTestId("bulk-counts"), "Sent3");
  const rows = page.getByTestId("bulk-rows");
  await shows(rows, "Ben Good <ben@example.com>");
  // The rows are read once more when the batch ends: its last row's request shows without a reload.
  const opened = rows.getByRole("link", { name: "Open the request" });
  await opened.nth(2).waitFor();
  expect(await opened.count()).toBe(3);
  expect(((await api("/bulk-sends")).body as { totalCount: number }).totalCount).toBe(before + 1);
  await shot(page, "bulk-send-done");
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(STICKING_OUT)).toEqual([]);
  await shot(page, "bulk-send-done-390");
  await page.setViewportSize(DESKTOP);
  await rows.getByRole("link", { name: "Open the request" }).nth(1).click();
  await page.getByRole("heading", { name: "Offer for bulk" }).waitFor();
  await shows(page.locator("main"), "Ben Good");

  // A thousand rows take long enough to stop part-way.
  const many = Array.from({ length: 1000 }, (_, i) => ({
    recipients: [{ name: `Person ${i}`, email: `person${i}@example.com`, role: "Candidate" }],
    mergeFields: { Salary: String(40000 + i) },
  }));
  const long = await api("/bulk-sends", {
    method: "POST",
    json: { templateId, title: "Long offer run", rows: many },
  });
  expect(long.status).toBe(202);
  const longId = (long.body as { id: string }).id;
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/bulk/${longId}`);
  await shows(page.locator("label[for=bulk-progress]"), "Sending:");
  await shot(page, "bulk-send-running");
  await page.getByRole("button", { name: "Cancel the rest" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Cancel the rest" }).click();
  await shows(page.locator(".badge"), "Cancelled");
  const stopped = (await api(`/bulk-sends/${longId}`)).body as {
    cancelled: number;
    sent: number;
    total: number;
  };
  expect(stopped.cancelled).toBeGreaterThan(0);
  expect(stopped.sent + stopped.cancelled).toBe(1000);
  await page.getByLabel("Show").selectOption({ label: "Cancelled" });
  await shows(page.getByTestId("bulk-rows"), "Cancelled");
  await context.close();
});

/** Table cells past the right edge (in a scroller or not), and a row's main text under 200 px wide. */
const CUT_OR_SQUEEZED = `(() => {
  const shown = (el) => el.getBoundingClientRect().width > 1;
  const cells = [...document.querySelectorAll("td")].filter(
    (el) => shown(el) && el.getBoundingClientRect().right > window.innerWidth + 1,
  );
  const squeezed = [...document.querySelectorAll(".row-main")].filter(
    (el) => shown(el) && el.getBoundingClientRect().width < 200,
  );
  return [...cells, ...squeezed].map((el) => el.tagName.toLowerCase() + ": " + el.textContent.slice(0, 40));
})()`;

test("at phone width (390 px) every page fits without sideways scrolling", async () => {
  const { context, page } = await openConsole(admin(), PHONE);
  const pages = [
    "requests",
    "requests/new",
    "requests/send",
    "requests/bulk",
    "templates",
    "templates/new",
    "settings/members",
    "settings/workspace",
    "settings/requests",
    "settings/branding",
    "settings/single-sign-on",
    "developer/api-keys",
    "developer/webhooks",
    "developer/configuration",
    "developer/embedding",
    "developer/errors",
    "developer/usage",
  ];
  for (const path of pages) {
    await page.goto(`${gateway}/console/w/${key.accountId}/${path}`);
    await page.locator("main h1").waitFor();
    // Polled from here: the page's CSP refuses the eval that waitForFunction would need.
    await eventually(async () => (await page.locator(".state").count()) === 0 || undefined);
    // The page clips sideways overflow, so look for boxes past the right edge outside a scroller.
    const sticking = await page.evaluate(STICKING_OUT);
    expect({ path, sticking }).toEqual({ path, sticking: [] });
    // Nor is a table's column left past the edge inside its scroller, or a row's text squeezed
    // into a narrow column beside its buttons.
    const cut = await page.evaluate(CUT_OR_SQUEEZED);
    expect({ path, cut }).toEqual({ path, cut: [] });
    await shot(page, `phone-${path.replace("/", "-")}`);
  }
  // A webhook endpoint's page: its URL heads the card above its buttons.
  const endpoints = (await page.evaluate(
    `fetch("/console/api/workspaces/${key.accountId}/webhook-endpoints").then((r) => r.json())`,
  )) as { items: { id: string }[] };
  for (const endpoint of endpoints.items.slice(0, 1)) {
    await page.goto(`${gateway}/console/w/${key.accountId}/developer/webhooks/${endpoint.id}`);
    await page.locator("#endpoint-title").waitFor();
    expect({ cut: await page.evaluate(CUT_OR_SQUEEZED) }).toEqual({ cut: [] });
  }
  // The workspace has a line of its own, so its whole name shows.
  const switcher = (await page.locator("#workspace").boundingBox()) as { width: number };
  expect(switcher.width).toBeGreaterThan(300);
  // The Developer tabs do not fit: they scroll, with a shadow at the edge that has more.
  const tabs = page.locator("nav.tabs");
  const overflows = await tabs.evaluate((el) => el.scrollWidth > el.clientWidth);
  const shadow =
    (await tabs.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundImage)) ?? "";
  expect({ overflows, shadow: shadow.includes("radial-gradient") }).toEqual({
    overflows: true,
    shadow: true,
  });

  // A field of each kind, at its default size on a page shown this narrow: no label is cut.
  await page.goto(`${gateway}/console/w/${key.accountId}/requests/send`);
  await uploadInBrowser(page, "Narrow.pdf", 1);
  // A page is drawn once it comes near the window: on a phone the form's column is above it.
  await page.getByTestId("page-1").scrollIntoViewIfNeeded();
  await page.locator('[data-testid="page-1"][data-rendered]').waitFor();
  const labelled = ["signature", "initials", "date_signed", "name", "email", "text"];
  labelled.push("dropdown", "number", "date", "attachment");
  for (const type of labelled) await page.getByTestId(`palette-${type}`).click();
  const labels = page.locator('[data-testid="placed-field"] .placed-field-label');
  await eventually(async () => ((await labels.count()) === labelled.length ? true : undefined));
  const cut = await labels.evaluateAll((spans) =>
    spans.filter((span) => span.scrollWidth > span.clientWidth).map((span) => span.textContent),
  );
  expect(cut).toEqual([]);
  await page.getByTestId("page-1").screenshot({ path: join(ARTIFACTS, "console-phone-fields.png") });
  await context.close();
});

// Two tests per width, the pages as they open and the pages holding what a user made, so that
// each stays well inside its time on a slow machine.
describe.each([
  ["desktop", DESKTOP],
  ["phone", PHONE],
])(
  "at %s width no console page has a serious or critical WCAG 2.2 AA violation (axe-core)",
  (name, viewport) => {
    test("on every page as it opens, and the pages an e-mail's link opens", async () => {
      // axe-core is injected as a script, which the console's own CSP rightly refuses.
      const { context, page } = await openConsole(admin(), viewport, true);
      const request = await makeRequest("Accessibility check", true);
      // Recent Errors and API Usage with rows, as a user with traffic sees them.
      await api("/signature-requests/00000000-0000-7000-8000-000000000000");
      await eventually(async () => {
        const listed = (await page.evaluate(
          `fetch("/console/api/workspaces/${key.accountId}/recent-errors").then((r) => r.json())`,
        )) as { items: unknown[] };
        return listed.items.length > 0 || undefined;
      });
      const { items } = (await api("/templates?pageSize=1")).body as { items: { id: string }[] };
      const pages = [
        "requests",
        `requests/${request.id}`,
        "requests/new",
        "requests/send",
        "requests/bulk",
        "templates",
        "templates/new",
        ...(items[0] ? [`templates/${items[0].id}`] : []),
        "developer/api-keys",
        "developer/webhooks",
        "developer/configuration",
        "developer/embedding",
        "developer/errors",
        "developer/usage",
        "settings/members",
        "settings/workspace",
        "settings/requests",
        "settings/branding",
        "settings/single-sign-on",
      ];
      const found: string[] = [];
      for (const path of pages) {
        await page.goto(`${gateway}/console/w/${key.accountId}/${path}`);
        await page.locator("main h1").waitFor();
        await eventually(async () => (await page.locator(".state").count()) === 0 || undefined);
        found.push(...(await seriousViolations(page)).map((v) => `${path}: ${v}`));
      }
      // The pages an e-mail's link opens (a dead invitation link shows its note).
      for (const path of ["forgot-password", "invitation#token=not-a-token", "reset-password#token=x"]) {
        await page.goto(`${gateway}/console/${path}`);
        await page.locator("main h1").waitFor();
        await eventually(async () => (await page.locator(".state").count()) === 0 || undefined);
        found.push(...(await seriousViolations(page)).map((v) => `${path}: ${v}`));
      }
      expect(found).toEqual([]);
      await context.close();
    });

    test("on pages holding what a user made: an invitation, a draft, signers' history, placed boxes, a batch", async () => {
      const { context, page } = await openConsole(admin(), viewport, true);
      const found: string[] = [];
      // Team with an invitation waiting, whose row has its own buttons.
      await page.goto(`${gateway}/console/w/${key.accountId}/settings/members`);
      await page.getByRole("button", { name: "Invite people" }).click();
      const dialog = page.getByTestId("invite-dialog");
      await dialog.getByLabel("E-mail").fill(`axe.${viewport.width}@example.com`);
      await dialog.getByRole("button", { name: "Send invitation" }).click();
      await shows(page.getByTestId("invitations"), `axe.${viewport.width}@example.com`);
      found.push(...(await seriousViolations(page)).map((v) => `settings/members (invited): ${v}`));
      // The composer, once it holds a document.
      await page.goto(`${gateway}/console/w/${key.accountId}/requests/send`);
      await uploadInBrowser(page, "Checked.pdf", 1);
      // A page is drawn once it comes near the window: on a phone the form's column is above it.
      await page.getByTestId("page-1").scrollIntoViewIfNeeded();
      await page.locator('[data-testid="page-1"][data-rendered]').waitFor();
      await page.getByTestId("palette-signature").click();
      found.push(...(await seriousViolations(page)).map((v) => `requests/send (composing): ${v}`));

      // A request's page with what happened under each signer: an attachment row, a hand-over, a
      // decline; and an audit entry opened to its details.
      const attached = await requestWithAttachment();
      const handedOver = await handedOverRequest(`axe.olga.${viewport.width}@example.com`);
      const { request: declined } = await declinedRequest(
        `Declined ${viewport.width}`,
        `axe-${viewport.width}`,
      );
      for (const [state, id] of [
        ["attachment", attached.id],
        ["hand-over", handedOver.id],
        ["declined", declined.id],
      ] as const) {
        await page.goto(`${gateway}/console/w/${key.accountId}/requests/${id}`);
        await page.getByTestId("recipients").locator("li.row").first().waitFor();
        await eventually(async () => (await page.locator(".state").count()) === 0 || undefined);
        const summary = page.getByTestId("audit-trail").locator("summary").last();
        await summary.click();
        await page.getByTestId("audit-trail").locator("details[open] .audit-details").waitFor();
        found.push(
          ...(await seriousViolations(page)).map((v) => `requests/${state} (audit entry open): ${v}`),
        );
      }
      // The template editor with boxes of two roles placed, labelled, one selected.
      const template = await twoRoleTemplate();
      await page.goto(`${gateway}/console/w/${key.accountId}/templates/${template}`);
      await page.getByTestId("page-1").scrollIntoViewIfNeeded();
      await page.locator('[data-testid="page-1"][data-rendered]').waitFor();
      await page.getByTestId("placed-field").first().click();
      await page.getByTestId("field-inspector").waitFor();
      found.push(...(await seriousViolations(page)).map((v) => `templates/edit (boxes placed): ${v}`));
      // A bulk send's rows: a table shown as cards on a phone (table.stacked).
      const bulk = await api("/bulk-sends", {
        method: "POST",
        json: {
          templateId: template,
          title: "Axe batch",
          csv: `Tenant name,Tenant email,Landlord name,Landlord email,Company name\nTia,tia.${viewport.width}@example.com,Lee,lee.${viewport.width}@example.com,Acme`,
        },
      });
      expect(bulk.status).toBe(202);
      await page.goto(
        `${gateway}/console/w/${key.accountId}/requests/bulk/${(bulk.body as { id: string }).id}`,
      );
      await page.getByTestId("bulk-rows").locator("tbody tr").first().waitFor();
      found.push(...(await seriousViolations(page)).map((v) => `requests/bulk/:id (rows): ${v}`));
      // The team's activity, a stacked table too.
      await page.goto(`${gateway}/console/w/${key.accountId}/settings/workspace`);
      await page.getByTestId("audit").locator("tbody tr").first().waitFor();
      if (viewport === PHONE) {
        // Shown as cards: each row a block of its own, as axe reads it.
        const row = page.locator("table.stacked tbody tr").first();
        await expect(
          row.evaluate((tr) => tr.ownerDocument.defaultView?.getComputedStyle(tr).display),
        ).resolves.toBe("block");
      }
      found.push(...(await seriousViolations(page)).map((v) => `settings/workspace (activity): ${v}`));
      await shot(page, `axe-${name}-workspace`);
      expect(found).toEqual([]);
      await context.close();
    });
  },
);

/** A template of two roles with labelled boxes of several kinds: its id. */
async function twoRoleTemplate(): Promise<string> {
  const upload = await api("/documents/upload?filename=two-roles.pdf", {
    method: "POST",
    body: await makePdf(1, "Two roles"),
    headers: { "content-type": "application/pdf" },
  });
  const at = { page: 1, x: 60, width: 200, height: 24 };
  const created = await api("/templates", {
    method: "POST",
    json: {
      name: "Two roles",
      documentId: (upload.body as { id: string }).id,
      roles: [{ name: "Tenant" }, { name: "Landlord" }],
      fields: [
        { ...at, type: "signature", role: "Tenant", y: 600, height: 48 },
        { ...at, type: "text", role: "Tenant", y: 540, label: "Company name" },
        { ...at, type: "signature", role: "Landlord", y: 680, height: 48 },
        { ...at, type: "checkbox", role: "Landlord", y: 480, width: 16, height: 16, label: "Pets allowed" },
        {
          ...at,
          type: "radio",
          role: "Landlord",
          y: 420,
          width: 16,
          height: 16,
          label: "Billing period",
          group: "billing",
          option: "Yearly",
        },
      ],
    },
  });
  expect(created.status).toBe(201);
  return (created.body as { id: string }).id;
}
