/**
 * Signing inside an integrator's app, as a browser does it between real sites: the service behind
 * TLS at sign.countersign.test (a proxy standing for the ingress), the integrator's page at
 * app.integrator.test framing an embedded URL made for its origin, third-party cookies blocked. The
 * signer signs in the frame and the host hears each step by postMessage; a page of a site the
 * workspace does not list is refused the frame by the browser. Then @countersign/embed as npm would
 * install it (built, packed, unpacked): its types checked from a consumer's file, its element and its
 * React wrapper each framing a signing, its sender element a sender view. Screenshots go to test/artifacts/.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build as esbuild } from "esbuild";
import type { BrowserContext, FrameLocator, Page } from "playwright-core";
import ts from "typescript";
import { SIGNING_FRAME_EVENT_TYPES, VIEW_FRAME_EVENT_TYPES } from "../gateway/embed/src/protocol.js";
import { type Deployment, REPO } from "./support/deployments.js";
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
import type { TlsSites } from "./support/tls-sites.js";

const run = promisify(execFile);

/** The integrator's page: it frames the URL it is given and keeps every message of ours it hears. */
const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Integrator app</title>
<style>body{margin:0;font:16px system-ui}header{padding:12px 16px;background:#0b3d2e;color:#fff}iframe{display:block;width:100%;height:720px;border:0}</style>
</head><body>
<header>Integrator app — your contract</header>
<iframe id="signing" title="Sign your contract"></iframe>
<script>
  window.heard = [];
  addEventListener("message", (event) => {
    if (event.data && event.data.source === "countersign") window.heard.push({ origin: event.origin, ...event.data });
  });
  const frame = document.getElementById("signing");
  frame.addEventListener("load", () => { window.frameLoads = (window.frameLoads || 0) + 1; });
  frame.src = new URLSearchParams(location.search).get("url");
</script>
</body></html>`;

const EVENT_TYPES = JSON.stringify(SIGNING_FRAME_EVENT_TYPES);

/** Pages of the integrator's app built with the package: its element, and its React wrapper. */
const HOST_PAGES: Record<string, string> = {
  "/element": `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Integrator app</title></head><body>
<countersign-signing id="signing" title="Sign your contract"></countersign-signing>
<script type="module">
  import "/embed/index.js";
  window.heard = [];
  const signing = document.getElementById("signing");
  for (const type of ${EVENT_TYPES})
    signing.addEventListener("countersign:" + type, (event) => window.heard.push({ origin: "element", ...event.detail }));
  signing.setAttribute("url", new URLSearchParams(location.search).get("url"));
</script>
</body></html>`,
  "/sender-element": `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Integrator app</title></head><body>
<countersign-sender id="sender" style="height: 600px"></countersign-sender>
<script type="module">
  import "/embed/index.js";
  window.heard = [];
  const sender = document.getElementById("sender");
  for (const type of ${JSON.stringify(VIEW_FRAME_EVENT_TYPES)})
    sender.addEventListener("countersign:" + type, (event) => window.heard.push({ origin: "element", ...event.detail }));
  sender.url = new URLSearchParams(location.search).get("url");
</script>
</body></html>`,
  "/react": `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Integrator app</title></head><body>
<div id="root"></div><script type="module" src="/react-app.js"></script>
</body></html>`,
};

/** The React app: each callback records what it was given, as the element's page does. */
const REACT_APP = `
import { createRoot } from "react-dom/client";
import { CountersignSigning } from "@countersign/embed/react";
const heard = (window as unknown as { heard: unknown[] }).heard = [];
const keep = (event: object) => heard.push({ origin: "element", ...event });
createRoot(document.getElementById("root")!).render(
  <CountersignSigning
    url={new URLSearchParams(location.search).get("url") ?? ""}
    style={{ height: 720 }}
    onReady={keep}
    onFieldChanged={keep}
    onCompleted={keep}
    onDeclined={keep}
    onReassigned={keep}
    onSessionExpired={keep}
    onError={keep}
  />,
);
`;

let integrator: IntegratorSites;
let sites: TlsSites;
let deployment: Deployment;
let gateway: string;
let key: string;
let accountId: string;
const api = () => `${gateway}/api/v1`;

beforeAll(async () => {
  integrator = await startIntegratorSites(HOST_PAGE);
  ({ sites, deployment, gateway, key, accountId } = integrator);
}, 180_000);

afterAll(() => integrator?.close());

/** A sent request for one embedded signer: a signature and a box to tick. */
async function sendRequest(title: string): Promise<{ id: string; recipientId: string }> {
  const upload = await call(api(), "/documents/upload?filename=contract.pdf", {
    key,
    method: "POST",
    body: await makePdf(1, title),
    headers: { "content-type": "application/pdf" },
  });
  const created = await call(api(), "/signature-requests", {
    key,
    method: "POST",
    json: {
      title,
      documentIds: [(upload.body as { id: string }).id],
      fields: [
        { type: "signature", role: "Client", page: 1, x: 60, y: 520, width: 200, height: 50 },
        {
          type: "checkbox",
          role: "Client",
          page: 1,
          x: 60,
          y: 620,
          width: 16,
          height: 16,
          label: "I accept the terms",
        },
      ],
      recipients: [
        { name: "Ada Embedded", email: "ada@integrator.test", role: "Client", clientUserId: "ada-1" },
      ],
      send: true,
    },
  });
  expect(created.status).toBe(201);
  const request = created.body as { id: string; recipients: { id: string }[] };
  return { id: request.id, recipientId: request.recipients[0]?.id as string };
}

async function embeddedUrl(request: { id: string; recipientId: string }, frameOrigin: string) {
  return call(api(), "/embedded-signing-url", {
    key,
    method: "POST",
    json: { requestId: request.id, recipientId: request.recipientId, frameOrigin },
  });
}

async function hostPage(context: BrowserContext, site: string, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${sites.origin(site)}/?url=${encodeURIComponent(url)}`);
  return page;
}

