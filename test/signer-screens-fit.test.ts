/**
 * Every screen a signer meets outside the document — signed, sealed, declined, closed, ended, the
 * codes' gate, a link that will not open — fits a phone 390 and 320 pixels wide in each of the ten
 * languages: the page scrolls no wider than the screen and no button, heading or line is cut. The
 * page's screens are the real page shown sessions in each state (the session answer rewritten);
 * the link pages are the gateway's own. A title mixing English and Arabic reads in its own order.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { SIGNER_LOCALES } from "@countersign/domain";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./support/browser.js";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { sentSigningLink } from "./support/signing-links.js";

const SCREENSHOTS = join(REPO, "test", "artifacts", "screens-fit");
const PHONES = [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
] as const;
const MIXED_TITLE = "Consulting offer — عرض استشاري";

type Session = Record<string, unknown> & {
  recipient: Record<string, unknown>;
  authentication: Record<string, unknown>;
};

/** A screen: what the session answer says (a session, or a problem with its status), and what shows. */
interface Screen {
  name: string;
  testId: string;
  answer: (session: Session) => { status: number; body: unknown };
}

const ok = (body: unknown) => ({ status: 200, body });
const withRecipient = (session: Session, recipient: Record<string, unknown>, rest = {}) => ({
  ...session,
  ...rest,
  recipient: { ...session.recipient, ...recipient },
});
const later = () => new Date(Date.now() + 3_600_000).toISOString();

const SCREENS: Screen[] = [
  {
    name: "signed-others-to-sign",
    testId: "done-state",
    answer: (s) => ok(withRecipient(s, { status: "signed" }, { everyoneSigned: false })),
  },
  {
    name: "approved",
    testId: "done-state",
    answer: (s) => ok(withRecipient(s, { status: "approved" }, { everyoneSigned: false })),
  },
  {
    name: "sealing",
    testId: "sealing-state",
    answer: (s) =>
      ok(withRecipient(s, { status: "signed" }, { everyoneSigned: true, signedDocumentId: null })),
  },
  {
    name: "sealing-delayed",
    testId: "done-state",
    answer: (s) => ok(withRecipient(s, { status: "signed" }, { everyoneSigned: true, sealingDelayed: true })),
  },
  {
    name: "finished",
    testId: "done-state",
    answer: (s) =>
      ok(
        withRecipient(
          s,
          { status: "signed" },
          { everyoneSigned: true, requestStatus: "completed", signedDocumentId: "doc_1" },
        ),
      ),
  },
  { name: "declined", testId: "declined-state", answer: (s) => ok(withRecipient(s, { status: "declined" })) },
  ...(["cancelled", "expired", "declined", "completed"] as const).map((status) => ({
    name: `closed-${status}`,
    testId: "closed-state",
    answer: (s: Session) => ok({ ...s, requestStatus: status, signedDocumentId: "doc_1" }),
  })),
  {
    name: "ended-already-signed",
    testId: "ended-state",
    answer: () => ({
      status: 410,
      body: {
        status: 410,
        title: "Gone",
        ended: { reason: "copy_expired", completedAt: new Date().toISOString() },
      },
    }),
  },
  {
    name: "ended-cancelled",
    testId: "ended-state",
    answer: () => ({ status: 410, body: { status: 410, title: "Gone", ended: { reason: "cancelled" } } }),
  },
  { name: "session-ended", testId: "ended-state", answer: () => ({ status: 401, body: { status: 401 } }) },
  {
    name: "error",
    testId: "error-state",
    answer: () => ({ status: 500, body: { status: 500, detail: "the service could not be reached" } }),
  },
  {
    name: "codes",
    testId: "authentication-gate",
    answer: (s) =>
      ok({
        ...s,
        authentication: {
          ...s.authentication,
          methods: ["access_code", "email_code"],
          verified: [],
          codeSentAt: new Date().toISOString(),
          emailHint: "a•••@example.com",
        },
      }),
  },
  {
    name: "codes-locked",
    testId: "locked-state",
    answer: (s) =>
      ok({
        ...s,
        authentication: { ...s.authentication, methods: ["access_code"], verified: [], lockedUntil: later() },
      }),
  },
  {
    name: "in-person",
    testId: "hand-over-state",
    answer: (s) => ok(withRecipient(s, { host: { name: "Hana Host", email: "host@example.com" } })),
  },
];

/**
 * The page as wide as the screen, and every box with text in it showing all of it — leaving out text
 * kept for screen readers alone (clipped to a pixel, as a visually hidden label is).
 */
