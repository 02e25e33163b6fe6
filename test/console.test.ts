/**
 * The console in a real browser (Debian's Chromium through playwright-core), against a standalone
 * deployment: log-in and log-out, the workspace switcher, Settings → Developer (API keys with a
 * real key test, webhooks with test-fire and the delivery portal, Configuration, Recent Errors,
 * API Usage), role gating, and a request followed to its signed PDF. Screenshots at desktop and
 * phone width go to test/artifacts/console-*.png.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { makePdf } from "./support/pdfs.js";
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

async function openConsole(
  as: { email: string; password: string },
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await page.goto(`${gateway}/`);
  await page.getByLabel("E-mail").fill(as.email);
  await page.getByLabel("Password").fill(as.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Signature requests" }).waitFor();
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

/** Elements (tag.class) whose box reaches past the viewport's right edge, outside any scrolling box. */
const STICKING_OUT = `(() => {
  const scrolls = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (["auto", "scroll", "hidden"].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  return [...document.querySelectorAll("body *")]
    .filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 1 && box.right > window.innerWidth + 1 && !scrolls(el);
    })
    .map((el) => el.tagName.toLowerCase() + "." + String(el.className))
    .slice(0, 5);
})()`;

const admin = () => ({ email: deployment.adminEmail, password: deployment.adminPassword });
/** The whole page, or what the window shows (the template editor's side panel stays in view as it scrolls). */
const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: join(ARTIFACTS, `console-${name}.png`), fullPage });
const api = (path: string, init: Parameters<typeof call>[2] = {}) =>
  call(`${gateway}/api/v1`, path, { key: key.secret, ...init });

async function makeRequest(title: string, send: boolean) {
  const upload = await api("/documents/upload?filename=lease.pdf", {
    method: "POST",
    body: await makePdf(1, title),
    headers: { "content-type": "application/pdf" },
  });
  const documentId = (upload.body as { id: string }).id;
  const created = await api("/signature-requests", {
    method: "POST",
    json: {
      title,
      documentIds: [documentId],
      fields: [{ type: "signature", role: "tenant", page: 1, x: 60, y: 600, width: 200, height: 50 }],
      recipients: [{ name: "Tess Tenant", email: "tess@example.com", role: "tenant" }],
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
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("alert").filter({ hasText: "do not match" }).waitFor();
  await shot(page, "login-refused");
  await page.getByLabel("Password").fill(deployment.adminPassword);
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

test("webhooks: http:// refused inline; an endpoint is added, its secret revealed, a test event verified by the receiver, deliveries listed with attempts, retried and replayed", async () => {
  const { context, page } = await openConsole(admin());
  await page.goto(`${gateway}/console/w/${key.accountId}/developer/webhooks`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByLabel("Endpoint URL").fill("http://example.com/hook");
  await page.getByRole("button", { name: "Add endpoint" }).last().click();
  await page.getByText("Only https:// URLs are allowed").waitFor();
  await shot(page, "webhook-refused");
  await page.getByLabel("Endpoint URL").fill(receiver.url);
  await page.getByLabel("Description").fill("Receiver on loopback");
  await page.getByRole("button", { name: "Add endpoint" }).last().click();
  await page.getByTestId("endpoint-detail").waitFor();
  const shown = (await page.getByTestId("created-endpoint-secret").locator("code").textContent()) ?? "";
  expect(shown).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "Reveal" }).click();
  await shows(page.getByTestId("endpoint-secret"), shown, true);

  await page.getByLabel("Event type").first().selectOption("signature_request.signed");
  await page.getByRole("button", { name: "Send test event" }).click();
  await shows(page.getByTestId("test-fire-result"), "204");
  const test = receiver.received.at(-1);
  expect(test && (verifyWebhook(shown, test) as { type: string }).type).toBe("signature_request.signed");
  await shot(page, "webhook-test-fire");

  await makeRequest("Webhook lease", true);
  await eventually(async () => receiver.received.length >= 2 || undefined);
  await page.getByRole("button", { name: "Refresh" }).click();
  const message = page.getByTestId("webhook-messages").locator("li.message").first();
  await message.locator(":scope > details > summary").click();
  await shows(message, "signature_request.sent");
  await shows(message, "delivery");
  const before = receiver.received.length;
  await message.getByRole("button", { name: "Retry now" }).click();
  await page.getByText("queued to be delivered again").waitFor();
  await eventually(async () => receiver.received.length > before || undefined);
  const beforeReplay = receiver.received.length;
  await page.getByLabel("Only failed messages").uncheck();
  await page.getByRole("button", { name: "Replay" }).click();
  const replayed = await page.getByText(/\d+ messages? queued to be delivered again/).textContent();
  // The request's "sent" event (test events are not stored, so not replayed).
  expect(Number(replayed?.match(/\d+/)?.[0])).toBe(1);
  await eventually(async () => receiver.received.length > beforeReplay || undefined);
  await shot(page, "webhook-deliveries");
  await context.close();
});

test("Configuration, Recent Errors and API Usage show this workspace's own figures", async () => {
  const missing = await api("/signature-requests/00000000-0000-7000-8000-000000000000");
  expect(missing.status).toBe(404);
  const requestId = missing.headers.get("x-request-id") as string;
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
  await shot(page, "configuration");
  await page.getByRole("link", { name: "Recent Errors" }).click();
  await untilShown(page, page.getByTestId("recent-errors"), requestId);
  await shot(page, "recent-errors");
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

  await page.goto(`${gateway}/console/w/${key.accountId}/requests/${other.id}`);
  await page.getByRole("button", { name: "Cancel request" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Cancel request" }).click();
  await page.getByText("Cancelled", { exact: true }).waitFor();
  await context.close();
});

test("a template built in the browser: a PDF uploaded, a field dragged onto the page and resized, a role's missing signature and a text field without a label reported, fixed and saved; a request made from it and sent", async () => {
  const { context, page } = await openConsole(admin());
  await page.getByRole("link", { name: /Templates/ }).click();
  await page.getByRole("link", { name: "New template" }).first().click();
  await page.getByTestId("pdf-input").setInputFiles({
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
  await page.getByRole("button", { name: "Save template" }).click();
  await shows(page.getByTestId("template-problems"), "Landlord");
  await shot(page, "template-problems", false);

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
  await page.getByRole("button", { name: "Send for signature" }).click();
  await page.getByRole("heading", { name: "Lease for flat 4" }).waitFor();
  await shows(page.locator(".badge"), "Sent", true);
  await shows(page.getByTestId("recipients"), "Lars Landlord");
  await context.close();
});

test("at phone width (390 px) every page fits without sideways scrolling", async () => {
  const { context, page } = await openConsole(admin(), PHONE);
  const pages = [
    "requests",
    "requests/new",
    "templates",
    "templates/new",
    "developer/api-keys",
    "developer/webhooks",
    "developer/configuration",
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
    await shot(page, `phone-${path.replace("/", "-")}`);
  }
  await context.close();
});