async function signInFrame(frame: FrameLocator): Promise<void> {
  await frame.locator('[data-testid="page-1"][data-rendered]').first().waitFor({ timeout: 30_000 });
  await frame
    .getByRole("button", { name: /^Sign: Signature, required/ })
    .first()
    .click();
  await frame.getByTestId("tab-type").click();
  await frame.getByTestId("signature-text").fill("Ada Embedded");
  await frame.getByTestId("apply-signature").click();
  await frame.getByRole("dialog").waitFor({ state: "hidden" });
  await frame.getByRole("checkbox", { name: /I accept the terms/ }).check();
  await frame.getByTestId("consent").check();
  await frame.getByTestId("finish").click();
}

test("an embedded URL is made only for an origin the workspace lists", async () => {
  const request = await sendRequest("Unlisted origin");
  const refused = await embeddedUrl(request, sites.origin(APP));
  expect(refused.status).toBe(422);
  expect((refused.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(["frameOrigin"]);
  const listed = await call(api(), "/embedding-settings", {
    key,
    method: "PUT",
    json: { frameOrigins: [`${sites.origin(APP).toUpperCase().replace("HTTPS", "https")}/`] },
  });
  expect(listed.status).toBe(200);
  // Kept as the browser compares it.
  expect(listed.body).toEqual({ frameOrigins: [sites.origin(APP)] });
  expect((await embeddedUrl(request, sites.origin(APP))).status).toBe(201);
  expect((await embeddedUrl(request, sites.origin(STRANGER))).status).toBe(422);
});

test("a signer completes in another site's frame without a cookie, and the host hears each step from the service's origin", async () => {
  const request = await sendRequest("Framed contract");
  const made = await embeddedUrl(request, sites.origin(APP));
  expect(made.status).toBe(201);
  const url = (made.body as { url: string }).url;
  expect(url.startsWith(`${sites.origin(SERVICE)}/sign/`)).toBe(true);

  const context = await integrator.newContext({ viewport: { width: 1100, height: 820 } });
  // A cookie of the service's site, such as a signer's earlier session there, kept by the browser…
  await context.addCookies([
    {
      name: "first_party",
      value: "1",
      domain: SERVICE,
      path: "/",
      sameSite: "None",
      secure: true,
    },
  ]);
  const top = await context.newPage();
  await top.goto(`${sites.origin(SERVICE)}/sign/`);
  await expect(top.evaluate<string>("document.cookie")).resolves.toBe("first_party=1");
  await top.close();
  const page = await hostPage(context, APP, url);
  const frame = page.frameLocator("#signing");
  await heardOf(page, "ready");
  // …is not there in its frame in another site: the session cannot be a cookie here.
  const inFrame = page.frames().find((f) => f.url().startsWith(sites.origin(SERVICE)));
  const cookies = await inFrame?.evaluate<string>("document.cookie");
  expect(cookies).toBe("");

  await frame.locator('[data-testid="page-1"][data-rendered]').first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(ARTIFACTS, "embedded-signing-in-frame.png") });
  await signInFrame(frame);
  const completed = await heardOf(page, "completed");
  expect(completed).toEqual({
    origin: sites.origin(SERVICE),
    source: "countersign",
    type: "completed",
    requestId: request.id,
    recipientId: request.recipientId,
    requestStatus: expect.stringMatching(/^(in_progress|completed)$/),
    everyoneSigned: true,
  });
  // Sealed, the document is saved from the frame: fetched with the session, as a link has no cookie.
  await frame.getByTestId("download-signed").waitFor({ timeout: 60_000 });
  await page.screenshot({ path: join(ARTIFACTS, "embedded-signing-completed.png") });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    frame.getByTestId("download-signed").click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const sealed = await readFile((await download.path()) as string);
  expect(sealed.subarray(0, 5).toString()).toBe("%PDF-");
  expect(sealed.includes("/ByteRange")).toBe(true);

  const all = await heard(page);
  expect(all.every((m) => m.origin === sites.origin(SERVICE))).toBe(true);
  expect(all[0]).toEqual(expect.objectContaining({ type: "ready", requestId: request.id }));
  // The signature and the box, each heard as it was filled, the last leaving nothing required.
  const filled = all.filter((m) => m.type === "field_changed");
  expect(filled.map((m) => [m.filled, m.requiredLeft])).toEqual([
    [true, 1],
    [true, 0],
  ]);
  // The webhook's source of truth agrees: the signer signed.
  const after = await eventually(async () => {
    const reply = await call(api(), `/signature-requests/${request.id}`, { key });
    const body = reply.body as { status: string; recipients: { status: string }[] };
    return body.recipients[0]?.status === "signed" ? body : undefined;
  });
  expect(after.recipients[0]?.status).toBe("signed");

  // The URL opens once: framed again, it says so in the frame and tells the host the session is over.
  await page
    .locator("#signing")
    .evaluate((frameElement, again) => frameElement.setAttribute("src", again), url);
  const over = await heardOf(page, "session_expired");
  expect(over).toEqual(expect.objectContaining({ origin: sites.origin(SERVICE), reason: "url_used" }));
  await expect(frame.locator("h1").textContent()).resolves.toBeTruthy();
  await context.close();
}, 120_000);