const FIT = `(() => {
  const forReadersOnly = (el) => el.clientWidth <= 1 || getComputedStyle(el).clipPath === "inset(50%)" ||
    getComputedStyle(el).clip === "rect(0px, 0px, 0px, 0px)";
  const cut = [...document.querySelectorAll("h1, p, label, button, a, select, li, strong, span")]
    .filter((el) => el.clientWidth > 0 && !forReadersOnly(el) && el.scrollWidth > el.clientWidth + 1 && el.textContent.trim())
    .map((el) => el.tagName.toLowerCase() + ": " + el.textContent.trim().slice(0, 40) + " (" + el.scrollWidth + " > " + el.clientWidth + ")");
  return { width: document.documentElement.scrollWidth, cut: cut.slice(0, 5) };
})()`;

let deployment: Deployment;
let gateway: string;
let key: string;
let browser: Browser;
let session: Session;
let goneLink: string;
let smallFieldsLink: string;

const SIGNATURE_ONLY = [
  { type: "signature", role: "Client", page: 1, x: 60, y: 500, width: 200, height: 50 },
];

/** Fields as small as forms have them: initials in a corner, a date and a file on a line of text. */
const SMALL_FIELDS = [
  { type: "initials", role: "Client", page: 1, x: 520, y: 740, width: 40, height: 25 },
  { type: "date", role: "Client", page: 1, x: 60, y: 600, width: 110, height: 20, label: "Start" },
  { type: "attachment", role: "Client", page: 1, x: 300, y: 600, width: 110, height: 20, label: "ID" },
  ...SIGNATURE_ONLY,
];

/** A sent request to one signer; their link. */
function signingLink(tag: string, title = `Service agreement ${tag}`, fields: object[] = SIGNATURE_ONLY) {
  const email = `${tag}@example.com`;
  return sentSigningLink(
    deployment,
    key,
    { title, fields, recipients: [{ name: "Ada Lovelace", email, role: "Client" }] },
    email,
  );
}

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  [deployment, browser] = await Promise.all([startStandalone(), launchChromium()]);
  gateway = deployment.gateways[0] as string;
  key = (JSON.parse((await deployment.cli("keys", "create", "--name", "fit")).stdout) as { secret: string })
    .secret;
  const context = await browser.newContext();
  const page = await context.newPage();
  const answered = page.waitForResponse((r) => r.url().endsWith("/sign/api/session") && r.ok());
  await page.goto(await signingLink("fit", MIXED_TITLE));
  session = (await (await answered).json()) as Session;
  // A link whose signer declined no longer opens: the gateway's page says why.
  goneLink = await signingLink("fit-gone");
  await page.goto(goneLink);
  await page.request.post(`${gateway}/sign/api/decline`, { data: { reason: "Wrong company." } });
  await context.close();
  smallFieldsLink = await signingLink("fit-small", "Small fields", SMALL_FIELDS);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await deployment?.destroy();
});

/** A phone's context whose session answer is what `answer` says, for the page in `locale`. */
async function phone(
  viewport: { width: number; height: number },
  locale: string,
): Promise<{ context: BrowserContext; page: Page; show: (screen: Screen) => Promise<void> }> {
  const context = await browser.newContext({
    viewport,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1,
  });
  let answer: { status: number; body: unknown } = { status: 500, body: {} };
  await context.route("**/sign/api/session", (route) =>
    route.fulfill({
      status: answer.status,
      contentType: "application/json",
      body: JSON.stringify(answer.body),
    }),
  );
  // The signer's choice on an earlier visit: an answer without a session (an error) is read in it too.
  await context.addInitScript(
    `localStorage.setItem("countersign.signing.locale", ${JSON.stringify(locale)})`,
  );
  const page = await context.newPage();
  const show = async (screen: Screen) => {
    answer = screen.answer(withRecipient(session, { locale }));
    await page.goto(`${gateway}/sign/`);
    await page.locator(`html[lang="${locale}"] [data-testid="${screen.testId}"]`).waitFor();
  };
  return { context, page, show };
}

