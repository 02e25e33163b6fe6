/**
 * Serves the built signing page (gateway/web, built by `npm run build:web`): index.html at /sign/
 * with a strict content security policy and no caching, its hashed assets with long caching. A
 * gateway started without the build says so on the page instead of answering 404.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import express, { type Router } from "express";
import { sendLinkPage } from "./link-pages.js";

/** pdf.js runs its worker from our origin and may decode images with WebAssembly. */
const POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

export function signingPage(webRoot: string): { router: Router } {
  const router = express.Router();
  const indexPath = join(webRoot, "index.html");
  const index = existsSync(indexPath) ? readFileSync(indexPath) : undefined;
  router.use(
    "/assets",
    express.static(join(webRoot, "assets"), { immutable: true, maxAge: "365d", index: false }),
  );
  router.get(["/", "/index.html"], (_req, res) => {
    if (!index) {
      sendLinkPage(res, {
        status: 503,
        title: "The signing page is not built",
        message: "Run `npm run build:web` (npm start and npm test do it for you) and reload.",
      });
      return;
    }
    res
      .set({
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Security-Policy": POLICY,
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
      })
      .send(index);
  });
  return { router };
}
