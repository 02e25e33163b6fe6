/**
 * The signing page against WCAG 2.2 AA as axe-core (its current version, default rules) reads it,
 * at a phone's width and a desktop's, in every state a signer meets: the page as it opens, the
 * signature dialog, every field filled, signed, declined, a link that no longer works, the codes'
 * gate, and the page in Arabic (right to left) and Japanese. No
 * serious or critical violation in any; each state's screenshot and findings land in
 * test/artifacts/accessibility/.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { call } from "./support/http.js";
import { makePdf } from "./support/pdfs.js";
import { sentSigningLink } from "./support/signing-links.js";

const ARTIFACTS = join(REPO, "test", "artifacts", "accessibility");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const WIDTHS = [
  { name: "phone", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: "desktop", viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false },
] as const;

let deployment: Deployment;
let gateway: string;
let key: string;
let browser: Browser;
const findings: Record<string, { serious: number; critical: number; moderate: number; minor: number }> = {};

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  [deployment, browser] = await Promise.all([startStandalone(), launchChromium()]);
  gateway = deployment.gateways[0] as string;
  key = (JSON.parse((await deployment.cli("keys", "create", "--name", "a11y")).stdout) as { secret: string })
    .secret;
});
afterAll(async () => {
  await writeFile(join(ARTIFACTS, "findings.json"), JSON.stringify(findings, null, 2));
  await browser?.close();
  await deployment?.destroy();
});

/** axe-core's violations of the page as it is now; the screenshot and the findings are kept. */
async function audit(page: Page, state: string): Promise<Violation[]> {
  await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate("axe.run(document).then((r) => r.violations)")) as Violation[];
  const count = (impact: string) => violations.filter((v) => v.impact === impact).length;
  findings[state] = {
    critical: count("critical"),
    serious: count("serious"),
    moderate: count("moderate"),
    minor: count("minor"),
  };
  await page.screenshot({ path: join(ARTIFACTS, `${state}.png`) });
  await writeFile(join(ARTIFACTS, `${state}.json`), JSON.stringify(violations, null, 2));
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

const summary = (violations: Violation[]) =>
  violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );

/**
 * A sent request to one signer with a signature, a text, a date and a checkbox, and a viewer and an
 * approver asked beside them; the link of the signer, or of the viewer or the approver (`whose`).
 */
async function signingLink(
  tag: string,
  checks: { accessCode?: string; locale?: string } = {},
  whose: "signer" | "viewer" | "approver" = "signer",
): Promise<string> {
  const email = `${tag}@example.com`;
  const to = whose === "signer" ? email : `${whose}.${email}`;
  return sentSigningLink(
    deployment,
    key,
    {
      title: `Service agreement ${tag}`,
      fields: [
        { type: "signature", role: "Client", page: 1, x: 60, y: 500, width: 200, height: 50 },
        {
          type: "text",
          role: "Client",
          page: 1,
          x: 60,
          y: 580,
          width: 200,
          height: 22,
          label: "Company name",
        },
        { type: "date_signed", role: "Client", page: 1, x: 300, y: 520, width: 110, height: 20 },
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
        { name: "Ada Lovelace", email, role: "Client", ...checks },
        { name: "Vic Viewer", email: `viewer.${email}`, kind: "viewer" },
        { name: "Ava Approver", email: `approver.${email}`, kind: "approver" },
      ],
    },
    to,
  );
}

/** A sent request to one signer hosted in person; the URL at which the host starts their signing. */
async function inPersonUrl(tag: string): Promise<string> {
  const api = `${gateway}/api/v1`;
  const upload = await call(api, "/documents/upload?filename=agreement.pdf", {
    key,
    method: "POST",
    body: await makePdf(1, "Service agreement"),
    headers: { "content-type": "application/pdf" },
  });
  const created = await call(api, "/signature-requests", {
    key,
    method: "POST",
    json: {
      title: `Service agreement ${tag}`,
      documentIds: [(upload.body as { id: string }).id],
      fields: [{ type: "signature", role: "Client", page: 1, x: 60, y: 500, width: 200, height: 50 }],
      recipients: [
        {
          name: "Ada Lovelace",
          email: `${tag}@example.com`,
          role: "Client",
          host: { name: "Hana Host", email: `host.${tag}@example.com` },
        },
      ],
      send: true,
    },
  });
  const request = created.body as { id: string; recipients: { id: string }[] };
  const made = await call(api, "/embedded-signing-url", {
    key,
    method: "POST",
    json: { requestId: request.id, recipientId: request.recipients[0]?.id },
  });
  return (made.body as { url: string }).url;
}

