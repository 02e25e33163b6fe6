/**
 * Sending and template editing inside an integrator's app: the service behind TLS at
 * sign.countersign.test, the integrator's page at app.integrator.test framing a sender view and a
 * template edit view made for its origin, third-party cookies blocked. What the view's credential may
 * call is its flow's operations on its own draft or template; the URL opens once; DocuSign's official
 * client gets both views' URLs through /restapi. Screenshots go to test/artifacts/.
 */

import { createRequire } from "node:module";
import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { seriousViolations } from "./support/browser.js";
import { call, eventually } from "./support/http.js";
import {
  APP,
  ARTIFACTS,
  heard,
  heardOf,
  type IntegratorSites,
  SERVICE,
  STRANGER,
  startIntegratorSites,
} from "./support/integrator-sites.js";
import { makePdf } from "./support/pdfs.js";
import { createTwoRoleTemplate } from "./support/templates.js";
import type { TlsSites } from "./support/tls-sites.js";

const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: the client's models are untyped JavaScript.
type Json = any;
const docusign = require("docusign-esign") as {
  ApiClient: new (options: { basePath: string }) => { addDefaultHeader(name: string, value: string): void };
  EnvelopesApi: new (
    client: unknown,
  ) => {
    createSenderView(
      accountId: string,
      envelopeId: string,
      options: { envelopeViewRequest: Json },
    ): Promise<Json>;
  };
  TemplatesApi: new (
    client: unknown,
  ) => {
    createEditView(
      accountId: string,
      templateId: string,
      options: { templateViewRequest: Json },
    ): Promise<Json>;
  };
};

