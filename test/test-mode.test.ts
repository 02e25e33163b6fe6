/**
 * Test mode, as an integrator building against a deployment meets it: a test key (sk_test_…, made
 * by the CLI and in the console) makes test requests that live keys never see, and the other way
 * round; their e-mails go to the outbox while live ones reach the SMTP server; their sealed PDF
 * carries "TEST — NOT LEGALLY BINDING" on every page and a seal the verifier calls a test; and the
 * console's "Test data" switch lists them apart. Screenshots and the rendered page go to
 * test/artifacts/test-mode-*.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { embeddedSigner, embeddedSigningLink } from "./support/embedded-signer.js";
import { call, eventually } from "./support/http.js";
import { expectDocumented } from "./support/openapi.js";
import { outboxMails } from "./support/outbox-mail.js";
import { pdfsig, pdfText } from "./support/pdf-tools.js";
import { makePdf } from "./support/pdfs.js";
import { sealedPdfOf } from "./support/sealed-pdf.js";
import { startSmtpPeer } from "./support/smtp-peer.js";

const ARTIFACTS = join(REPO, "test", "artifacts");
const MARK = "TEST — NOT LEGALLY BINDING";

let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let deployment: Deployment;
let gateway: string;
let browser: Browser;
const keys = { live: "", test: "", accountId: "" };

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  smtp = await startSmtpPeer();
  [deployment, browser] = await Promise.all([
    startStandalone(undefined, { env: { SMTP_URL: smtp.url } }),
    launchChromium(),
  ]);
  gateway = deployment.gateways[0] as string;
  const made = async (...flags: string[]) =>
    JSON.parse((await deployment.cli("keys", "create", "--name", "mode", ...flags)).stdout) as {
      secret: string;
      test: boolean;
      accountId: string;
    };
  const [live, test] = await Promise.all([made(), made("--test")]);
  expect(live).toMatchObject({ test: false, secret: expect.stringMatching(/^sk_[0-9A-Za-z]{43}$/) });
  expect(test).toMatchObject({ test: true, secret: expect.stringMatching(/^sk_test_[0-9A-Za-z]{43}$/) });
  keys.live = live.secret;
  keys.test = test.secret;
  keys.accountId = live.accountId;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await deployment?.destroy();
  await smtp?.close();
});

const api = (key: string, path: string, init: Parameters<typeof call>[2] = {}) =>
  call(`${gateway}/api/v1`, path, { key, ...init });

/** A request sent by e-mail to `email` with `key`. */
async function sentTo(
  key: string,
  email: string,
  title: string,
  headers: Record<string, string> = {},
): Promise<{ id: string; test: boolean; documentIds: string[] }> {
  const upload = await api(key, "/documents/upload?filename=offer.pdf", {
    method: "POST",
    body: await makePdf(1, title),
    headers: { "content-type": "application/pdf" },
  });
  const created = await api(key, "/signature-requests", {
    method: "POST",
    headers,
    json: {
      title,
      documentIds: [(upload.body as { id: string }).id],
      fields: [{ type: "signature", role: "Signer", page: 1, x: 60, y: 600, width: 180, height: 40 }],
      recipients: [{ name: "Grace", email, role: "Signer" }],
      send: true,
    },
  });
  expect(created.status).toBe(201);
  expectDocumented("POST", "/api/v1/signature-requests", 201, created.body);
  return created.body as { id: string; test: boolean; documentIds: string[] };
}

/** Signs a request of `key` to one embedded signer through, and answers its sealed PDF. */
async function signedThrough(key: string): Promise<Uint8Array> {
  const { request, signer, fields } = await embeddedSigner(gateway, key, { title: "Pilot agreement" });
  const signed = await signer.call("/sign/api/submit", {
    consent: true,
    values: Object.fromEntries(fields.map((id) => [id, { kind: "typed", text: "Ada Lovelace" }])),
  });
  expect(signed.status).toBe(200);
  return sealedPdfOf(`${gateway}/api/v1`, key, request.id);
}

const verified = async (pdf: Uint8Array) => {
  const res = await fetch(`${gateway}/verify/api/report`, {
    method: "POST",
    headers: { "content-type": "application/pdf" },
    body: pdf,
  });
  return (await res.json()) as { verdict: string; test: boolean; summary: string };
};

