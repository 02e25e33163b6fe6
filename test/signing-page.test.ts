/**
 * People signing in a real browser (Debian's Chromium through playwright-core): one signer from
 * the link in their e-mail, typing a signature, the next through an embedded URL, drawing one and
 * landing back on the sender's returnUrl; a decline; a phone-sized run by touch. The last
 * signature yields a sealed PDF that pdfsig verifies. Screenshots go to test/artifacts/.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { ENDED_WORDS } from "@countersign/domain";
import type { Browser, Page } from "playwright-core";
import { de as linkWords } from "../gateway/src/signing/link-page-messages/de.js";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startDistributed, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { outboxMails } from "./support/outbox-mail.js";
import { pdfsig, pdfText } from "./support/pdf-tools.js";
import { makePdf } from "./support/pdfs.js";
import { sealedPdfOf } from "./support/sealed-pdf.js";
import { signingPageWords } from "./support/web-catalogues.js";

const ARTIFACTS = join(REPO, "test", "artifacts");

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);

let browser: Browser;
/** The sender's app an embedded signer returns to. */
let senderApp: Server;
let senderAppUrl: string;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
  senderApp = createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end("<!doctype html><title>Sender app</title><h1>Back in the sender's app</h1>");
  });
  await new Promise<void>((resolve) => senderApp.listen(0, "127.0.0.1", resolve));
  senderAppUrl = `http://127.0.0.1:${(senderApp.address() as AddressInfo).port}/signed`;
});
afterAll(async () => {
  await browser?.close();
  senderApp?.close();
  await infra?.close();
});

