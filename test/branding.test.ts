/**
 * A workspace's branding, as an integrator and a signer meet it: set through the API (a colour white
 * text cannot be read on refused with its contrast, a logo checked by its bytes and served at an
 * address that changes with it), then the signing page on a phone in that colour with that logo and
 * without our name; and the console's Settings → Branding, where an Organization Admin sets both and
 * sees the preview. And what an app that embeds signing keeps with a request: its own ids, answered
 * and searched as given, and its signers' names and e-mails, which the page shows read-only. And a
 * workspace's own sending address, used once its domain publishes the TXT record asked of it (a real
 * DNS server on loopback answers).
 * Screenshots go to test/artifacts/.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { startDnsPeer } from "./support/dns-peer.js";
import { call, eventually } from "./support/http.js";
import { makeColourPng } from "./support/office-documents.js";
import { expectDocumented } from "./support/openapi.js";
import { type OutboxMail, outboxMails } from "./support/outbox-mail.js";
import { makePdf } from "./support/pdfs.js";
import { sentSigningLink } from "./support/signing-links.js";

const ARTIFACTS = join(REPO, "test", "artifacts");
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const GREEN = "#0b6e4f";

let deployment: Deployment;
let browser: Browser;
let gateway: string;
let key: string;
let accountId: string;
let dns: Awaited<ReturnType<typeof startDnsPeer>>;
const api = () => `${gateway}/api/v1`;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  dns = await startDnsPeer();
  deployment = await startStandalone(undefined, { env: { COUNTERSIGN_DNS_SERVERS: dns.server } });
  gateway = deployment.gateways[0] as string;
  ({ secret: key, accountId } = JSON.parse(
    (await deployment.cli("keys", "create", "--name", "branding")).stdout,
  ));
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await deployment?.destroy();
  await dns?.close();
});

/** A logo: a wide PNG of the brand's colour, as a wordmark's box is. */
function logo(width = 240, height = 60): Buffer {
  return Buffer.from(makeColourPng(width, height, [11, 110, 79]));
}

const putLogo = (image: Buffer) =>
  call(api(), "/branding/logo", { key, method: "PUT", json: { image: image.toString("base64") } });

/** The colour a CSS value resolves to, as "#rrggbb". */
function hex(rgb: string): string {
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number);
  return `#${[r, g, b].map((n) => (n ?? 0).toString(16).padStart(2, "0")).join("")}`;
}

test("the API keeps a readable colour and a PNG or JPEG logo, says why it refuses others, and serves the logo at an address that changes with it", async () => {
  expect((await call(api(), "/branding", { key })).body).toEqual({
    accentColor: null,
    hideProductName: false,
    emailSenderName: null,
    emailSenderAddress: null,
    emailDomain: null,
    logoUrl: null,
  });
  const light = await call(api(), "/branding", {
    key,
    method: "PUT",
    json: { accentColor: "#ffd43b", hideProductName: false },
  });
  expect(light.status).toBe(422);
  expect((light.body as { errors: { path: string; message: string }[] }).errors).toEqual([
    { path: "accentColor", message: expect.stringMatching(/too light .* contrast 1\.\d:1/) },
  ]);

  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><script>alert(1)</script></svg>',
  );
  const refused = await putLogo(svg);
  expect(refused.status).toBe(422);
  expect((refused.body as { errors: unknown[] }).errors).toEqual([
    { path: "logo", message: "must be a PNG or JPEG image, not svg" },
  ]);
  // Larger than the body a logo may have: refused before the service reads it.
  const huge = await call(api(), "/branding/logo", {
    key,
    method: "PUT",
    json: { image: Buffer.alloc(200 * 1024).toString("base64") },
  });
  expect(huge.status).toBe(422);

  const first = await putLogo(logo());
  expect(first.status).toBe(200);
  const firstUrl = (first.body as { logoUrl: string }).logoUrl;
  expect(firstUrl).toMatch(/\/sign\/logos\/[0-9a-f-]{36}\/[0-9a-f]{64}$/);
  const image = await fetch(firstUrl);
  expect([image.status, image.headers.get("content-type"), image.headers.get("cache-control")]).toEqual([
    200,
    "image/png",
    "public, max-age=31536000, immutable",
  ]);
  // An e-mail client shows it from its own origin.
  expect(image.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
  expect(Buffer.from(await image.arrayBuffer()).equals(logo())).toBe(true);

  // Replaced, the old address leads to the new image rather than to nothing.
  const second = await putLogo(logo(300, 80));
  const secondUrl = (second.body as { logoUrl: string }).logoUrl;
  expect(secondUrl).not.toBe(firstUrl);
  const moved = await fetch(firstUrl, { redirect: "manual" });
  expect([moved.status, new URL(moved.headers.get("location") ?? "", firstUrl).href]).toEqual([
    302,
    secondUrl,
  ]);

  // An address that names no workspace is refused as such, not a failure of the service.
  const digest = new URL(secondUrl).pathname.split("/").at(-1);
  expect((await fetch(`${gateway}/sign/logos/not-a-workspace/${digest}`)).status).toBe(400);

  const removed = await call(api(), "/branding/logo", { key, method: "DELETE" });
  expect((removed.body as { logoUrl: string | null }).logoUrl).toBeNull();
  expect((await fetch(secondUrl, { redirect: "manual" })).status).toBe(404);
}, 60_000);