test("a test key's requests are apart from live ones: each key lists and finds only its own mode's", async () => {
  const [live, test] = await Promise.all([
    sentTo(keys.live, "live-apart@example.com", "Live apart"),
    sentTo(keys.test, "test-apart@example.com", "Test apart"),
  ]);
  expect(live.test).toBe(false);
  expect(test.test).toBe(true);

  const listed = async (key: string) =>
    ((await api(key, "/signature-requests?pageSize=100")).body as { items: { id: string }[] }).items.map(
      (r) => r.id,
    );
  const [liveList, testList] = await Promise.all([listed(keys.live), listed(keys.test)]);
  expect(liveList).toContain(live.id);
  expect(liveList).not.toContain(test.id);
  expect(testList).toContain(test.id);
  expect(testList).not.toContain(live.id);

  // Not found by id either, nor acted on: to the other mode's key it does not exist.
  expect((await api(keys.live, `/signature-requests/${test.id}`)).status).toBe(404);
  expect((await api(keys.test, `/signature-requests/${live.id}`)).status).toBe(404);
  expect(
    (await api(keys.live, `/signature-requests/${test.id}/cancel`, { method: "POST", json: {} })).status,
  ).toBe(404);

  // Nor through what groups requests, nor what they were made of.
  const set = await api(keys.test, "/agreement-sets", {
    method: "POST",
    json: { name: "Trial", requestIds: [test.id] },
  });
  expect(set.status).toBe(201);
  expect((await api(keys.live, `/agreement-sets/${(set.body as { id: string }).id}`)).status).toBe(404);
  const documents = async (key: string) =>
    ((await api(key, "/documents?pageSize=100")).body as { items: { id: string }[] }).items.map((d) => d.id);
  expect(await documents(keys.test)).toContain(test.documentIds[0]);
  expect(await documents(keys.test)).not.toContain(live.documentIds[0]);
  expect(await documents(keys.live)).not.toContain(test.documentIds[0]);

  // One client key (Idempotency-Key) used by both: each mode makes its own, neither is answered the other's.
  const liveOrder = await sentTo(keys.live, "order@example.com", "Order 42", {
    "Idempotency-Key": "order-42",
  });
  const testOrder = await sentTo(keys.test, "order@example.com", "Order 42", {
    "Idempotency-Key": "order-42",
  });
  expect(testOrder.id).not.toBe(liveOrder.id);
  expect([liveOrder.test, testOrder.test]).toEqual([false, true]);
});

test("webhook endpoints are of the mode of the key that registered them: each gets its own mode's events, and only its mode's keys see it", async () => {
  const register = async (key: string) => {
    const created = await api(key, "/webhook-endpoints", {
      method: "POST",
      json: { url: "https://hooks.example.com/countersign", eventTypes: ["signature_request.sent"] },
    });
    expect(created.status).toBe(201);
    return (created.body as { id: string }).id;
  };
  const [liveEndpoint, testEndpoint] = await Promise.all([register(keys.live), register(keys.test)]);
  const listed = async (key: string) =>
    ((await api(key, "/webhook-endpoints")).body as { items: { id: string }[] }).items.map((e) => e.id);
  expect(await listed(keys.live)).toEqual(expect.arrayContaining([liveEndpoint]));
  expect(await listed(keys.live)).not.toContain(testEndpoint);
  expect(await listed(keys.test)).toEqual([testEndpoint]);
  expect((await api(keys.live, `/webhook-endpoints/${testEndpoint}/messages`)).status).toBe(404);
  expect((await api(keys.test, `/webhook-endpoints/${liveEndpoint}`, { method: "DELETE" })).status).toBe(404);

  const [live, test] = await Promise.all([
    sentTo(keys.live, "live-hook@example.com", "Live hook"),
    sentTo(keys.test, "test-hook@example.com", "Test hook"),
  ]);
  const payloads = async (key: string, endpoint: string) =>
    (
      (await api(key, `/webhook-endpoints/${endpoint}/messages`)).body as {
        items: { payload: { data: { signatureRequest: { id: string; test: boolean } } } }[];
      }
    ).items.map((m) => m.payload);
  const testEvents = await eventually(async () => {
    const got = await payloads(keys.test, testEndpoint);
    return got.some((p) => p.data.signatureRequest.id === test.id) ? got : undefined;
  }, 30_000);
  expect(testEvents.map((p) => p.data.signatureRequest.test)).not.toContain(false);
  const liveEvents = await eventually(async () => {
    const got = await payloads(keys.live, liveEndpoint);
    return got.some((p) => p.data.signatureRequest.id === live.id) ? got : undefined;
  }, 30_000);
  expect(liveEvents.map((p) => p.data.signatureRequest.id)).not.toContain(test.id);
});

