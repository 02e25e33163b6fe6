/**
 * The signing page on a phone (390 × 844, by touch) with a dense one-page form, as issue 59 found
 * it: a tap at a field's centre reaches that field and no neighbour, the document has most of the
 * first screen, and the field "Next field" brings up is typed into in full view. Screenshots go to
 * test/artifacts/phone-*.png.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { embeddedSigningLink } from "./support/embedded-signer.js";

const ARTIFACTS = join(REPO, "test", "artifacts");

/** Eleven fields close together, in PDF points: at a phone's fit-width zoom the text boxes are about 98 × 13 CSS pixels. */
const DENSE = [
  { id: "name", type: "text", label: "Full name", x: 60, y: 120, width: 156, height: 21 },
  { id: "seats", type: "number", label: "Seats", maximum: 50, x: 230, y: 120, width: 156, height: 21 },
  { id: "company", type: "text", label: "Company", x: 400, y: 120, width: 156, height: 21 },
  { id: "start", type: "date", label: "Start date", x: 60, y: 146, width: 120, height: 21 },
  {
    id: "plan",
    type: "dropdown",
    label: "Plan",
    options: ["Basic", "Team", "Enterprise"],
    x: 190,
    y: 146,
    width: 130,
    height: 21,
  },
  { id: "monthly", type: "radio", group: "billing", option: "Monthly", x: 60, y: 178, width: 16, height: 16 },
  { id: "yearly", type: "radio", group: "billing", option: "Yearly", x: 84, y: 178, width: 16, height: 16 },
  { id: "once", type: "radio", group: "billing", option: "Once", x: 108, y: 178, width: 16, height: 16 },
  { id: "terms", type: "checkbox", label: "I accept the terms", x: 140, y: 178, width: 16, height: 16 },
  { id: "initials", type: "initials", x: 170, y: 174, width: 50, height: 24 },
  { id: "signature", type: "signature", x: 60, y: 204, width: 200, height: 36 },
].map((field) => ({ ...field, page: 1 }));

/** Fields whose tap opens a dialog rather than focusing the control. */
const OPENS_DIALOG = new Set(["date", "initials", "signature"]);

let deployment: Deployment;
let gateway: string;
let key: string;
let browser: Browser;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  [deployment, browser] = await Promise.all([startStandalone(), launchChromium()]);
  gateway = deployment.gateways[0] as string;
  key = (JSON.parse((await deployment.cli("keys", "create", "--name", "phone")).stdout) as { secret: string })
    .secret;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await deployment?.destroy();
});

let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  const { url } = await embeddedSigningLink(gateway, key, {
    fields: DENSE,
    title: "Order form",
    message: "Please sign by Friday, so that the seats are ready on Monday.",
  });
  context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "en-US",
  });
  page = await context.newPage();
  await page.goto(url);
  await page.locator('[data-testid="page-1"][data-rendered]').waitFor();
});
afterEach(() => context?.close());

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `phone-${name}.png`) });

/** The part of the first page on screen, clear of the sticky bars, as a share of the screen's height. */
const DOCUMENT_SHARE = `(() => {
  const page = document.querySelector('[data-testid="page-1"]').getBoundingClientRect();
  const zoom = document.querySelector(".zoom").getBoundingClientRect();
  const bar = document.querySelector(".action-bar").getBoundingClientRect();
  const top = Math.max(page.top, zoom.bottom, 0);
  const bottom = Math.min(page.bottom, bar.top, window.innerHeight);
  return Math.max(0, bottom - top) / window.innerHeight;
})()`;

/** Which field a tap reached: the first click after it, on a control or in a box's touch reach. */
const RECORD_TAPS = `(() => {
  window.tapped = [];
  document.addEventListener("click", (event) => {
    const box = event.target.closest(".field");
    window.tapped.push(box ? box.querySelector('[data-testid^="field-"]').dataset.testid.slice(6) : null);
  }, true);
})()`;

/** The field each field's centre reached by a tap, by id, at the zoom the page is at. */
async function tapEachCentre(zoom: string): Promise<Record<string, string | null>> {
  const reached: Record<string, string | null> = {};
  for (const field of DENSE) {
    const box = page.locator(".field").filter({ has: page.getByTestId(`field-${field.id}`) });
    await box.evaluate((el) => el.scrollIntoView({ block: "center" }));
    const drawn = await box.boundingBox();
    if (!drawn) throw new Error(`field ${field.id} is not shown`);
    await page.evaluate("window.tapped = []");
    await page.touchscreen.tap(drawn.x + drawn.width / 2, drawn.y + drawn.height / 2);
    const first = (await page.evaluate<(string | null)[]>("window.tapped"))[0] ?? null;
    reached[field.id] = first;
    if (first === field.id) {
      // What opens is that field's: its dialog, or its own control focused.
      if (OPENS_DIALOG.has(field.type)) {
        await page.getByRole("dialog").waitFor();
        if (field.id === "initials") await shot(`tap-dialog-${zoom}`);
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "hidden" });
      } else {
        await expect(page.evaluate("document.activeElement.dataset.testid")).resolves.toBe(
          `field-${field.id}`,
        );
      }
    } else if (await page.getByRole("dialog").isVisible()) {
      await page.keyboard.press("Escape");
    }
    // As a signer does after typing: the keyboard put away, nothing focused.
    await page.evaluate("document.activeElement?.blur()");
  }
  await shot(`taps-${zoom}`);
  return reached;
}