test("a signer on a phone sees the workspace's colour and logo, and our name nowhere", async () => {
  await putLogo(logo());
  const kept = await call(api(), "/branding", {
    key,
    method: "PUT",
    json: { accentColor: GREEN, hideProductName: true, emailSenderName: "Acme Leasing" },
  });
  expect(kept.body).toMatchObject({ accentColor: GREEN, hideProductName: true, logoUrl: expect.any(String) });

  const link = await sentSigningLink(
    deployment,
    key,
    {
      title: "Branded lease",
      fields: [{ type: "signature", role: "Tenant", page: 1, x: 60, y: 520, width: 200, height: 50 }],
      recipients: [{ name: "Tia Tenant", email: "tia@branding.test", role: "Tenant" }],
    },
    "tia@branding.test",
  );
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(link);
  await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor({ timeout: 30_000 });
  const shownLogo = page.getByTestId("brand-logo");
  await shownLogo.waitFor();
  expect(await shownLogo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(
    240,
  );
  // Every button in the workspace's colour, not ours.
  const accent = await page.evaluate<string>(
    "getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()",
  );
  expect(accent).toBe(GREEN);
  const button = page.locator(".button.primary").first();
  expect(
    hex(
      await button.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor ?? ""),
    ),
  ).toBe(GREEN);
  expect(await page.evaluate<string>("document.body.innerText")).not.toMatch(/countersign/i);
  expect(await page.title()).toBe("Sign: \u2068Branded lease\u2069");
  // The logo has a line of its own: the title keeps the width of the screen.
  const title = (await page.getByTestId("request-title").boundingBox()) as { width: number };
  expect(title.width).toBeGreaterThan(330);
  await page.screenshot({ path: join(ARTIFACTS, "branding-signing-phone.png") });
  await context.close();

  // Cancelled, its link's page says so without naming us either.
  const listed = await call(api(), "/signature-requests?q=Branded%20lease", { key });
  const [request] = (listed.body as { items: { id: string }[] }).items;
  await call(api(), `/signature-requests/${request?.id}/cancel`, { key, method: "POST", json: {} });
  const gone = await fetch(link);
  expect(gone.status).toBe(410);
  expect(await gone.text()).not.toMatch(/countersign/i);
}, 120_000);

test("a signer's e-mail comes from the workspace's sender name, with its logo and colour and without our name", async () => {
  const logoUrl = ((await putLogo(logo())).body as { logoUrl: string }).logoUrl;
  const address = await call(api(), "/branding", {
    key,
    method: "PUT",
    json: { accentColor: GREEN, hideProductName: true, emailSenderName: "ceo@bank.example" },
  });
  expect(address.status).toBe(422);
  expect((address.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
    "emailSenderName",
  ]);
  const kept = await call(api(), "/branding", {
    key,
    method: "PUT",
    json: { accentColor: GREEN, hideProductName: true, emailSenderName: "Acme Leasing" },
  });
  expect(kept.body).toMatchObject({ emailSenderName: "Acme Leasing" });

  await sentSigningLink(
    deployment,
    key,
    {
      title: "Branded renewal",
      fields: [{ type: "signature", role: "Tenant", page: 1, x: 60, y: 520, width: 200, height: 50 }],
      recipients: [{ name: "Eve Tenant", email: "eve@branding.test", role: "Tenant" }],
    },
    "eve@branding.test",
  );
  const mail = (await outboxMails(deployment.dataDir)).find(
    (m) => m.to === "eve@branding.test",
  ) as OutboxMail;
  expect(mail.fromName).toBe("Acme Leasing");
  expect(mail.html).toContain(`<img src="${logoUrl}" alt="Acme Leasing"`);
  expect(mail.html).toContain(`background:${GREEN}`);
  expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toMatch(/countersign/i);

  // As a mail client shows it: the logo drawn from its address.
  const context = await browser.newContext({ viewport: { width: 640, height: 720 } });
  const page = await context.newPage();
  await page.setContent(mail.html);
  const image = page.locator("img").first();
  await eventually(async () =>
    (await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) > 0
      ? true
      : undefined,
  );
  await page.screenshot({ path: join(ARTIFACTS, "branding-email.png"), fullPage: true });
  await context.close();
}, 120_000);

