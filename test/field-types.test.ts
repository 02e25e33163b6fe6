/**
 * Every field type a signer meets, in a real browser (Debian's Chromium) at phone and desktop width:
 * a date picked in a dialog and shown as the sealed PDF writes it, a number held to its bounds, a
 * dropdown, a radio group, a checkbox group held to its bounds, a text field shown only when a radio
 * button is chosen, and a file attached while signing. The sealed PDF is read and rendered: every
 * value where the signer saw it, the attachment kept as a document of the request and listed (with
 * its SHA-256) on the certificate of completion. axe-core finds nothing serious or critical. And
 * what a signer attaches is checked before it is kept.
 */
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { PNG } from "pngjs";
import { launchChromium, STICKING_OUT } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { inkBox, inkOf, renderRegion } from "./support/ink.js";
import { outboxMails } from "./support/outbox-mail.js";
import { pdfText } from "./support/pdf-tools.js";
import { makePdf } from "./support/pdfs.js";
import { pngBomb } from "./support/pngs.js";
import { sealedPdfOf } from "./support/sealed-pdf.js";
import { SignerBrowser } from "./support/signer-browser.js";

const ARTIFACTS = join(REPO, "test", "artifacts");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let deployment: Deployment;
let gateway: string;
let key: string;
let browser: Browser;
const api = () => `${gateway}/api/v1`;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  [deployment, browser] = await Promise.all([startStandalone(), launchChromium()]);
  gateway = deployment.gateways[0] as string;
  key = (
    JSON.parse((await deployment.cli("keys", "create", "--name", "fields")).stdout) as { secret: string }
  ).secret;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await deployment?.destroy();
});

const RADIO = { monthly: { x: 60, y: 590 }, yearly: { x: 140, y: 590 } };

/** One signer asked for every field type; their signing link. */
async function sendEveryType(tag: string): Promise<{ requestId: string; link: string }> {
  const upload = await call(api(), "/documents/upload?filename=order.pdf", {
    key,
    method: "POST",
    body: await makePdf(1, "Order form"),
    headers: { "content-type": "application/pdf" },
  });
  const on = { role: "Client", page: 1 };
  const created = await call(api(), "/signature-requests", {
    key,
    method: "POST",
    json: {
      title: `Order form ${tag}`,
      documentIds: [(upload.body as { id: string }).id],
      fields: [
        { ...on, type: "signature", x: 60, y: 470, width: 200, height: 50 },
        { ...on, id: "start", type: "date", x: 60, y: 540, width: 120, height: 22, label: "Start date" },
        {
          ...on,
          id: "seats",
          type: "number",
          x: 200,
          y: 540,
          width: 80,
          height: 22,
          label: "Seats",
          minimum: 1,
          maximum: 50,
        },
        {
          ...on,
          id: "plan",
          type: "dropdown",
          x: 300,
          y: 540,
          width: 120,
          height: 22,
          label: "Plan",
          options: ["Basic", "Team", "Enterprise"],
        },
        {
          ...on,
          id: "monthly",
          type: "radio",
          ...RADIO.monthly,
          width: 16,
          height: 16,
          group: "Billing",
          option: "Monthly",
        },
        {
          ...on,
          id: "yearly",
          type: "radio",
          ...RADIO.yearly,
          width: 16,
          height: 16,
          group: "Billing",
          option: "Yearly",
        },
        {
          ...on,
          id: "po",
          type: "text",
          x: 220,
          y: 585,
          width: 150,
          height: 22,
          label: "PO number",
          condition: { fieldId: "yearly", value: "Yearly" },
        },
        ...["Support", "Training", "Hosting"].map((label, i) => ({
          ...on,
          id: label.toLowerCase(),
          type: "checkbox",
          x: 60 + i * 60,
          y: 630,
          width: 16,
          height: 16,
          label,
          group: "Extras",
          minimum: 1,
          maximum: 2,
          required: false,
        })),
        {
          ...on,
          id: "registration",
          type: "attachment",
          x: 300,
          y: 625,
          width: 200,
          height: 30,
          label: "Company registration",
        },
      ],
      recipients: [{ name: "Ada Lovelace", email: `${tag}@example.com`, role: "Client" }],
      send: true,
    },
  });
  expect(created.status).toBe(201);
  const requestId = (created.body as { id: string }).id;
  const link = await eventually(
    async () => (await outboxMails(deployment.dataDir)).find((m) => m.to === `${tag}@example.com`)?.link,
  );
  return { requestId, link };
}