describe.each(WIDTHS)("the signing page at $name width", ({ name, ...device }) => {
  test("every state has no serious or critical WCAG 2.2 AA violation", async () => {
    // axe-core is injected as a script, which the page's own CSP rightly refuses.
    const context = await browser.newContext({ ...device, deviceScaleFactor: 1, bypassCSP: true });
    const page = await context.newPage();
    const problems: string[] = [];
    const check = async (state: string) =>
      problems.push(...summary(await audit(page, `${name}-${state}`)).map((p) => `${state}: ${p}`));

    const link = await signingLink(`a11y-${name}`);
    await page.goto(link);
    await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
    await check("landing");

    await page
      .getByRole("button", { name: /^Sign: Signature, required/ })
      .first()
      .click();
    await page.getByRole("dialog").waitFor();
    await page.getByTestId("tab-type").click();
    await page.getByTestId("signature-text").fill("Ada Lovelace");
    await check("signature-dialog");
    await page.getByTestId("apply-signature").click();
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await page.getByRole("textbox", { name: /^Company name/ }).fill("Analytical Engines Ltd");
    await page.getByRole("checkbox", { name: /I accept the terms/ }).check();
    await page.getByTestId("consent").check();
    await check("all-filled");

    await page.getByTestId("finish").click();
    await page.getByTestId("done-state").waitFor({ timeout: 30_000 });
    await check("done");

    await page.goto(link);
    await check("link-used-again");

    const declining = await signingLink(`a11y-decline-${name}`);
    await page.goto(declining);
    await page.getByTestId("decline").click();
    await page.getByTestId("decline-reason").fill("Wrong company.");
    await check("decline-dialog");
    await page.getByTestId("confirm-decline").click();
    await page.getByTestId("declined-state").waitFor();
    await check("declined");

    await page.goto(declining);
    await check("link-no-longer-valid");

    // A signer asked for an access code: the gate, a wrong code, and the lock-out after five.
    await page.goto(await signingLink(`a11y-codes-${name}`, { accessCode: "1234" }));
    await page.getByTestId("authentication-gate").waitFor();
    await check("codes-asked");
    for (let left = 4; left >= 1; left--) {
      await page.getByLabel("Access code").fill("0000");
      await page.getByRole("button", { name: "Continue to the document" }).click();
      await page.getByText(new RegExp(`\\. ${left} attempts? left before`)).waitFor();
    }
    await check("codes-wrong");
    await page.getByRole("button", { name: "Continue to the document" }).click();
    await page.getByTestId("locked-state").waitFor();
    await check("codes-locked");

    // The page in Arabic, right to left, and in Japanese, switched to on the page.
    await page.goto(await signingLink(`a11y-ar-${name}`, { locale: "ar" }));
    await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
    await page.locator('html[lang="ar"][dir="rtl"]').waitFor({ state: "attached" });
    await check("ar-landing");
    await page.locator(".field-signature button").first().click();
    await page.getByRole("dialog").waitFor();
    await check("ar-signature-dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await page.getByTestId("language").selectOption("ja");
    await page.locator('html[lang="ja"][dir="ltr"]').waitFor({ state: "attached" });
    await check("ja-landing");
    await page.getByTestId("language").selectOption("en");

    // A viewer: the documents and what they are asked, nothing to fill or finish.
    await page.goto(await signingLink(`a11y-viewer-${name}`, {}, "viewer"));
    await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
    await page.getByTestId("viewer-notice").waitFor();
    await expect(page.getByTestId("finish").isVisible()).resolves.toBe(false);
    await check("viewer");

    // An approver: what they are asked, their agreement, Approve; then that they approved.
    await page.goto(await signingLink(`a11y-approver-${name}`, {}, "approver"));
    await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
    await page.getByTestId("viewer-notice").waitFor();
    await page.getByTestId("consent").check();
    await expect(page.getByTestId("next-field").count()).resolves.toBe(0);
    await check("approver");
    await page.getByTestId("finish").click();
    await page.getByTestId("done-state").getByText("You have approved").waitFor();
    await check("approver-done");

    // In person: the host's device asks to be handed to the signer, then says whose signing it hosts.
    const hosted = await inPersonUrl(`a11y-host-${name}`);
    await page.goto(hosted);
    await page.getByTestId("hand-over-state").waitFor();
    await check("in-person-hand-over");
    await page.getByRole("button", { name: "I am Ada Lovelace: continue" }).click();
    await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
    await page.getByTestId("hosted-by").waitFor();
    await check("in-person-signing");
    await context.close();
    expect(problems).toEqual([]);
  }, 120_000);
});

test("on a phone a small field is a 44 × 44 touch target, the document zooms, and typed text is readable", async () => {
  const context = await browser.newContext({ ...WIDTHS[0], deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(await signingLink("touch"));
  await page.locator('[data-testid="page-1"][data-rendered]').first().waitFor();
  const checkbox = page.getByRole("checkbox", { name: /I accept the terms/ });
  const box = await checkbox.boundingBox();
  if (!box) throw new Error("the checkbox is not on screen");
  // Drawn at the page's scale the box is about 10 pixels; a tap 12 pixels above its centre still checks it.
  expect(box.width).toBeLessThan(20);
  await checkbox.scrollIntoViewIfNeeded();
  const near = await checkbox.boundingBox();
  await page.touchscreen.tap(
    (near?.x ?? 0) + (near?.width ?? 0) / 2,
    (near?.y ?? 0) + (near?.height ?? 0) / 2 - 12,
  );
  await expect(checkbox.isChecked()).resolves.toBe(true);

  const text = page.getByRole("textbox", { name: /^Company name/ });
  await text.focus();
  await expect(
    text.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).fontSize),
  ).resolves.toBe("16px");
  await page.screenshot({ path: join(ARTIFACTS, "phone-typing.png") });

  const pageWidth = async () => (await page.getByTestId("page-1").boundingBox())?.width ?? 0;
  const fitted = await pageWidth();
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect(page.getByTestId("zoom-level").textContent()).resolves.toBe("150%");
  const zoomed = await pageWidth();
  expect(Math.round((zoomed / fitted) * 10) / 10).toBe(1.5);
  await page.locator(`[data-testid="page-1"][data-rendered-width="${Math.floor(zoomed)}"]`).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, "phone-zoomed.png") });
  await context.close();
}, 60_000);
