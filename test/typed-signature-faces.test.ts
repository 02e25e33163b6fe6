/**
 * A typed signature on the signing page, on a phone (390 × 844, by touch), is written as the sealed
 * PDF writes it: in the handwriting face of its script the seal draws each character in, at the size
 * the seal fits it to, and whole inside its box — a long Cyrillic name was clipped ("Шостакови|")
 * while the seal fitted it. Screenshots of each box, and the sealed page at 80 dpi, go to
 * test/artifacts/typed-signature-*.png.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { faceFor, facesOf, STACK_SHEETS } from "../services/requests/src/core/font-stacks.js";
import { Typesetter, visualRuns } from "../services/requests/src/pdf/layout/typesetter.js";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { embeddedSigner, embeddedSigningLink } from "./support/embedded-signer.js";
import { sealedPdfOf } from "./support/sealed-pdf.js";

const ARTIFACTS = join(REPO, "test", "artifacts");

/** A signature box per script, in PDF points; the Cyrillic name long for its box, as issue 59 found it. */
const SIGNATURES = [
  { id: "latin", name: "Ada Lovelace", x: 40, y: 120, width: 200, height: 40 },
  { id: "cyrillic", name: "Дмитрий Дмитриевич Шостакович", x: 300, y: 120, width: 200, height: 40 },
  { id: "greek", name: "Ελευθέριος Βενιζέλος", x: 40, y: 200, width: 200, height: 40 },
  { id: "arabic", name: "محمد عبد الله", x: 300, y: 200, width: 200, height: 40 },
  { id: "chinese", name: "李小龙", x: 40, y: 280, width: 200, height: 40 },
  { id: "japanese", name: "山田さくら", x: 300, y: 280, width: 200, height: 40 },
];

const FIELDS = SIGNATURES.map(({ id, x, y, width, height }) => ({
  id,
  type: "signature",
  page: 1,
  x,
  y,
  width,
  height,
}));

const run = promisify(execFile);

let deployment: Deployment;
let gateway: string;
let key: string;
let browser: Browser;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  [deployment, browser] = await Promise.all([startStandalone(), launchChromium()]);
  gateway = deployment.gateways[0] as string;
  key = (JSON.parse((await deployment.cli("keys", "create", "--name", "faces")).stdout) as { secret: string })
    .secret;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await deployment?.destroy();
});

/** The faces Chromium drew a node's text in, by family, as its developer tools list them. */
async function facesDrawn(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");
    const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    return fonts.map((font) => font.familyName).sort();
  } finally {
    await cdp.detach();
  }
}

/**
 * A typed name's text as the page lays it out, and the part of its box that shows it: the box, less
 * its border where the control clips what overflows it.
 */
const LAID_OUT = (selector: string) => `(() => {
  const typed = document.querySelector(${JSON.stringify(selector)});
  const range = document.createRange();
  range.selectNodeContents(typed);
  const text = range.getBoundingClientRect();
  const control = typed.closest(".field-control");
  const box = control.getBoundingClientRect();
  const style = getComputedStyle(control);
  const border = style.overflowX === "visible" ? 0 : parseFloat(style.borderLeftWidth);
  return {
    text: { left: text.left, right: text.right },
    shown: { left: box.left + border, right: box.right - border },
    fontSize: parseFloat(getComputedStyle(typed).fontSize),
    pageWidth: document.querySelector('[data-testid="page-1"]').getBoundingClientRect().width,
  };
})()`;

/** The faces of printed fields, which a typed signature must not be written in. */
const PRINTED = new Set(STACK_SHEETS.text.flatMap(facesOf).map((face) => face.family));

/**
 * The faces the seal draws a name's characters in; and, where it has spaces, the face the browser
 * draws a space in (the first of the stack, Caveat), where the seal gives a space the face of the
 * text around it: the one difference, of a space's width.
 */
function sealedFaces(name: string): string[] {
  const faces = visualRuns("handwriting", name)
    .filter((run) => run.text.trim() !== "")
    .map((run) => run.face.family);
  if (/\s/.test(name)) faces.push(faceFor("handwriting", 0x20)?.family as string);
  return [...new Set(faces)].sort();
}