// Each screen is loaded once and measured at both widths, the page resized between them: a load per
// width took twice as long, and the page lays itself out again on a resize as on a load.
test.each([...SIGNER_LOCALES])(
  "in %s every end screen, the codes' page and the link pages fit at both widths",
  async (locale) => {
    const { context, page, show } = await phone(PHONES[0], locale);
    const misfits: string[] = [];
    const measure = async (name: string, on: Page) => {
      for (const viewport of PHONES) {
        await on.setViewportSize(viewport);
        // What the page lays out in script on a resize is drawn by the second frame.
        await on.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");
        const fit = (await on.evaluate(FIT)) as { width: number; cut: string[] };
        const where = `${name} at ${viewport.width}`;
        if (fit.width > viewport.width) misfits.push(`${where}: ${fit.width} px wide`);
        for (const cut of fit.cut) misfits.push(`${where}: ${cut}`);
        if (on === page && viewport.width === 390 && ["de", "fr", "ar"].includes(locale))
          await on.screenshot({ path: join(SCREENSHOTS, `${locale}-${name}.png`), fullPage: true });
      }
    };
    for (const screen of SCREENS) {
      await show(screen);
      await measure(screen.name, page);
    }
    await context.close();

    const linkContext = await browser.newContext({
      viewport: PHONES[0],
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 1,
      extraHTTPHeaders: { "Accept-Language": locale },
    });
    const linkPage = await linkContext.newPage();
    for (const [name, url] of [
      ["link-invalid", `${gateway}/sign/not-a-token`],
      ["link-gone", goneLink],
    ] as const) {
      await linkPage.goto(url);
      await measure(name, linkPage);
    }
    await linkContext.close();
    expect(misfits).toEqual([]);
  },
  120_000,
);

/** Where each word of the isolated title is drawn: its box's left edge and its line's top. */
const WORDS_SEEN = `(() => {
  const bdi = [...document.querySelectorAll("bdi")].find((el) => el.textContent.includes("Consulting"));
  const text = bdi.firstChild;
  return ["Consulting", "offer", "عرض"].map((word) => {
    const range = document.createRange();
    const at = text.textContent.indexOf(word);
    range.setStart(text, at);
    range.setEnd(text, at + word.length);
    const box = range.getBoundingClientRect();
    return { word, left: Math.round(box.left), top: Math.round(box.top) };
  });
})()`;

test("a title mixing directions reads in its own order on the Arabic codes' page", async () => {
  const { context, page, show } = await phone(PHONES[0], "ar");
  await show(SCREENS.find((s) => s.name === "codes") as Screen);
  const isolated = page.getByTestId("authentication-gate").locator("bdi", { hasText: "Consulting" });
  await expect(isolated.textContent()).resolves.toBe(MIXED_TITLE);
  await expect(isolated.getAttribute("dir")).resolves.toBe("ltr");
  await page.screenshot({ path: join(SCREENSHOTS, "ar-codes-mixed-title.png") });
  // On one line, left to right: "Consulting offer — عرض استشاري", not split into "Consulting" at the
  // end of one line and "عرض استشاري — offer" on the next.
  const [consulting, offer, arabic] = (await page.evaluate(WORDS_SEEN)) as { left: number; top: number }[];
  expect([offer?.top, arabic?.top]).toEqual([consulting?.top, consulting?.top]);
  expect((consulting?.left ?? 0) < (offer?.left ?? 0) && (offer?.left ?? 0) < (arabic?.left ?? 0)).toBe(true);
  await context.close();
});

/** Calls to action that reach past their field on either side: cut, rather than shown whole or shortened. */
const CUT_CTAS = `(() => [...document.querySelectorAll(".field-button")].flatMap((button) => {
  const cta = button.querySelector(".field-cta");
  if (!cta) return [];
  const outer = button.getBoundingClientRect();
  const inner = cta.getBoundingClientRect();
  return inner.left < outer.left - 1 || inner.right > outer.right + 1
    ? [cta.textContent + " (" + Math.round(inner.width) + " px in " + Math.round(outer.width) + ")"]
    : [];
}))()`;

describe.each(PHONES)("at $width pixels wide, a field's call to action", (viewport) => {
  test("shows whole, or its start, in every language", async () => {
    const cut: string[] = [];
    for (const locale of SIGNER_LOCALES) {
      const context = await browser.newContext({
        viewport,
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 1,
      });
      await context.addInitScript(
        `localStorage.setItem("countersign.signing.locale", ${JSON.stringify(locale)})`,
      );
      const page = await context.newPage();
      await page.goto(smallFieldsLink);
      await page.locator(`html[lang="${locale}"] [data-testid="page-1"][data-rendered]`).waitFor();
      for (const what of (await page.evaluate(CUT_CTAS)) as string[]) cut.push(`${locale}: ${what}`);
      if (viewport.width === 390 && locale === "de")
        await page.getByTestId("page-1").screenshot({ path: join(SCREENSHOTS, "de-small-fields.png") });
      await context.close();
    }
    expect(cut).toEqual([]);
  }, 120_000);
});