test("a framed URL whose request was cancelled says so in its frame and tells the host why", async () => {
  const request = await sendRequest("Cancelled before signing");
  const url = ((await embeddedUrl(request, sites.origin(APP))).body as { url: string }).url;
  const cancelled = await call(api(), `/signature-requests/${request.id}/cancel`, {
    key,
    method: "POST",
    json: { reason: "The terms changed" },
  });
  expect(cancelled.status).toBe(200);
  const context = await integrator.newContext();
  const page = await hostPage(context, APP, url);
  const over = await heardOf(page, "session_expired");
  expect(over).toEqual({
    origin: sites.origin(SERVICE),
    source: "countersign",
    type: "session_expired",
    reason: "cancelled",
  });
  await expect(page.frameLocator("#signing").locator("main").textContent()).resolves.toContain("cancelled");
  await context.close();
}, 60_000);

test("on a phone, 390 px wide, the signer taps through the framed page and the host hears it completed", async () => {
  const request = await sendRequest("Framed on a phone");
  const url = ((await embeddedUrl(request, sites.origin(APP))).body as { url: string }).url;
  const context = await integrator.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  const page = await hostPage(context, APP, url);
  const frame = page.frameLocator("#signing");
  await heardOf(page, "ready");
  await frame.locator('[data-testid="page-1"][data-rendered]').first().waitFor({ timeout: 30_000 });
  // The page fits the frame: nothing reaches past its right edge.
  const inFrame = page.frames().find((f) => f.url().startsWith(sites.origin(SERVICE)));
  await expect(
    inFrame?.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth"),
  ).resolves.toBe(0);
  await page.screenshot({ path: join(ARTIFACTS, "embedded-signing-phone.png") });
  await frame
    .getByRole("button", { name: /^Sign: Signature, required/ })
    .first()
    .tap();
  await frame.getByTestId("tab-type").tap();
  await frame.getByTestId("signature-text").fill("Ada Embedded");
  await frame.getByTestId("apply-signature").tap();
  await frame.getByRole("dialog").waitFor({ state: "hidden" });
  await frame.getByRole("checkbox", { name: /I accept the terms/ }).tap();
  await frame.getByTestId("consent").tap();
  await frame.getByTestId("finish").tap();
  await heardOf(page, "completed");
  expect((await heard(page)).filter((m) => m.type === "field_changed").map((m) => m.requiredLeft)).toEqual([
    1, 0,
  ]);
  await context.close();
}, 90_000);

