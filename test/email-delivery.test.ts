/**
 * A self-hosted service whose e-mail does not get through says so. Against a real SMTP server that
 * refuses one address: the recipient's e-mail delivery in the API names the server's reply, the
 * workspace's Recent Errors lists the failed try, the console's request page shows it, and an
 * Organization Admin's test e-mail from Settings → Developer → Configuration shows the exchange's
 * outcome, taken or refused. Screenshots go to test/artifacts/email-*.png.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { SMTPServer } from "smtp-server";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { expectDocumented } from "./support/openapi.js";
import { makePdf } from "./support/pdfs.js";

const ARTIFACTS = join(REPO, "test", "artifacts");
const REFUSAL = "5.1.1 <bounce@example.com>: Recipient address rejected: User unknown";

let smtp: SMTPServer;
let smtpPort: number;
const delivered: string[] = [];
let browser: Browser;
let deployment: Deployment;
let key: { secret: string; accountId: string };

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    onRcptTo(address, _session, callback) {
      if (address.address !== "bounce@example.com") return callback();
      callback(Object.assign(new Error(REFUSAL), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        delivered.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as { port: number }).port;
  [browser, deployment] = await Promise.all([
    launchChromium(),
    startStandalone(undefined, { env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } }),
  ]);
  key = JSON.parse((await deployment.cli("keys", "create", "--name", "e-mail")).stdout);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await deployment?.destroy();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const api = (path: string, init: Parameters<typeof call>[2] = {}) =>
  call(`${deployment.gateways[0]}/api/v1`, path, { key: key.secret, ...init });

async function logIn(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${deployment.gateways[0]}/`);
  await page.getByLabel("E-mail").fill(deployment.adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(deployment.adminPassword);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Signature requests" }).waitFor();
  return page;
}

test("an invitation the SMTP server refuses shows the server's reply in the API, in Recent Errors and on the request's page", async () => {
  const upload = await api("/documents/upload?filename=offer.pdf", {
    method: "POST",
    body: await makePdf(1, "Offer letter"),
    headers: { "content-type": "application/pdf" },
  });
  const created = await api("/signature-requests", {
    method: "POST",
    json: {
      title: "Offer letter",
      documentIds: [(upload.body as { id: string }).id],
      fields: [{ type: "signature", role: "candidate", page: 1, x: 60, y: 600, width: 200, height: 50 }],
      recipients: [
        { name: "Bo Bounce", email: "bounce@example.com", role: "candidate" },
        { name: "Ada Lovelace", email: "ada@example.com", kind: "cc" },
      ],
      send: true,
    },
  });
  expect(created.status).toBe(201);
  const { id } = created.body as { id: string };

  const retrying = await eventually(async () => {
    const got = await api(`/signature-requests/${id}`);
    const [signer] = (got.body as { recipients: { emailDelivery: { status: string } | null }[] }).recipients;
    return signer?.emailDelivery?.status === "retrying" ? got : undefined;
  }, 20_000);
  expectDocumented("GET", "/api/v1/signature-requests/{requestId}", 200, retrying.body);
  const [signer] = (retrying.body as { recipients: Record<string, unknown>[] }).recipients;
  expect(signer?.emailDelivery).toMatchObject({
    status: "retrying",
    email: "invitation",
    attempts: 1,
    error: `the SMTP server 127.0.0.1:${smtpPort} refused the message: 550 ${REFUSAL}`,
  });

  const page = await logIn();
  await page.goto(`${deployment.gateways[0]}/console/w/${key.accountId}/developer/errors`);
  const row = page
    .getByTestId("recent-errors")
    .getByRole("row")
    .filter({ hasText: "Recipient address rejected" });
  await eventually(async () => {
    if ((await row.count()) > 0) return true;
    await page.getByRole("button", { name: "Refresh" }).click();
    return undefined;
  }, 20_000);
  await row.getByText("E-mail", { exact: true }).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, "email-recent-errors.png"), fullPage: true });

  await page.goto(`${deployment.gateways[0]}/console/w/${key.accountId}/requests/${id}`);
  const line = page.getByTestId("email-delivery").first();
  await line.filter({ hasText: "Invitation e-mail not sent yet (1 try)" }).waitFor();
  await line.filter({ hasText: `550 ${REFUSAL}` }).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, "email-request-detail.png"), fullPage: true });
  await page.close();
}, 90_000);

test("an Organization Admin's test e-mail says whether the server took it, with its reply", async () => {
  const page = await logIn();
  await page.goto(`${deployment.gateways[0]}/console/w/${key.accountId}/developer/configuration`);
  const card = page.getByTestId("test-email");
  const field = card.getByLabel("Send a test e-mail to");
  await field.waitFor();
  expect(await field.inputValue()).toBe(deployment.adminEmail);

  await card.getByRole("button", { name: "Send test e-mail" }).click();
  const result = card.getByTestId("test-email-result");
  await result.filter({ hasText: `Sent in` }).waitFor();
  await result.filter({ hasText: `127.0.0.1:${smtpPort} took the message` }).waitFor();
  expect(await card.getByTestId("test-email-detail").textContent()).toMatch(/^250 /);
  expect(delivered).toContain(deployment.adminEmail);

  await field.fill("bounce@example.com");
  await card.getByRole("button", { name: "Send test e-mail" }).click();
  await result.filter({ hasText: "Not sent in" }).waitFor();
  expect(await card.getByTestId("test-email-detail").textContent()).toBe(
    `the SMTP server 127.0.0.1:${smtpPort} refused the message: 550 ${REFUSAL}`,
  );
  await page.screenshot({ path: join(ARTIFACTS, "email-test-refused.png"), fullPage: true });

  await field.fill("not an address");
  await card.getByRole("button", { name: "Send test e-mail" }).click();
  // Refused before anything is sent, and said at the field.
  await card.locator('input[aria-invalid="true"]').waitFor();
  expect(await card.getByTestId("test-email-result").count()).toBe(0);
  await page.close();
}, 60_000);