describe.each(modes)("%s mode: signing in a browser", (mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: { secret: string };
  const api = () => `${gateway}/api/v1`;
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(ARTIFACTS, `${mode}-${name}.png`), fullPage: false });

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "browser")).stdout);
  }, 180_000);
  afterAll(() => deployment?.destroy());

  async function sendRequest(
    tag: string,
    signers: Record<string, unknown>[],
    extra: Record<string, unknown> = {},
  ) {
    const upload = await call(api(), "/documents/upload?filename=agreement.pdf", {
      key: key.secret,
      method: "POST",
      body: await makePdf(2, "Service agreement"),
      headers: { "content-type": "application/pdf" },
    });
    const documentId = (upload.body as { id: string }).id;
    const fields = signers.flatMap((signer, i) => [
      { type: "signature", role: signer.role, page: 1, x: 60, y: 520 + i * 90, width: 200, height: 50 },
      { type: "date_signed", role: signer.role, page: 1, x: 300, y: 540 + i * 90, width: 110, height: 20 },
      {
        type: "checkbox",
        role: signer.role,
        page: 2,
        x: 60,
        y: 120 + i * 60,
        width: 16,
        height: 16,
        label: "I have read the terms",
      },
    ]);
    const created = await call(api(), "/signature-requests", {
      key: key.secret,
      method: "POST",
      json: {
        title: `Service agreement ${tag}`,
        message: "Please sign this week.",
        documentIds: [documentId],
        fields,
        recipients: signers,
        send: true,
        ...extra,
      },
    });
    expect(created.status).toBe(201);
    return created.body as { id: string; recipients: { id: string; email: string }[] };
  }

  const linkFor = (address: string) =>
    eventually(
      async () => (await outboxMails(deployment.dataDir)).find((m) => m.to === address && m.link)?.link,
    );

  /** Fills every field of the page: signatures through the dialog, checkboxes ticked, consent given. */
  async function signOnPage(page: Page, how: "type" | "draw", name: string) {
    await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
    await shot(page, `${name}-loaded`);
    await page
      .getByRole("button", { name: /^Sign: Signature, required/ })
      .first()
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    if (how === "type") {
      await page.getByTestId("tab-type").click();
      await page.getByTestId("signature-text").fill("Ada Lovelace");
    } else {
      await page.getByTestId("tab-draw").click();
      const canvas = page.getByTestId("signature-canvas");
      const box = await canvas.boundingBox();
      if (!box) throw new Error("the drawing area is not visible");
      await page.mouse.move(box.x + 20, box.y + box.height * 0.6);
      await page.mouse.down();
      for (let i = 1; i <= 12; i++) {
        await page.mouse.move(box.x + 20 + i * 18, box.y + box.height * (0.6 + 0.25 * Math.sin(i)));
      }
      await page.mouse.up();
    }
    await shot(page, `${name}-dialog`);
    await page.getByTestId("apply-signature").click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("checkbox", { name: /I have read the terms/ }).check();
    await page.getByTestId("consent").check();
    await shot(page, `${name}-filled`);
    await page.getByTestId("finish").click();
  }

  test("one signer from the e-mailed link, the next embedded with a returnUrl; the result is sealed", async () => {
    const request = await sendRequest("two", [
      { name: "Ada Lovelace", email: `ada.${mode}@example.com`, role: "Client", routingOrder: 1 },
      {
        name: "Bo Embedded",
        email: `bo.${mode}@example.com`,
        role: "Provider",
        routingOrder: 2,
        clientUserId: "bo-1",
      },
    ]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(await linkFor(`ada.${mode}@example.com`));
    expect(new URL(page.url()).pathname).toBe("/sign/");
    await expect(page.getByTestId("request-title").textContent()).resolves.toContain("Service agreement two");
    await signOnPage(page, "type", "email-signer");
    await page.getByTestId("done-state").waitFor();
    await shot(page, "email-signer-done");
    await context.close();

    const embedded = await call(api(), "/embedded-signing-url", {
      key: key.secret,
      method: "POST",
      json: { requestId: request.id, recipientId: request.recipients[1]?.id, returnUrl: senderAppUrl },
    });
    expect(embedded.status).toBe(201);
    const second = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const embeddedPage = await second.newPage();
    await embeddedPage.goto((embedded.body as { url: string }).url);
    await signOnPage(embeddedPage, "draw", "embedded-signer");
    await embeddedPage.waitForURL((url) => url.href.startsWith(senderAppUrl));
    expect(new URL(embeddedPage.url()).searchParams.get("event")).toBe("signing_complete");
    await second.close();

    const bytes = await sealedPdfOf(api(), key.secret, request.id);
    await writeFile(join(ARTIFACTS, `${mode}-sealed.pdf`), bytes);
    expect(await pdfsig(bytes)).toContain("Signature is Valid.");
  }, 120_000);

  test("the next signer sees what the first one filled in, in place; the last waits for the seal and downloads it", async () => {
    await sendRequest("after", [
      { name: "Ada Lovelace", email: `ada.after.${mode}@example.com`, role: "Client", routingOrder: 1 },
      { name: "Lin Last", email: `lin.after.${mode}@example.com`, role: "Provider", routingOrder: 2 },
    ]);
    const first = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const firstPage = await first.newPage();
    await firstPage.goto(await linkFor(`ada.after.${mode}@example.com`));
    await signOnPage(firstPage, "type", "first-signer");
    await firstPage.getByTestId("done-state").waitFor();
    await expect(firstPage.getByTestId("done-state").textContent()).resolves.toContain(
      "Others still have to sign",
    );
    // Theirs to keep at once: the pages with their signature, before the certificate and the seal.
    await shot(firstPage, "first-signer-copy-offered");
    const [download] = await Promise.all([
      firstPage.waitForEvent("download"),
      firstPage.getByTestId("download-copy").click(),
    ]);
    expect(download.suggestedFilename()).toBe("Service agreement after (signed by Ada Lovelace).pdf");
    const copy = new Uint8Array(await readFile((await download.path()) as string));
    await writeFile(join(ARTIFACTS, `${mode}-signer-copy.pdf`), copy);
    const text = await pdfText(copy);
    expect(text).toContain("Ada Lovelace");
    expect(text).not.toContain("Certificate of completion");
    expect(Buffer.from(copy).toString("latin1")).not.toContain("/ByteRange");
    const cookie = (await first.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const again = async () => fetch(`${gateway}/sign/api/copy`, { headers: { cookie } });
    const answers = [(await again()).status, (await again()).status, (await again()).status];
    expect(answers).toEqual([200, 200, 429]);
    await first.close();

    const last = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await last.newPage();
    await page.goto(await linkFor(`lin.after.${mode}@example.com`));
    await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
    // Ada's signature and her signing date, where she put them, not as fields of Lin's.
    const filled = page.locator('[data-testid^="filled-"]');
    await expect(filled.count()).resolves.toBe(3);
    await expect(filled.first().textContent()).resolves.toBe("Ada Lovelace");
    await expect(filled.first().getAttribute("aria-label")).resolves.toBe(
      "Signature, filled in by Ada Lovelace",
    );
    await filled.first().scrollIntoViewIfNeeded();
    await shot(page, "last-signer-sees-first");
    await signOnPage(page, "type", "last-signer");
    const done = page.getByTestId("done-state");
    await done.waitFor({ timeout: 30_000 });
    await expect(done.textContent()).resolves.toContain("Everyone has signed, and the document is sealed");
    await shot(page, "last-signer-complete");
    const href = await page.getByTestId("download-signed").getAttribute("href");
    const cookies = await last.cookies();
    const sealed = await fetch(`${gateway}${href}`, {
      headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
    });
    expect(await pdfsig(new Uint8Array(await sealed.arrayBuffer()))).toContain("Signature is Valid.");
    await last.close();
  }, 120_000);

  test("a signer the sender set to Arabic gets the e-mail and a right-to-left page in it, switches to German, and the date it showed in German is sealed as the day it is, YYYY-MM-DD", async () => {
    const [ar, de] = await Promise.all([signingPageWords("ar"), signingPageWords("de")]);
    const address = `amal.${mode}@example.com`;
    const request = await sendRequest("language", [
      { name: "Amal Haddad", email: address, role: "Client", locale: "ar" },
    ]);
    expect(request.recipients[0]).toMatchObject({ locale: "ar" });
    const invitation = await eventually(async () =>
      (await outboxMails(deployment.dataDir)).find((m) => m.to === address && m.link),
    );
    expect(invitation.subject).not.toContain("Please sign");
    expect(invitation.text).toMatch(/[\u0600-\u06FF]{3}/);

    // The browser asks for English: the sender's choice for this signer comes first.
    for (const [size, viewport] of [
      ["phone", { width: 390, height: 844 }],
      ["desktop", { width: 1280, height: 900 }],
    ] as const) {
      const context = await browser.newContext({ viewport, locale: "en-US" });
      const page = await context.newPage();
      await page.goto(invitation.link as string);
      await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
      await page.locator('html[lang="ar"][dir="rtl"]').waitFor({ state: "attached" });
      await expect(page.getByTestId("finish").textContent()).resolves.toBe(ar["actions.finish"]);
      const overflow = await page.evaluate<number>(
        "document.documentElement.scrollWidth - window.innerWidth",
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, `${size}-language-ar`);
      await context.close();
    }

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "en-US" });
    const page = await context.newPage();
    await page.goto(invitation.link as string);
    await page.locator('html[lang="ar"]').waitFor({ state: "attached" });
    await page.getByTestId("language").selectOption("de");
    await page.locator('html[lang="de"][dir="ltr"]').waitFor({ state: "attached" });
    await expect(page.getByTestId("finish").textContent()).resolves.toBe(de["actions.finish"]);
    // The choice is the signer's on this device: it outlasts a reload.
    await page.reload();
    await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
    await expect(page.getByTestId("finish").textContent()).resolves.toBe(de["actions.finish"]);
    const dateField = page.locator(".field-date_signed input");
    // The date in the page's language, once the service has answered.
    const shownDate = await eventually(async () => {
      const value = await dateField.inputValue();
      return /\d/.test(value) ? value : undefined;
    });
    await shot(page, "phone-language-de");

    await page.locator(".field-signature button").first().click();
    await page.getByTestId("signature-text").fill("Amal Haddad");
    await page.getByTestId("apply-signature").click();
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await page.getByRole("checkbox", { name: /I have read the terms/ }).check();
    await page.getByTestId("consent").check();
    await page.getByTestId("finish").click();
    await page.getByTestId("done-state").waitFor({ timeout: 30_000 });
    await expect(page.getByTestId("done-state").textContent()).resolves.toContain(de["complete.title"]);
    await context.close();

    const sealed = await sealedPdfOf(api(), key.secret, request.id);
    expect(shownDate).toMatch(/\d{4}/);
    // Sealed as the day it is, in the document's one form, not in the words the page showed.
    const firstPage = (await pdfText(sealed)).split("\f")[0];
    expect(firstPage).not.toContain(shownDate);
    expect(firstPage).toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
  }, 120_000);

  test("a link that cannot open says why in the language the browser asks for", async () => {
    const invalid = await fetch(`${gateway}/sign/${"x".repeat(43)}`, {
      headers: { "accept-language": "ja-JP,ja;q=0.9,en;q=0.5" },
    });
    expect(invalid.status).toBe(404);
    expect(invalid.headers.get("content-language")).toBe("ja");
    expect(await invalid.text()).toContain('<html lang="ja" dir="ltr">');

    const address = `cy.${mode}@example.com`;
    const request = await sendRequest("cancelled", [
      { name: "Cy Cancelled", email: address, role: "Client" },
    ]);
    const link = await linkFor(address);
    const cancel = await call(api(), `/signature-requests/${request.id}/cancel`, {
      key: key.secret,
      method: "POST",
      json: {},
    });
    expect(cancel.status).toBe(200);
    const gone = await fetch(link, { headers: { "accept-language": "de-DE,de;q=0.9" }, redirect: "manual" });
    expect(gone.status).toBe(410);
    const html = await gone.text();
    expect(html).toContain(linkWords["gone.title"]);
    expect(html).toContain(ENDED_WORDS.de.cancelled);
  }, 60_000);

  test("a signer declines with a reason and sees that they declined", async () => {
    const request = await sendRequest("decline", [
      { name: "Di Decliner", email: `di.${mode}@example.com`, role: "Client" },
    ]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(await linkFor(`di.${mode}@example.com`));
    // A copy is of what was signed: there is none to have before signing.
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    expect((await fetch(`${gateway}/sign/api/copy`, { headers: { cookie } })).status).toBe(409);
    await page.getByTestId("decline").click();
    await page.getByTestId("decline-reason").fill("The fee is not what we agreed.");
    await shot(page, "decline-dialog");
    await page.getByTestId("confirm-decline").click();
    await page.getByTestId("declined-state").waitFor();
    await shot(page, "declined");
    await context.close();
    const got = await call(api(), `/signature-requests/${request.id}`, { key: key.secret });
    expect(got.body).toMatchObject({ status: "declined" });
  }, 60_000);

  test("a signer the sender gave an access code and asked for an e-mailed code gives both before the document shows; a wrong one says what is left; on a phone and a desktop", async () => {
    const address = `gia.${mode}@example.com`;
    const request = await sendRequest("codes", [
      { name: "Gia Guarded", email: address, role: "Client", accessCode: "orchid-7", emailCode: true },
    ]);
    expect(request.recipients[0]).toMatchObject({ authentication: ["access_code", "email_code"] });
    for (const [size, viewport] of [
      ["phone", { width: 390, height: 844 }],
      ["desktop", { width: 1280, height: 900 }],
    ] as const) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(await linkFor(address));
      const gate = page.getByTestId("authentication-gate");
      await gate.waitFor();
      // Nothing of the document before the codes: no page is drawn, no document was fetched.
      expect(await page.locator('[data-testid="page-1"]').count()).toBe(0);
      await shot(page, `${size}-codes-asked`);
      await page.getByLabel("Access code").fill("orchid-8");
      const codeMails = async () =>
        (await outboxMails(deployment.dataDir)).filter(
          (m) => m.to === address && /is your code/.test(m.subject),
        );
      const before = (await codeMails()).length;
      await page.getByRole("button", { name: "Send me a code" }).click();
      await gate.getByText(/We sent a six-digit code to g•••@example\.com/).waitFor();
      // This session's code: the e-mail after those of earlier sessions.
      const code = await eventually(async () => {
        const mails = await codeMails();
        return mails.length > before ? /\b(\d{6})\b/.exec(mails.at(-1)?.subject ?? "")?.[1] : undefined;
      });
      await page.getByLabel("Code from your e-mail").fill(code);
      await page.getByRole("button", { name: "Continue to the document" }).click();
      await gate.getByText(/That is not the access code the sender gave you\. \d attempts left/).waitFor();
      const overflow = await page.evaluate<number>(
        "document.documentElement.scrollWidth - window.innerWidth",
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, `${size}-codes-wrong`);
      await page.getByLabel("Access code").fill("orchid-7");
      await page.getByRole("button", { name: "Continue to the document" }).click();
      await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
      await shot(page, `${size}-codes-passed`);
      await context.close();
    }
    const trail = await call(api(), `/signature-requests/${request.id}/audit-trail`, { key: key.secret });
    const actions = (trail.body as { items: { action: string }[] }).items.map((e) => e.action);
    expect(actions.filter((a) => a.startsWith("authentic"))).toEqual([
      "authentication_code_sent",
      "authentication_failed",
      "authenticated",
      "authentication_code_sent",
      "authentication_failed",
      "authenticated",
    ]);
  }, 90_000);

  test("on a phone, a signer assigns the request to a colleague with a reason; the colleague's own link opens it", async () => {
    const request = await sendRequest(
      "reassign",
      [{ name: "Rae Reassigner", email: `rae.${mode}@example.com`, role: "Client" }],
      { allowReassign: true },
    );
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(await linkFor(`rae.${mode}@example.com`));
    await page.getByTestId("reassign").click();
    const dialog = page.getByTestId("reassign-dialog");
    await dialog.getByLabel("Their name").fill("Col Colleague");
    await dialog.getByLabel("Their e-mail").fill(`col.${mode}@example.com`);
    await dialog.getByLabel("Why").fill("Col runs procurement now.");
    await shot(page, "reassign-dialog");
    await dialog.getByTestId("confirm-reassign").click();
    await page.getByTestId("reassigned-state").waitFor();
    await page.getByText(`Col Colleague (col.${mode}@example.com) has been e-mailed a link`).waitFor();
    await shot(page, "reassigned");
    await page.goto(await linkFor(`col.${mode}@example.com`));
    await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
    await page.getByText("Signing as Col Colleague").waitFor();
    await context.close();
    const got = await call(api(), `/signature-requests/${request.id}`, { key: key.secret });
    expect(got.body).toMatchObject({
      allowReassign: true,
      recipients: [{ name: "Col Colleague", email: `col.${mode}@example.com`, status: "viewed" }],
    });
  }, 60_000);

  test("on a phone-sized screen, by touch, the page fits and signing works", async () => {
    const request = await sendRequest("phone", [
      { name: "Pat Phone", email: `pat.${mode}@example.com`, role: "Client" },
    ]);
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto(await linkFor(`pat.${mode}@example.com`));
    await page.getByTestId("finish").waitFor();
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    await signOnPage(page, "type", "phone");
    await page.getByTestId("done-state").waitFor();
    await shot(page, "phone-done");
    await context.close();
    await eventually(async () => {
      const got = await call(api(), `/signature-requests/${request.id}`, { key: key.secret });
      return (got.body as { status: string }).status === "completed" ? true : undefined;
    }, 30_000);
  }, 60_000);
});