test("a page of a site the URL was not made for is refused the frame, and hears nothing", async () => {
  const request = await sendRequest("Framed elsewhere");
  const made = await embeddedUrl(request, sites.origin(APP));
  const url = (made.body as { url: string }).url;
  const context = await integrator.newContext();
  const page = await hostPage(context, STRANGER, url);
  await page.waitForFunction("window.frameLoads === 1");
  // The browser shows its own error page in place of the signing page (frame-ancestors).
  const framed = page.frames().find((f) => f !== page.mainFrame());
  expect(framed?.url().startsWith(sites.origin(SERVICE))).toBe(false);
  await page.waitForTimeout(500);
  expect(await heard(page)).toEqual([]);
  // What the browser refused: a page that names the one origin that may frame it, and sets no cookie.
  const another = ((await embeddedUrl(request, sites.origin(APP))).body as { url: string }).url;
  const answered = await fetch(`${gateway}${new URL(another).pathname}`);
  expect(answered.status).toBe(200);
  expect(answered.headers.get("content-security-policy")).toContain(`frame-ancestors ${sites.origin(APP)};`);
  expect(answered.headers.get("set-cookie")).toBeNull();
  // A page of its own, as the e-mailed links are, is framed by no one.
  const open = await call(gateway, "/sign/", {});
  expect(open.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  await context.close();
}, 60_000);

test("an Organization Admin lists the origins under Settings → Developer → Embedding, told what is wrong with a line", async () => {
  const context = await integrator.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${sites.origin(SERVICE)}/`);
  await page.getByLabel("E-mail").fill(deployment.adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(deployment.adminPassword);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Signature requests" }).waitFor();
  await page.goto(`${sites.origin(SERVICE)}/console/w/${accountId}/developer/embedding`);
  const form = page.getByTestId("embedding-settings");
  const origins = form.getByLabel("Allowed origins");
  // What the first test listed, one per line.
  await expect(origins.inputValue()).resolves.toBe(sites.origin(APP));
  await origins.fill(`${sites.origin(APP)}\nhttps://staging.integrator.test/app\n`);
  await form.getByRole("button", { name: "Save" }).click();
  await form.getByText("https://staging.integrator.test/app must be an origin alone").waitFor();
  await page.screenshot({ path: join(ARTIFACTS, "embedding-settings-refused.png") });
  await origins.fill(`${sites.origin(APP)}\nhttps://Staging.integrator.test\n`);
  await form.getByRole("button", { name: "Save" }).click();
  await form.getByText("Saved. These 2 origins may embed signing.").waitFor();
  await expect(origins.inputValue()).resolves.toBe(`${sites.origin(APP)}\nhttps://staging.integrator.test`);
  await page.screenshot({ path: join(ARTIFACTS, "embedding-settings.png"), fullPage: true });
  const listed = await call(api(), "/embedding-settings", { key });
  expect(listed.body).toEqual({ frameOrigins: [sites.origin(APP), "https://staging.integrator.test"] });
  await context.close();
}, 60_000);

describe("@countersign/embed, as npm installs it", () => {
  let unpacked: string;

  beforeAll(async () => {
    await run("npm", ["run", "-s", "build:embed"], { cwd: REPO });
    const packs = await mkdtemp(join(tmpdir(), "embed-pack-"));
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", packs], {
      cwd: join(REPO, "gateway", "embed"),
    });
    const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
    await run("tar", ["-xzf", join(packs, filename), "-C", packs]);
    unpacked = join(packs, "package");
    // A consumer's project: the package where npm puts it, React and its types beside it.
    const modules = join(packs, "node_modules");
    await mkdir(join(modules, "@countersign"), { recursive: true });
    await mkdir(join(modules, "@types"), { recursive: true });
    await symlink(unpacked, join(modules, "@countersign", "embed"));
    for (const name of ["react", "react-dom", "@types/react", "@types/react-dom"])
      await symlink(join(REPO, "node_modules", name), join(modules, name));
    sites.serve(APP, (req, res) => {
      const path = new URL(req.url ?? "/", "https://app").pathname;
      const page = HOST_PAGES[path];
      if (page) return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
      if (path.startsWith("/embed/") || path === "/react-app.js") {
        const file =
          path === "/react-app.js" ? join(packs, "react-app.js") : join(unpacked, "dist", path.slice(7));
        return void readFile(file).then(
          (bytes) => res.writeHead(200, { "content-type": "text/javascript" }).end(bytes),
          () => res.writeHead(404).end(),
        );
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(HOST_PAGE);
    });
    // The React app, bundled as an app's bundler would, against the unpacked package.
    await esbuild({
      absWorkingDir: packs,
      stdin: { contents: REACT_APP, loader: "tsx", resolveDir: packs },
      bundle: true,
      jsx: "automatic",
      format: "esm",
      outfile: join(packs, "react-app.js"),
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
    });
  }, 120_000);

  test("what it publishes is typed by itself: a consumer's code checks, and a wrong detail does not", async () => {
    const consumer = join(unpacked, "..", "consumer.ts");
    await writeFile(
      consumer,
      `import { defineCountersignElements, isSigningFrameMessage, type SigningFrameEvent } from "@countersign/embed";
import { CountersignSender, CountersignSigning, CountersignTemplateEditor } from "@countersign/embed/react";
defineCountersignElements();
const signing = document.createElement("countersign-signing");
signing.url = "https://sign.example.com/sign/x";
signing.addEventListener("countersign:completed", (event) => {
  const everyone: boolean = event.detail.everyoneSigned;
  return everyone;
});
// @ts-expect-error ready says no status
signing.addEventListener("countersign:ready", (event) => event.detail.requestStatus);
window.addEventListener("message", (event) => {
  if (isSigningFrameMessage(event.data)) {
    const seen: SigningFrameEvent["type"] = event.data.type;
    return seen;
  }
});
export const element = CountersignSigning({ url: "https://sign.example.com/sign/x", onSessionExpired: (e) => e.reason });
const sender = document.createElement("countersign-sender");
sender.addEventListener("countersign:sent", (event) => {
  const sent: string = event.detail.requestId;
  return sent;
});
// @ts-expect-error a template is saved, not sent: saved says no request
document.createElement("countersign-template-editor").addEventListener("countersign:saved", (event) => event.detail.requestId);
export const views = [
  CountersignSender({ url: "https://sign.example.com/console/views/x", onSent: (e) => e.status }),
  CountersignTemplateEditor({ url: "https://sign.example.com/console/views/x", onSaved: (e) => e.templateId }),
];
`,
    );
    const program = ts.createProgram([consumer], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
      types: [],
      jsx: ts.JsxEmit.ReactJSX,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
    // Only its own files: nothing of the repository's private packages reaches a consumer.
    const published = await readdir(join(unpacked, "dist"));
    for (const file of published.filter((f) => f.endsWith(".d.ts")))
      expect(await readFile(join(unpacked, "dist", file), "utf8")).not.toContain("@countersign/domain");
  }, 60_000);

  test("its sender element frames a sender view and hands the host the request it sent, and no signing message", async () => {
    const upload = await call(api(), "/documents/upload?filename=offer.pdf", {
      key,
      method: "POST",
      body: await makePdf(1, "Offer"),
      headers: { "content-type": "application/pdf" },
    });
    const draft = await call(api(), "/signature-requests", {
      key,
      method: "POST",
      json: {
        title: "Offer sent from the app",
        documentIds: [(upload.body as { id: string }).id],
        fields: [{ type: "signature", role: "Client", page: 1, x: 60, y: 520, width: 200, height: 50 }],
        recipients: [{ name: "Ada Sent", email: "ada.sent@integrator.test", role: "Client" }],
      },
    });
    const requestId = (draft.body as { id: string }).id;
    const view = await call(api(), "/sender-views", {
      key,
      method: "POST",
      json: { requestId, frameOrigin: sites.origin(APP) },
    });
    expect(view.status).toBe(201);
    const context = await integrator.newContext({ viewport: { width: 1100, height: 820 } });
    const page = await context.newPage();
    await page.goto(
      `${sites.origin(APP)}/sender-element?url=${encodeURIComponent((view.body as { url: string }).url)}`,
    );
    await heardOf(page, "ready");
    await page
      .frameLocator("countersign-sender iframe")
      .getByRole("button", { name: "Send for signature" })
      .click();
    expect(await heardOf(page, "sent")).toEqual({
      origin: "element",
      view: "sender",
      type: "sent",
      requestId,
      status: "sent",
    });
    expect((await heard(page)).map((m) => m.type)).toEqual(["ready", "sent"]);
    await context.close();
  }, 60_000);

  test.each([
    ["its element", "/element"],
    ["its React wrapper", "/react"],
  ])(
    "%s frames a signing and hands the host each event, typed",
    async (_what, path) => {
      const request = await sendRequest(`Embedded by ${path.slice(1)}`);
      const url = ((await embeddedUrl(request, sites.origin(APP))).body as { url: string }).url;
      const context = await integrator.newContext({ viewport: { width: 1100, height: 820 } });
      const page = await context.newPage();
      await page.goto(`${sites.origin(APP)}${path}?url=${encodeURIComponent(url)}`);
      const frame = page.frameLocator("countersign-signing iframe");
      await heardOf(page, "ready");
      await signInFrame(frame);
      const completed = await heardOf(page, "completed");
      expect(completed).toEqual({
        origin: "element",
        type: "completed",
        requestId: request.id,
        recipientId: request.recipientId,
        requestStatus: expect.any(String),
        everyoneSigned: true,
      });
      expect((await heard(page)).map((m) => m.type)).toEqual([
        "ready",
        "field_changed",
        "field_changed",
        "completed",
      ]);
      await page.screenshot({ path: join(ARTIFACTS, `embed-package${path.replace("/", "-")}.png`) });
      await context.close();
    },
    90_000,
  );
});