test("e-mails come from the workspace's own address once its domain publishes the TXT record asked of it, and from ours until then", async () => {
  const put = (emailSenderAddress: string | null) =>
    call(api(), "/branding", {
      key,
      method: "PUT",
      json: {
        accentColor: null,
        hideProductName: false,
        emailSenderName: "Acme Leasing",
        emailSenderAddress,
      },
    });
  const verify = () => call(api(), "/branding/email-domain/verify", { key, method: "POST" });
  const mailTo = async (email: string) => {
    await sentSigningLink(
      deployment,
      key,
      {
        title: "Lease from Acme",
        fields: [{ type: "signature", role: "Tenant", page: 1, x: 60, y: 520, width: 200, height: 50 }],
        recipients: [{ name: "Tenant", email, role: "Tenant" }],
      },
      email,
    );
    return (await outboxMails(deployment.dataDir)).find((m) => m.to === email) as OutboxMail;
  };

  for (const wrong of ["contracts", "contracts@localhost", "a@b@acme.example", "contracts@127.0.0.1"]) {
    const refused = await put(wrong);
    expect(refused.status).toBe(422);
    expect((refused.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
      "emailSenderAddress",
    ]);
  }
  const kept = await put("Contracts@Acme.Example");
  expect(kept.status).toBe(200);
  expectDocumented("PUT", "/api/v1/branding", 200, kept.body);
  const domain = (kept.body as { emailDomain: { txtName: string; txtValue: string } }).emailDomain;
  expect(kept.body).toMatchObject({
    emailSenderAddress: "Contracts@acme.example",
    emailDomain: {
      domain: "acme.example",
      txtName: "_countersign.acme.example",
      txtValue: expect.stringMatching(/^countersign-verification=[A-Za-z0-9_-]{24}$/),
      verified: false,
      verifiedAt: null,
      relay: null,
      bounceAddress: "no-reply@countersign.local",
    },
  });

  // Not verified: ours.
  expect((await mailTo("before@tenant.example")).fromAddress).toBe("no-reply@countersign.local");

  const missing = await verify();
  expect(missing.status).toBe(409);
  expect((missing.body as { detail: string }).detail).toContain(
    `there is no TXT record at _countersign.acme.example yet: publish one with the value ${domain.txtValue}`,
  );
  dns.txt.set("_countersign.acme.example", [["v=spf1 -all"], ["countersign-verification=someone-else"]]);
  expect(((await verify()).body as { detail: string }).detail).toContain("do not include");

  dns.txt.set("_countersign.acme.example", [["v=spf1 -all"], [domain.txtValue]]);
  const verified = await verify();
  expect(verified.status).toBe(200);
  expect(verified.body).toMatchObject({ emailDomain: { verified: true, verifiedAt: expect.any(String) } });
  const mail = await mailTo("after@tenant.example");
  expect(mail.fromAddress).toBe("Contracts@acme.example");
  expect(mail.fromName).toBe("Acme Leasing");
  expect(mail.sender).toBe("no-reply@countersign.local");

  // The same domain keeps its proof; another asks for its own.
  expect(
    ((await put("legal@acme.example")).body as { emailDomain: { verified: boolean } }).emailDomain.verified,
  ).toBe(true);
  const moved = (await put("contracts@acme-leasing.example")).body as {
    emailDomain: { verified: boolean; txtValue: string };
  };
  expect(moved.emailDomain.verified).toBe(false);
  expect(moved.emailDomain.txtValue).not.toBe(domain.txtValue);
  expect((await mailTo("moved@tenant.example")).fromAddress).toBe("no-reply@countersign.local");

  // A DNS server that never answers costs a bounded wait, and says so.
  dns.silent.add("_countersign.acme-leasing.example");
  const started = Date.now();
  const silent = await verify();
  expect(silent.status).toBe(503);
  expect(Date.now() - started).toBeLessThan(10_000);

  // The console states the record and the SPF and DKIM facts, and checks it.
  const again = (await put("contracts@acme.example")).body as { emailDomain: { txtValue: string } };
  const context = await browser.newContext({ viewport: { width: 1280, height: 1100 } });
  const page = await context.newPage();
  await logIn(page);
  await page.goto(`${gateway}/console/w/${accountId}/settings/branding`);
  const card = page.getByTestId("sending-domain");
  await card.getByText("Not verified", { exact: true }).waitFor();
  await card.getByText(again.emailDomain.txtValue).waitFor();
  await card.getByRole("button", { name: "Verify" }).click();
  // The record of the address before is still there: the check says the new value is missing.
  await card.getByText(/the TXT records at _countersign\.acme\.example do not include/).waitFor();
  dns.txt.set("_countersign.acme.example", [[again.emailDomain.txtValue]]);
  await card.getByRole("button", { name: "Verify" }).click();
  await card.getByText("Verified", { exact: true }).waitFor();
  await card.screenshot({ path: join(ARTIFACTS, "branding-sending-domain.png") });
  await context.close();
  await put(null);
}, 120_000);

