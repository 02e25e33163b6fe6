/**
 * Serves a built web app (gateway/web, built by `npm run build:web`): its index.html with a strict
 * content security policy and no caching, its hashed assets with long caching, compressed with
 * Brotli or gzip where the browser takes it (the build writes both beside each script and style
 * sheet). A gateway started without the build says so on the page instead of answering 404.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import escapeHtml from "escape-html";
import express, { type Request, type Response, type Router } from "express";
import expressStaticGzip from "express-static-gzip";
import { sendLinkPage } from "./signing/link-pages.js";

export interface WebAppOptions {
  /** The app's build output: index.html and assets/. */
  dir: string;
  /** The paths that answer index.html: the app routes in the browser. */
  pages: string | RegExp | (string | RegExp)[];
  /** What the page is, for the "not built" answer. */
  name: string;
}

/**
 * The page's content security policy, framed by `frameAncestors` alone (by no page unless given).
 * pdf.js runs its worker from our origin and may decode images with WebAssembly.
 */
export function pagePolicy(frameAncestors = "'none'"): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    "connect-src 'self'",
    `frame-ancestors ${frameAncestors}`,
    "base-uri 'none'",
    "form-action 'self'",
  ].join("; ");
}

/** How one answer of the page differs: who may frame it, and what its head tells the app. */
export interface PageServing {
  /** A source `frame-ancestors` allows: an origin, validated where it was stored. */
  frameAncestor?: string;
  /** `<meta name content>` tags the app reads at start, added first in the head. */
  meta?: Record<string, string>;
}

export type SendPage = (req: Request, res: Response, serving?: PageServing) => void;

/** Answers the built app's index.html, or a page saying it is not built. */
export function appPage({ dir, name }: Pick<WebAppOptions, "dir" | "name">): SendPage {
  const indexPath = join(dir, "index.html");
  const index = existsSync(indexPath) ? readFileSync(indexPath, "utf8") : undefined;
  return (req, res, serving = {}) => {
    if (!index) {
      // For whoever runs the service, not a signer: in English.
      sendLinkPage(req, res, {
        status: 503,
        title: { text: `The ${name} is not built` },
        message: { text: "Run `npm run build:web` (npm start and npm test do it for you) and reload." },
      });
      return;
    }
    const meta = Object.entries(serving.meta ?? {})
      .map(([key, value]) => `<meta name="${escapeHtml(key)}" content="${escapeHtml(value)}">`)
      .join("");
    // The app reads what it was served with from its head: a page without one would start without it.
    if (meta && !index.includes("<head>"))
      throw new Error(`the built ${name} has no <head> to carry its meta`);
    res
      .set({
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Security-Policy": pagePolicy(serving.frameAncestor),
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
      })
      // A function, so that no "$" in a value is read as a replacement pattern.
      .send(meta ? index.replace("<head>", () => `<head>${meta}`) : index);
  };
}

/** `send` is the app's page, when its caller serves it elsewhere too: index.html is read once. */
export function webApp({ dir, pages, name }: WebAppOptions, send = appPage({ dir, name })): Router {
  const router = express.Router();
  router.use(
    "/assets",
    expressStaticGzip(join(dir, "assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gz"],
      index: false,
      serveStatic: { immutable: true, maxAge: "365d", index: false },
    }),
  );
  router.get(pages, (req, res) => send(req, res));
  return router;
}
