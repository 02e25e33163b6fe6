/** Debian's Chromium for the browser suites, driven by playwright-core (never a downloaded browser). */
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

/** Elements (tag.class) whose box reaches past the viewport's right edge, outside any scrolling box. */
export const STICKING_OUT = `(() => {
  const scrolls = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (["auto", "scroll", "hidden"].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  return [...document.querySelectorAll("body *")]
    .filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 1 && box.right > window.innerWidth + 1 && !scrolls(el);
    })
    .map((el) => el.tagName.toLowerCase() + "." + String(el.className))
    .slice(0, 5);
})()`;

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe-core's serious and critical violations of the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = (await page.evaluate("axe.run(document).then((r) => r.violations)")) as {
    id: string;
    impact: string | null;
    nodes: { target: string[] }[];
  }[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