test("a tap at each field's centre reaches that field and no neighbour, at the fit-width zoom and zoomed in", async () => {
  await page.evaluate(RECORD_TAPS);
  const each = Object.fromEntries(DENSE.map((f) => [f.id, f.id]));
  expect(await tapEachCentre("fit")).toEqual(each);
  await page.getByRole("button", { name: "Zoom in" }).tap();
  await page.getByTestId("zoom-level").getByText("150%").waitFor();
  await page.locator('[data-testid="page-1"][data-rendered-width]').waitFor();
  expect(await tapEachCentre("150")).toEqual(each);
}, 90_000);

test("on first load the document has at least half of the screen, and still once the agreement shows", async () => {
  await shot("first-load");
  const first = await page.evaluate<number>(DOCUMENT_SHARE);
  expect(first).toBeGreaterThanOrEqual(0.5);
  // What folded is a tap away, and folds again.
  for (const [name, words] of [
    ["message", "Message from"],
    ["how-to", "How to sign"],
  ] as const) {
    const summary = page.locator("summary", { hasText: words });
    await summary.tap();
    await shot(`open-${name}`);
    await summary.tap();
  }
  await page.getByText("Please sign by Friday").waitFor({ state: "hidden" });
  // Everything the page asks of the signer, then the agreement beside Finish.
  for (const [name, typed] of [
    [/^Sign: Signature/, "Ada Lovelace"],
    [/^Initial: Initials/, "AL"],
  ] as const) {
    await page.getByRole("button", { name }).click();
    await page.getByTestId("tab-type").click();
    await page.getByTestId("signature-text").fill(typed);
    await page.getByTestId("apply-signature").click();
    await page.getByRole("dialog").waitFor({ state: "hidden" });
  }
  await page.getByRole("textbox", { name: /^Full name/ }).fill("Ada Lovelace");
  await page.getByRole("textbox", { name: /^Seats/ }).fill("12");
  await page.getByRole("textbox", { name: /^Company/ }).fill("Analytical Engines Ltd");
  await page.getByRole("combobox", { name: /^Plan/ }).selectOption("Team");
  await page.getByRole("radio", { name: /^Yearly/ }).check();
  await page.getByRole("checkbox", { name: /^I accept the terms/ }).check();
  await page.getByRole("button", { name: /^Pick a date: Start date/ }).click();
  await page.getByTestId("date-input").fill("2026-12-01");
  await page.getByTestId("date-apply").click();
  await page.getByTestId("consent").waitFor();
  await page.evaluate("window.scrollTo(0, 0)");
  await shot("consent-shown");
  expect(await page.evaluate<number>(DOCUMENT_SHARE)).toBeGreaterThanOrEqual(0.5);
  // The agreement's words are all there for whoever reads them, on the page and to a screen reader.
  await page.getByRole("checkbox", { name: /legal equivalent of my handwritten signature/ }).waitFor();
}, 90_000);

test("Next field brings each text box up readable and whole: the page zoomed in, the value typed and its problem on screen, neither covering the other", async () => {
  const inView = `(() => {
    const el = document.activeElement;
    const box = el.getBoundingClientRect();
    const error = el.closest(".field").querySelector(".field-error")?.getBoundingClientRect();
    const covers = error && error.left < box.right && box.left < error.right && error.top < box.bottom && box.top < error.bottom;
    return {
      id: el.dataset.testid,
      inside: box.left >= 0 && box.right <= window.innerWidth && box.top >= 0 && box.bottom <= window.innerHeight,
      errorInside: !error || (error.left >= 0 && error.right <= window.innerWidth),
      covers: Boolean(covers),
      fontSize: parseFloat(getComputedStyle(el).fontSize),
      fits: el.scrollWidth <= el.clientWidth,
      height: box.height,
      zoom: document.querySelector('[data-testid="zoom-level"]').textContent,
    };
  })()`;
  const seen: Record<string, unknown>[] = [];
  for (const [id, typed] of [
    ["name", "Ada Lovelace"],
    ["seats", "80"],
    ["company", "Analytical Engines Ltd"],
  ] as const) {
    await page.getByTestId("next-field").tap();
    await page.waitForFunction(`document.activeElement?.dataset.testid === "field-${id}"`);
    await page.keyboard.type(typed);
    // The smooth scroll that brought the field up has settled.
    await page.waitForTimeout(600);
    await shot(`next-${id}`);
    seen.push(await page.evaluate<Record<string, unknown>>(inView));
  }
  await page.getByText("Enter 50 or less.").waitFor();
  for (const state of seen) {
    expect(state).toMatchObject({ inside: true, errorInside: true, covers: false, fits: true });
    expect(state.fontSize).toBeGreaterThanOrEqual(16);
    expect(state.height).toBeGreaterThanOrEqual(24);
  }
  // The page zoomed in for the first box, and stayed so for the others of its size.
  expect(seen.map((state) => state.zoom)).toEqual(["200%", "200%", "200%"]);

  // Zoomed in further, the page scrolls sideways; the box at its right edge is still typed in on screen.
  await page.evaluate("document.activeElement?.blur()");
  await page.getByRole("button", { name: "Zoom in" }).tap();
  await page.locator('[data-testid="page-1"][data-rendered-width]').waitFor();
  const company = page.getByTestId("field-company");
  await company.evaluate((el) => el.scrollIntoView({ block: "center", inline: "center" }));
  await company.tap();
  await page.waitForFunction('document.activeElement?.dataset.testid === "field-company"');
  await page.waitForTimeout(300);
  await shot("zoomed-company");
  expect(await page.evaluate<Record<string, unknown>>(inView)).toMatchObject({ inside: true, fits: true });
}, 90_000);
