/**
 * Serves a built web app (gateway/web, built by `npm run build:web`): its index.html with a strict
 * content security policy and no caching, its hashed assets with long caching, compressed with
 * Brotli or gzip where the browser takes it (the build writes both beside each script and style
 * sheet). A gateway started without the build says so on the page instead of answering 404.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import express, { type Router } from "express";
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

export function webApp({ dir, pages, name }: WebAppOptions): Router {
  const router = express.Router();
  const indexPath = join(dir, "index.html");
  const index = existsSync(indexPath) ? readFileSync(indexPath) : undefined;
  const headers = {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Security-Policy": POLICY,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  };
  router.use(
    "/assets",
    expressStaticGzip(join(dir, "assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gz"],
      index: false,
      serveStatic: { immutable: true, maxAge: "365d", index: false },
    }),
  );
  router.get(pages, (req, res) => {
    if (!index) {
      // For whoever runs the service, not a signer: in English.
      sendLinkPage(req, res, {
        status: 503,
        title: { text: `The ${name} is not built` },
        message: { text: "Run `npm run build:web` (npm start and npm test do it for you) and reload." },
      });
      return;
    }
    res.set(headers).send(index);
  });
  return router;
}
