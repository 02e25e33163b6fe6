/** Debian's Chromium for the browser suites, driven by playwright-core (never a downloaded browser). */
import { type Browser, chromium } from "playwright-core";

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