/** The integrator's page: it frames the URL it is given and keeps every message of ours it hears. */
const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Integrator app</title>
<style>body{margin:0;font:16px system-ui}header{padding:12px 16px;background:#0b3d2e;color:#fff}iframe{display:block;width:100%;height:760px;border:0}</style>
</head><body>
<header>Integrator app — send a contract</header>
<iframe id="view" title="Send a contract"></iframe>
<script>
  window.heard = [];
  addEventListener("message", (event) => {
    if (event.data && event.data.source === "countersign") window.heard.push({ origin: event.origin, ...event.data });
  });
  document.getElementById("view").src = new URLSearchParams(location.search).get("url");
</script>
</body></html>`;

let integrator: IntegratorSites;
let sites: TlsSites;
let gateway: string;
let key: string;
let accountId: string;
let templateId: string;
const api = () => `${gateway}/api/v1`;

beforeAll(async () => {
  integrator = await startIntegratorSites(HOST_PAGE);
  ({ sites, gateway, key, accountId } = integrator);
  templateId = await createTwoRoleTemplate(api(), key, "Lease");
  const listed = await call(api(), "/embedding-settings", {
    key,
    method: "PUT",
    json: { frameOrigins: [sites.origin(APP)] },
  });
  expect(listed.status).toBe(200);
}, 180_000);

afterAll(() => integrator?.close());

async function draftRequest(title: string): Promise<string> {
  const created = await call(api(), "/signature-requests", {
    key,
    method: "POST",
    json: {
      title,
      templateId,
      recipients: [
        { role: "Client", name: "Ada Client", email: "ada@integrator.test" },
        { role: "Company", name: "Cy Company", email: "cy@integrator.test" },
      ],
    },
  });
  expect(created.status).toBe(201);
  return (created.body as { id: string }).id;
}

/** Opens a view's URL as a browser would, without one: its page, and the credential in its head. */
async function openView(url: string): Promise<{ status: number; credential: string; policy: string }> {
  const answer = await fetch(url.replace(sites.origin(SERVICE), gateway));
  const html = await answer.text();
  const meta = /<meta name="countersign-view" content="([^"]*)">/.exec(html)?.[1];
  const view = meta ? JSON.parse(meta.replaceAll("&quot;", '"')) : undefined;
  return {
    status: answer.status,
    credential: view?.credential ?? "",
    policy: answer.headers.get("content-security-policy") ?? "",
  };
}

const newContext = (): Promise<BrowserContext> =>
  integrator.newContext({ viewport: { width: 1200, height: 900 } });

test("a view's URL opens once, and its credential makes only its flow's calls on its own draft or template", async () => {
  const refused = await call(api(), "/sender-views", {
    key,
    method: "POST",
    json: { frameOrigin: sites.origin(STRANGER) },
  });
  expect(refused.status).toBe(422);
  expect((refused.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(["frameOrigin"]);

  const made = await call(api(), `/templates/${templateId}/edit-view`, {
    key,
    method: "POST",
    json: { frameOrigin: sites.origin(APP) },
  });
  expect(made.status).toBe(201);
  const { url, expiresAt } = made.body as { url: string; expiresAt: string };
  expect(url.startsWith(`${sites.origin(SERVICE)}/console/views/`)).toBe(true);
  expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(300_000);

  // A link checker's HEAD does not spend the URL.
  expect((await fetch(url.replace(sites.origin(SERVICE), gateway), { method: "HEAD" })).status).toBe(405);
  const opened = await openView(url);
  expect(opened.status).toBe(200);
  expect(opened.policy).toContain(`frame-ancestors ${sites.origin(APP)}`);
  expect(opened.credential).toMatch(/^cvt_[0-9A-Za-z]{43}$/);
  expect((await openView(url)).status).toBe(410);

  const asView = (path: string, init: { method?: string; json?: unknown } = {}) =>
    call(api(), path, { key: opened.credential, ...init });
  expect((await asView(`/templates/${templateId}`)).status).toBe(200);
  const other = await createTwoRoleTemplate(api(), key, "Another");
  expect((await asView(`/templates/${other}`)).status).toBe(404);
  expect((await asView(`/templates/${templateId}`, { method: "DELETE" })).status).toBe(403);
  expect((await asView("/templates")).status).toBe(403);
  expect((await asView("/signature-requests")).status).toBe(403);
  expect((await asView("/documents")).status).toBe(403);
  // Not a key: nothing beyond the flow's scopes, and no way in to MCP.
  expect((await asView("/webhook-endpoints")).status).toBe(403);
  const mcp = await fetch(`${gateway}/mcp/v1`, {
    method: "POST",
    headers: { authorization: `Bearer ${opened.credential}`, "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(mcp.status).toBe(401);

  // The view spends a budget of its own, not its maker's: the app's own calls go on.
  const remaining = async (secret: string) =>
    Number((await call(api(), "/templates?pageSize=1", { key: secret })).headers.get("ratelimit-remaining"));
  const before = await remaining(key);
  for (let i = 0; i < 40; i += 1) await asView(`/templates/${templateId}`);
  expect(await remaining(key)).toBeGreaterThan(before - 10);

  // What a view is made with is checked: a draft or a template, not both; field types by their names.
  const both = await call(api(), "/sender-views", {
    key,
    method: "POST",
    json: { requestId: templateId, templateId },
  });
  expect((both.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(["templateId"]);
  const noSuchType = await call(api(), "/sender-views", {
    key,
    method: "POST",
    json: { fieldTypes: ["signature", "stamp"] },
  });
  expect(noSuchType.status).toBe(422);
  const unknownTemplate = await call(api(), "/sender-views", {
    key,
    method: "POST",
    json: { templateId: "0193e1a4-0000-7000-8000-000000000000" },
  });
  expect(unknownTemplate.status).toBe(404);
  // A view made for a template sends from it alone.
  const forTemplate = await call(api(), "/sender-views", { key, method: "POST", json: { templateId } });
  const templateView = await openView((forTemplate.body as { url: string }).url);
  const fromOther = await call(api(), "/signature-requests", {
    key: templateView.credential,
    method: "POST",
    json: {
      title: "Another template",
      templateId: other,
      recipients: [
        { role: "Client", name: "Ada Client", email: "ada@integrator.test" },
        { role: "Company", name: "Cy Company", email: "cy@integrator.test" },
      ],
    },
  });
  expect(fromOther.status).toBe(403);

  // A sender view sends a draft, not a request already sent.
  const draft = await draftRequest("Not a draft for long");
  expect((await call(api(), `/signature-requests/${draft}/send`, { key, method: "POST" })).status).toBe(200);
  const late = await call(api(), "/sender-views", { key, method: "POST", json: { requestId: draft } });
  expect(late.status).toBe(409);

  // DocuSign's official client gets both views through /restapi.
  const client = new docusign.ApiClient({ basePath: `${gateway}/restapi` });
  client.addDefaultHeader("Authorization", `Bearer ${key}`);
  const envelope = await draftRequest("Envelope draft");
  const sender = await new docusign.EnvelopesApi(client).createSenderView(accountId, envelope, {
    envelopeViewRequest: { returnUrl: "https://app.example.com/done" },
  });
  expect(sender.url).toMatch(new RegExp(`^${sites.origin(SERVICE)}/console/views/`));
  expect((await openView(sender.url)).status).toBe(200);
  const edit = await new docusign.TemplatesApi(client).createEditView(accountId, templateId, {
    templateViewRequest: { returnUrl: "https://app.example.com/done" },
  });
  expect(edit.url).toMatch(new RegExp(`^${sites.origin(SERVICE)}/console/views/`));
});

test("a view ends with the key that made it: its URL no longer opens, its credential is refused", async () => {
  const maker = JSON.parse(
    (await integrator.deployment.cli("keys", "create", "--name", "short-lived app")).stdout,
  ) as { id: string; secret: string };
  const view = async () =>
    (
      (
        await call(api(), `/templates/${templateId}/edit-view`, {
          key: maker.secret,
          method: "POST",
          json: {},
        })
      ).body as { url: string }
    ).url;
  const unopened = await view();
  const opened = await openView(await view());
  expect((await call(api(), `/templates/${templateId}`, { key: opened.credential })).status).toBe(200);
  await integrator.deployment.cli("keys", "delete", maker.id);
  await eventually(async () => {
    const refused = await call(api(), `/templates/${templateId}`, { key: opened.credential });
    return refused.status === 401 ? refused : undefined;
  });
  // Gone with its key: no view has that URL any more.
  expect((await openView(unopened)).status).toBe(404);
});

test("a draft is reviewed and sent in another site's frame, and the host hears it sent", async () => {
  const draft = await draftRequest("Framed lease");
  const made = await call(api(), "/sender-views", {
    key,
    method: "POST",
    json: { requestId: draft, frameOrigin: sites.origin(APP) },
  });
  expect(made.status).toBe(201);
  const context = await newContext();
  const page = await context.newPage();
  await page.goto(`${sites.origin(APP)}/?url=${encodeURIComponent((made.body as { url: string }).url)}`);
  const frame = page.frameLocator("#view");
  expect(await heardOf(page, "ready")).toMatchObject({ origin: sites.origin(SERVICE), view: "sender" });
  await frame.getByText("Cy Company · cy@integrator.test").waitFor();
  await page.screenshot({ path: join(ARTIFACTS, "embedded-sender-view.png") });
  await frame.getByRole("button", { name: "Send for signature" }).click();
  const sent = await heardOf(page, "sent");
  expect(sent).toEqual({
    origin: sites.origin(SERVICE),
    source: "countersign",
    view: "sender",
    type: "sent",
    requestId: draft,
    status: "sent",
  });
  await frame.getByText("Sent for signature.").waitFor();
  const request = await call(api(), `/signature-requests/${draft}`, { key });
  expect((request.body as { status: string }).status).toBe("sent");
  await context.close();
});

test("as a page of its own on a phone, a view reads well (axe-core), and sending returns the user to the app", async () => {
  const draft = await draftRequest("Lease on a phone");
  const made = await call(api(), "/sender-views", {
    key,
    method: "POST",
    json: { requestId: draft, returnUrl: `${sites.origin(APP)}/done` },
  });
  // axe-core is injected as a script, which the page's own CSP rightly refuses.
  const context = await integrator.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    bypassCSP: true,
  });
  const page = await context.newPage();
  await page.goto((made.body as { url: string }).url);
  const send = page.getByRole("button", { name: "Send for signature" });
  await send.waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(ARTIFACTS, "embedded-sender-view-phone.png") });
  await send.tap();
  await page.waitForURL((url) => url.pathname === "/done");
  expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ event: "sent", requestId: draft });
  await context.close();
});

test("a view with nothing named opens the composer: documents to upload, no list of the workspace's", async () => {
  const made = await call(api(), "/sender-views", {
    key,
    method: "POST",
    json: { frameOrigin: sites.origin(APP) },
  });
  const context = await newContext();
  const page = await context.newPage();
  await page.goto(`${sites.origin(APP)}/?url=${encodeURIComponent((made.body as { url: string }).url)}`);
  const frame = page.frameLocator("#view");
  await heardOf(page, "ready");
  await frame.getByRole("heading", { name: "Send documents" }).waitFor();
  await frame.getByText("The documents to sign").waitFor();
  await expect(frame.getByLabel("Or take one uploaded before").count()).resolves.toBe(0);
  await page.screenshot({ path: join(ARTIFACTS, "embedded-sender-view-documents.png") });
  // An upload goes with the view's credential, and the document comes back to be drawn.
  await frame.getByTestId("document-input").setInputFiles({
    name: "offer.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(await makePdf(1, "Offer")),
  });
  await frame.getByTestId("documents").getByText("offer.pdf").waitFor();
  await frame.locator('[data-testid="page-1"][data-rendered]').first().waitFor({ timeout: 30_000 });
  await context.close();
});

test("a view made for a template asks only for its signers, sends, and the host hears the request sent", async () => {
  const made = await call(api(), "/sender-views", {
    key,
    method: "POST",
    json: { templateId, frameOrigin: sites.origin(APP) },
  });
  const context = await newContext();
  const page = await context.newPage();
  await page.goto(`${sites.origin(APP)}/?url=${encodeURIComponent((made.body as { url: string }).url)}`);
  const frame = page.frameLocator("#view");
  await heardOf(page, "ready");
  for (const [role, name, email] of [
    ["Client", "Ada Client", "ada@integrator.test"],
    ["Company", "Cy Company", "cy@integrator.test"],
  ] as const) {
    const signer = frame.getByRole("group", { name: new RegExp(`^${role}`) });
    await signer.getByLabel("Name").fill(name);
    await signer.getByLabel("E-mail").fill(email);
  }
  // The template is the view's: there is no other to choose.
  await expect(frame.getByRole("combobox", { name: "Template", exact: true }).count()).resolves.toBe(0);
  await page.screenshot({ path: join(ARTIFACTS, "embedded-sender-view-template.png") });
  await frame.getByRole("button", { name: "Send for signature" }).click();
  const sent = await heardOf(page, "sent");
  expect(sent).toMatchObject({ view: "sender", status: "sent" });
  const request = await call(api(), `/signature-requests/${sent.requestId}`, { key });
  expect(request.body).toMatchObject({ templateId, status: "sent" });
  await context.close();
});

test("a template is edited and saved in another site's frame; a site the workspace does not list gets no view", async () => {
  const made = await call(api(), `/templates/${templateId}/edit-view`, {
    key,
    method: "POST",
    json: { frameOrigin: sites.origin(APP) },
  });
  const url = (made.body as { url: string }).url;
  const context = await newContext();
  const stranger = await context.newPage();
  await stranger.goto(`${sites.origin(STRANGER)}/?url=${encodeURIComponent(url)}`);
  // The browser refuses the frame (frame-ancestors): the page in it never starts, so nothing is heard.
  await stranger.waitForTimeout(1500);
  expect(await heard(stranger)).toEqual([]);

  const again = await call(api(), `/templates/${templateId}/edit-view`, {
    key,
    method: "POST",
    json: { frameOrigin: sites.origin(APP), fieldTypes: ["signature", "date_signed"] },
  });
  const page = await context.newPage();
  await page.goto(`${sites.origin(APP)}/?url=${encodeURIComponent((again.body as { url: string }).url)}`);
  const frame = page.frameLocator("#view");
  await heardOf(page, "ready");
  await frame.getByRole("button", { name: "Save changes" }).waitFor({ timeout: 30_000 });
  // The palette offers the types the view was made with.
  await expect(
    frame.getByTestId("field-palette").locator(".palette-item").allTextContents(),
  ).resolves.toEqual(["Signature", "Date signed"]);
  await frame.getByLabel("Name", { exact: true }).first().fill("Lease, edited in the app");
  await page.screenshot({ path: join(ARTIFACTS, "embedded-template-edit-view.png") });
  await frame.getByRole("button", { name: "Save changes" }).click();
  expect(await heardOf(page, "saved")).toMatchObject({ view: "template_edit", templateId });
  const template = await call(api(), `/templates/${templateId}`, { key });
  expect((template.body as { name: string }).name).toBe("Lease, edited in the app");
  await context.close();
});