test("an app's own ids come back on the request, its recipients and a search; a locked signer's name and e-mail show read-only", async () => {
  const upload = await call(api(), "/documents/upload?filename=lease.pdf", {
    key,
    method: "POST",
    body: await makePdf(1, "Lease"),
    headers: { "content-type": "application/pdf" },
  });
  const box = { role: "Tenant", page: 1, x: 60, width: 220, height: 24 };
  const created = await call(api(), "/signature-requests", {
    key,
    method: "POST",
    json: {
      title: "Locked lease",
      documentIds: [(upload.body as { id: string }).id],
      fields: [
        { ...box, type: "signature", y: 520, height: 50 },
        { ...box, type: "name", y: 600 },
        { ...box, type: "email", y: 640 },
      ],
      recipients: [{ name: "Lou Locked", email: "lou@branding.test", role: "Tenant", externalId: "user-42" }],
      externalId: "lease-77",
      lockSignerIdentity: true,
      allowReassign: true,
      send: true,
    },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    externalId: "lease-77",
    lockSignerIdentity: true,
    allowReassign: false,
    recipients: [{ externalId: "user-42" }],
  });
  const found = await call(api(), "/signature-requests?externalId=lease-77", { key });
  expect((found.body as { items: { id: string }[] }).items.map((r) => r.id)).toEqual([
    (created.body as { id: string }).id,
  ]);

  const link = await eventually(
    async () => (await outboxMails(deployment.dataDir)).find((m) => m.to === "lou@branding.test")?.link,
  );
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(link);
  const name = page.getByRole("textbox", { name: /name/i }).first();
  await name.waitFor({ timeout: 30_000 });
  expect(await name.inputValue()).toBe("Lou Locked");
  expect(await name.getAttribute("readonly")).not.toBeNull();
  await name.tap();
  await page.keyboard.type("Mallory");
  expect(await name.inputValue()).toBe("Lou Locked");
  const email = page.getByRole("textbox", { name: /e-?mail/i }).first();
  expect([await email.inputValue(), await email.getAttribute("readonly")]).toEqual(["lou@branding.test", ""]);
  // Nobody else may take it over: the page offers no hand-over.
  expect(await page.getByTestId("reassign").count()).toBe(0);
  await context.close();
}, 120_000);

test("an Organization Admin sets the colour, hides our name and uploads a logo in Settings → Branding, seeing the preview", async () => {
  await call(api(), "/branding", {
    key,
    method: "PUT",
    json: { accentColor: null, hideProductName: false, emailSenderName: null },
  });
  await call(api(), "/branding/logo", { key, method: "DELETE" });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await logIn(page);
  await page.goto(`${gateway}/console/w/${accountId}/settings/branding`);
  const colour = page.getByLabel("Colour", { exact: false }).and(page.locator("input:not([type=color])"));
  await colour.fill("#ffd43b");
  // Refused as it is typed, with its contrast, and not sent.
  await page.getByText(/The colour is too light .* contrast 1\.\d:1/).waitFor();
  await colour.fill(GREEN);
  await page.getByLabel("Leave Countersign's name off the signing pages and e-mails").check();
  await page.getByLabel("Name e-mails come from").fill("Acme Leasing");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Saved. Signing pages opened and e-mails sent from now on show it.").waitFor();
  await page
    .getByLabel("Upload a logo")
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo() });
  await page.getByText("The logo is saved.").waitFor();
  const preview = page.getByTestId("branding-preview");
  await preview.locator("img").waitFor();
  // Drawn, not a broken image: the console's own policy lets it in.
  const drawnWidth = () =>
    preview.locator("img").evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
  await eventually(async () => ((await drawnWidth()) > 0 ? true : undefined));
  expect(await drawnWidth()).toBe(240);
  expect(
    hex(
      await preview
        .locator(".button.primary")
        .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor ?? ""),
    ),
  ).toBe(GREEN);
  // What the API reads is what the page saved.
  expect((await call(api(), "/branding", { key })).body).toMatchObject({
    accentColor: GREEN,
    hideProductName: true,
    emailSenderName: "Acme Leasing",
    logoUrl: expect.any(String),
  });
  // A file that is no image is refused in words.
  await page
    .getByLabel("Replace the logo")
    .setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from("<svg/>") });
  await page.getByText("The logo must be a PNG or JPEG image").waitFor();
  await page.screenshot({ path: join(ARTIFACTS, "branding-console.png"), fullPage: true });
  await context.close();
}, 120_000);

async function logIn(page: Page): Promise<void> {
  await page.goto(`${gateway}/`);
  await page.getByLabel("E-mail").fill(deployment.adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(deployment.adminPassword);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Signature requests" }).waitFor();
}
