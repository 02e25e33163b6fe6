/**
 * The pages a signer sees when their link cannot open: served as plain HTML by the gateway (no
 * script), each saying in words what happened and what to do.
 */
import type { Response } from "express";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface LinkPage {
  status: 404 | 410 | 429 | 503;
  title: string;
  message: string;
}

export function sendLinkPage(res: Response, page: LinkPage): void {
  res
    .status(page.status)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      "Referrer-Policy": "no-referrer",
    })
    .send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Countersign</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f2a; background: #f4f6fb; }
  main { max-width: 34rem; margin: 12vh auto 0; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 3px rgb(0 0 0 / 12%); }
  h1 { font-size: 1.4rem; margin: 0 0 .75rem; }
  p { margin: 0 0 1rem; color: #3b4254; }
  .brand { font-size: .85rem; color: #6b7385; margin: 0; }
  @media (max-width: 600px) { main { margin: 0; border-radius: 0; min-height: 100vh; box-shadow: none; } }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.message)}</p>
<p class="brand">Countersign</p>
</main>
</body>
</html>
`);
}