test("each typed signature is written in the seal's handwriting face for its script, at the seal's size, whole in its box", async () => {
  const { url } = await embeddedSigningLink(gateway, key, { fields: FIELDS });
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "en-US",
  });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('[data-testid="page-1"][data-rendered]').waitFor();

  const typesetter = new Typesetter();
  const results = [];
  for (const signature of SIGNATURES) {
    await page.getByTestId(`field-${signature.id}`).tap();
    await page.getByTestId("tab-type").click();
    await page.getByTestId("signature-text").fill(signature.name);
    // The dialog's preview shows the name whole, as it will be drawn (it once cut a long one with "…").
    await page.evaluate("document.fonts.ready");
    const preview = page.getByTestId("signature-preview");
    const previewWhole = await preview.evaluate((el) => {
      const text = el.querySelector(".field-typed");
      if (!text) return false;
      const range = el.ownerDocument.createRange();
      range.selectNodeContents(text);
      const ink = range.getBoundingClientRect();
      const room = el.getBoundingClientRect();
      return ink.width > 0 && ink.left >= room.left && ink.right <= room.right;
    });
    await preview.screenshot({ path: join(ARTIFACTS, `typed-signature-preview-${signature.id}.png`) });
    await page.getByTestId("apply-signature").click();
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    const selector = `[data-testid="field-${signature.id}"] .field-typed`;
    await page.locator(selector).waitFor();
    // Once every face the name needs has loaded, it is measured again and laid out in them (a frame on).
    await page.evaluate(
      "document.fonts.ready.then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))",
    );
    const box = page.locator(".field").filter({ has: page.getByTestId(`field-${signature.id}`) });
    await box.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await box.screenshot({ path: join(ARTIFACTS, `typed-signature-${signature.id}.png`) });

    const laidOut = await page.evaluate<{
      text: { left: number; right: number };
      shown: { left: number; right: number };
      fontSize: number;
      pageWidth: number;
    }>(LAID_OUT(selector));
    const scale = laidOut.pageWidth / 595;
    const faces = await facesDrawn(page, selector);
    // The seal's rule (field-stamps.ts): at most 48 points and 80 % of the box's height, no wider than the box less 4 points.
    const atOne = await typesetter.width("handwriting", signature.name, 1, "ltr");
    const sealedSize = Math.max(4, Math.min(48, signature.height * 0.8, (signature.width - 4) / atOne));
    results.push({
      id: signature.id,
      faces,
      sealedFaces: sealedFaces(signature.name),
      // Chromium may name a face by its font's own name: Noto Sans SC's is "Noto Sans SC Thin".
      printed: faces.filter((face) => [...PRINTED].some((family) => face.startsWith(family))),
      sizeOnPage: Math.round((laidOut.fontSize / scale) * 10) / 10,
      sealedSize: Math.round(sealedSize * 10) / 10,
      whole: laidOut.text.left >= laidOut.shown.left - 0.5 && laidOut.text.right <= laidOut.shown.right + 0.5,
      previewWhole,
    });
  }
  await writeFile(join(ARTIFACTS, "typed-signature-faces.json"), JSON.stringify(results, null, 2));
  for (const result of results) {
    expect(result).toEqual({
      ...result,
      faces: result.sealedFaces,
      printed: [],
      sizeOnPage: expect.closeTo(result.sealedSize, 0),
      whole: true,
      previewWhole: true,
    });
  }

  await context.close();
}, 120_000);

test("the sealed PDF writes each name in the same faces (rendered to test/artifacts/typed-signature-sealed.png)", async () => {
  // Each box its own name, as one signer adopts one signature on the page: submitted through the API.
  const { request, signer, layout } = await embeddedSigner(gateway, key, { fields: FIELDS });
  const values = Object.fromEntries(
    layout.map((field, i) => [field.id, { kind: "typed", text: SIGNATURES[i]?.name ?? "" }]),
  );
  expect((await signer.call("/sign/api/submit", { consent: true, values })).status).toBe(200);
  const sealed = await sealedPdfOf(`${gateway}/api/v1`, key, request.id);
  const dir = await mkdtemp(join(tmpdir(), "typed-"));
  try {
    await writeFile(join(dir, "sealed.pdf"), sealed);
    const { stdout } = await run("pdffonts", ["-f", "1", "-l", "1", join(dir, "sealed.pdf")]);
    const families = new Set([...stdout.matchAll(/^[A-Z]{6}\+(\S+)/gm)].map(([, family]) => family));
    expect([...families].sort()).toEqual(["ArefRuqaa", "Caveat", "KleeOne", "LongCang", "PlaypenSans"]);
    await run("pdftoppm", [
      ...["-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile"],
      join(dir, "sealed.pdf"),
      join(ARTIFACTS, "typed-signature-sealed"),
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