/** axe-core's serious and critical findings on the page as it is now. */
async function seriousFindings(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate("axe.run(document).then((r) => r.violations)")) as {
    id: string;
    impact: string;
    nodes: { target: string[] }[];
  }[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** A small PNG of a dark block on white, as a phone's photo of a paper would be. */
function registrationPng(): Buffer {
  const png = new PNG({ width: 240, height: 160 });
  for (let y = 0; y < 160; y++) {
    for (let x = 0; x < 240; x++) {
      const dark = x > 40 && x < 200 && y > 40 && y < 120;
      png.data.set(dark ? [20, 30, 60, 255] : [255, 255, 255, 255], (y * 240 + x) * 4);
    }
  }
  return PNG.sync.write(png);
}

const WIDTHS = [
  { name: "phone", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: "desktop", viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false },
] as const;

describe.each(WIDTHS)("every field type at $name width", ({ name, ...device }) => {
  test("the signer fills each in, and the sealed PDF holds what they saw", async () => {
    const { requestId, link } = await sendEveryType(`types-${name}`);
    const context = await browser.newContext({
      ...device,
      deviceScaleFactor: 1,
      bypassCSP: true,
      locale: "en-US",
    });
    const page = await context.newPage();
    const shot = (state: string) =>
      page.screenshot({ path: join(ARTIFACTS, `field-types-${name}-${state}.png`) });
    await page.goto(link);
    await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
    await shot("loaded");
    expect(await seriousFindings(page)).toEqual([]);

    // The PO number is asked only for yearly billing.
    const po = page.getByRole("textbox", { name: /PO number/ });
    await expect(po.count()).resolves.toBe(0);
    await page.getByRole("radio", { name: /^Yearly/ }).check();
    await po.waitFor();
    await page.getByRole("radio", { name: /^Monthly/ }).check();
    await expect(po.count()).resolves.toBe(0);
    await page.getByRole("radio", { name: /^Yearly/ }).check();
    await po.fill("PO-7781");

    const seats = page.getByRole("textbox", { name: /^Seats, a number from 1 to 50/ });
    await seats.fill("80");
    await page.getByText("Enter 50 or less.").waitFor();
    await seats.fill("12");
    await expect(page.getByText("Enter 50 or less.").count()).resolves.toBe(0);

    await page.getByRole("combobox", { name: /^Plan/ }).selectOption("Team");

    await page.getByRole("button", { name: /^Pick a date: Start date/ }).click();
    await page.getByTestId("date-dialog").waitFor();
    await shot("date-dialog");
    await page.getByTestId("date-input").fill("2026-12-01");
    await page.getByTestId("date-apply").click();
    // The day as the service writes it for this page's language, which the sealed PDF writes too.
    await page.getByRole("button", { name: /^Dec 1, 2026: Start date/ }).waitFor();

    const support = page.getByRole("checkbox", { name: /^Support/ });
    await support.check();
    await page.getByRole("checkbox", { name: /^Training/ }).check();
    // Two of the three extras at most: the third cannot be checked too.
    await expect(page.getByRole("checkbox", { name: /^Hosting/ }).isDisabled()).resolves.toBe(true);

    await page.getByTestId("file-registration").setInputFiles({
      name: "registration.png",
      mimeType: "image/png",
      buffer: registrationPng(),
    });
    await page.getByRole("button", { name: /^registration\.png: Company registration, attached/ }).waitFor();

    await page.getByRole("button", { name: /^Sign: Signature, required/ }).click();
    await page.getByTestId("tab-type").click();
    await page.getByTestId("signature-text").fill("Ada Lovelace");
    await page.getByTestId("apply-signature").click();
    await page.getByTestId("consent").check();
    await shot("filled");
    expect(await seriousFindings(page)).toEqual([]);
    expect(await page.evaluate(STICKING_OUT)).toEqual([]);
    await page.getByTestId("finish").click();
    await page.getByTestId("done-state").waitFor({ timeout: 30_000 });
    await context.close();

    const sealed = await sealedPdfOf(api(), key, requestId);
    const text = (await pdfText(sealed)).replace(/\s+/g, " ");
    // The day the page showed as "Dec 1, 2026", in the one form the sealed document writes days in.
    for (const value of ["2026-12-01", "12", "Team", "PO-7781", "registration.png"])
      expect(text).toContain(value);

    const request = (await call(api(), `/signature-requests/${requestId}`, { key })).body as {
      signerAttachments: { fieldId: string; documentId: string; contentType: string; sha256: string }[];
    };
    expect(request.signerAttachments).toEqual([
      expect.objectContaining({ fieldId: "registration", contentType: "image/png" }),
    ]);
    const [attached] = request.signerAttachments;
    const document = await call(api(), `/documents/${attached?.documentId}`, { key });
    expect(document.body).toMatchObject({ kind: "attachment", pageCount: 1, sha256: attached?.sha256 });
    const file = await fetch(`${api()}/documents/${attached?.documentId}/download`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(attached?.sha256);
    expect(text).toContain(`Attached registration.png`);
    expect(text).toContain(attached?.sha256.slice(0, 32));

    // Rendered, as a reader sees it (kept beside the screenshots to be looked at)...
    await writeFile(
      join(ARTIFACTS, `field-types-${name}-sealed.png`),
      await renderRegion(sealed, 1, { x: 40, y: 460, width: 480, height: 210 }, 144),
    );
    // ...the chosen radio button's dot, and none in the other; the two extras ticked.
    const dotIn = async (box: { x: number; y: number }) =>
      inkBox(inkOf(await renderRegion(sealed, 1, { ...box, width: 16, height: 16 }, 144)));
    expect(await dotIn(RADIO.yearly)).toBeDefined();
    expect(await dotIn(RADIO.monthly)).toBeUndefined();
    expect(await dotIn({ x: 60, y: 630 })).toBeDefined();
    expect(await dotIn({ x: 180, y: 630 })).toBeUndefined();
  }, 120_000);
});

test("what a signer attaches is checked: another kind of file, one too large, another's field and a PNG bomb are refused, and the service keeps serving", async () => {
  const { link } = await sendEveryType("types-hostile");
  const signer = new SignerBrowser(gateway);
  await signer.open(link);
  const attach = async (fieldId: string, bytes: Uint8Array, name: string, type: string) => {
    const form = new FormData();
    form.append("file", new Blob([bytes], { type }), name);
    const res = await fetch(`${gateway}/sign/api/attachments/${fieldId}`, {
      method: "POST",
      headers: { cookie: signer.cookie },
      body: form,
    });
    return {
      status: res.status,
      body: (await res.json()) as { errors?: { path: string; message: string }[] },
    };
  };
  expect((await attach("registration", Buffer.from("plain text"), "notes.txt", "text/plain")).status).toBe(
    415,
  );
  expect(
    (await attach("registration", Buffer.alloc(11 * 1024 * 1024, 1), "big.pdf", "application/pdf")).status,
  ).toBe(413);
  const notAttachment = await attach("seats", registrationPng(), "x.png", "image/png");
  expect(notAttachment).toMatchObject({
    status: 422,
    body: { errors: [{ path: "fieldId", message: "is not one of your attachment fields" }] },
  });
  // 4000 × 4000 pixels of 16-bit RGBA in 124 KB: decoded, if at all, in the drawing process alone.
  const bomb = await attach("registration", pngBomb(), "bomb.png", "image/png");
  expect([201, 422]).toContain(bomb.status);
  const attached = await attach("registration", registrationPng(), "registration.png", "image/png");
  expect(attached.status).toBe(201);
  expect((await signer.call("/sign/api/session")).status).toBe(200);
}, 60_000);