test("a test request's e-mails go to the outbox, marked as a test, and never to the SMTP server; a live one's do", async () => {
  await Promise.all([
    sentTo(keys.live, "live-mail@example.com", "Live mail"),
    sentTo(keys.test, "test-mail@example.com", "Test mail"),
  ]);
  const written = await eventually(async () => {
    const mails = await outboxMails(deployment.dataDir);
    return mails.find((m) => m.to === "test-mail@example.com");
  }, 30_000);
  expect(written.subject).toMatch(/^\[TEST\] /);
  await eventually(async () => smtp.mails.some((m) => m.to === "live-mail@example.com") || undefined, 30_000);
  expect(smtp.mails.map((m) => m.to)).not.toContain("test-mail@example.com");
  expect((await outboxMails(deployment.dataDir)).map((m) => m.to)).not.toContain("live-mail@example.com");
});

test("a test request is sealed with TEST — NOT LEGALLY BINDING on every page and a seal the verifier calls a test", async () => {
  const [testPdf, livePdf] = await Promise.all([signedThrough(keys.test), signedThrough(keys.live)]);

  const pages = (await pdfText(testPdf)).split("\f").filter((page) => page.trim() !== "");
  expect(pages.length).toBeGreaterThanOrEqual(2);
  for (const page of pages) expect(page).toContain(MARK);
  expect(await pdfText(livePdf)).not.toContain(MARK);

  // The mark is under the seal, which poppler finds valid over the whole file.
  const poppler = await pdfsig(testPdf);
  expect(poppler).toContain("Signature is Valid.");
  expect(poppler).toContain("Total document signed");

  const [testReport, liveReport] = await Promise.all([verified(testPdf), verified(livePdf)]);
  expect(testReport).toMatchObject({ verdict: "intact", test: true });
  expect(testReport.summary).toMatch(/^A test seal, not legally binding/);
  expect(liveReport).toMatchObject({ verdict: "intact", test: false });

  const dir = await mkdtemp(join(tmpdir(), "test-mode-"));
  await writeFile(join(dir, "sealed.pdf"), testPdf);
  await promisify(execFile)("pdftoppm", [
    "-png",
    "-r",
    "60",
    "-f",
    "1",
    "-l",
    "1",
    join(dir, "sealed.pdf"),
    join(ARTIFACTS, "test-mode-sealed"),
  ]);
  expect((await readFile(join(ARTIFACTS, "test-mode-sealed-1.png"))).length).toBeGreaterThan(1000);
});

test("the signer of a test request is told on their page that signing it binds no one; a live request's is not", async () => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  const test = await embeddedSigningLink(gateway, keys.test, { title: "Trial lease" });
  await page.goto(test.url);
  await page.getByTestId("test-notice").waitFor();
  expect(await page.getByTestId("test-notice").textContent()).toContain("Signing them binds no one");
  await page.screenshot({ path: join(ARTIFACTS, "test-mode-signing-390.png") });
  const live = await embeddedSigningLink(gateway, keys.live, { title: "Real lease" });
  await page.goto(live.url);
  await page.getByTestId("request-title").getByText("Real lease").waitFor();
  expect(await page.getByTestId("test-notice").count()).toBe(0);
  await context.close();
});

test("the console's Test data switch lists test requests apart, and the key dialog makes test keys", async () => {
  const marked = await sentTo(keys.test, "console-test@example.com", "Console test request");
  await sentTo(keys.live, "console-live@example.com", "Console live request");
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${gateway}/`);
  await page.getByLabel("E-mail").fill(deployment.adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(deployment.adminPassword);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Signature requests" }).waitFor();
  await page.getByText("Console live request").first().waitFor();
  expect(await page.getByText("Console test request").count()).toBe(0);

  await page.getByTestId("test-data-switch").check();
  await page.getByTestId("test-data-banner").waitFor();
  await page.getByText("Console test request").first().waitFor();
  expect(await page.getByText("Console live request").count()).toBe(0);
  await page.screenshot({ path: join(ARTIFACTS, "test-mode-console.png") });
  await page.getByText("Console test request").first().click();
  await page.getByText("Test — not legally binding", { exact: true }).waitFor();
  expect(page.url()).toContain(marked.id);
  // A download the page links to, as the browser fetches it: in the switch's mode too.
  const exported = await page.request.get(
    `${gateway}/console/api/workspaces/${keys.accountId}/signature-requests/${marked.id}/audit-trail/export?format=csv`,
  );
  expect(exported.status()).toBe(200);

  await page.goto(`${gateway}/console/w/${keys.accountId}/developer/api-keys`);
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByTestId("create-key-dialog");
  await dialog.getByLabel("Name").fill("Sandbox");
  await dialog.getByTestId("key-mode").getByLabel(/^Test/).check();
  await dialog.getByRole("button", { name: "Create key" }).click();
  const secret = await page.getByTestId("new-key-secret").textContent();
  expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{43}$/);
  await page.close();
});
