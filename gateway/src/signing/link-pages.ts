/**
 * The pages a signer sees when their link cannot open: served as plain HTML by the gateway (no
 * script but, in a frame, the one line telling the framing page), each saying in words what
 * happened and what to do, in the language their browser asks for (Accept-Language) among those the
 * signing page speaks.
 */

import { createHash } from "node:crypto";
import {
  DEFAULT_SIGNER_LOCALE,
  ENDED_WORDS,
  type EndedReason,
  isEndedReason,
  SIGNER_LOCALES,
  type SignerLocale,
} from "@countersign/domain";
import type { SigningFrameMessage } from "@countersign/embed/protocol";
import escapeHtml from "escape-html";
import type { Request, Response } from "express";
import { IntlMessageFormat } from "intl-messageformat";
import type { SigningEndedJson } from "../problems.js";
import { ar } from "./link-page-messages/ar.js";
import { de } from "./link-page-messages/de.js";
import { type Catalogue, en, type MessageId } from "./link-page-messages/en.js";
import { es } from "./link-page-messages/es.js";
import { fr } from "./link-page-messages/fr.js";
import { it } from "./link-page-messages/it.js";
import { ja } from "./link-page-messages/ja.js";
import { nl } from "./link-page-messages/nl.js";
import { pl } from "./link-page-messages/pl.js";
import { ptBR } from "./link-page-messages/pt-BR.js";

export const LINK_PAGE_CATALOGUES: Record<SignerLocale, Catalogue> = {
  en,
  de,
  fr,
  es,
  "pt-BR": ptBR,
  it,
  nl,
  pl,
  ja,
  ar,
};

type Values = Record<string, string | number>;

/**
 * A message of the catalogue, with the values it takes; why a link ended (ENDED_WORDS); or, where
 * there is neither, the service's words.
 */
type Words = { id: MessageId; values?: Values } | { ended: EndedReason; values: Values } | { text: string };

export interface LinkPage {
  status: 404 | 410 | 429 | 503;
  title: Words;
  message: Words;
  /**
   * The origin whose frame the link was made for: the page may be shown there, and tells that page
   * the session is over (`session_expired`, with the reason).
   */
  framedBy?: { origin: string; reason: string };
  /** The link's workspace leaves our name off its pages: this one names nobody. */
  unbranded?: boolean;
}

/** The page of a link that is gone, saying why; the service's English words where the reason is new. */
export function gonePage(
  ended: SigningEndedJson | undefined,
  serviceWords: string,
  locale: SignerLocale,
): LinkPage {
  if (!ended || !isEndedReason(ended.reason)) {
    const text = serviceWords.trim();
    return {
      status: 410,
      title: { id: "gone.title" },
      message: { text: `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith(".") ? "" : "."}` },
    };
  }
  const completed = ended.completedAt ? new Date(ended.completedAt) : new Date(0);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(completed);
  return {
    status: 410,
    title: { id: "gone.title" },
    message: { ended: ended.reason, values: { date, days: ended.copyDays ?? 0 } },
  };
}

/** The language of the pages for this browser: the best of Accept-Language, else English. */
export function linkPageLocale(req: Request): SignerLocale {
  const chosen = req.acceptsLanguages([...SIGNER_LOCALES]);
  return (typeof chosen === "string" ? chosen : DEFAULT_SIGNER_LOCALE) as SignerLocale;
}

function say(locale: SignerLocale, words: Words): string {
  if ("text" in words) return words.text;
  const message =
    "ended" in words ? ENDED_WORDS[locale][words.ended] : LINK_PAGE_CATALOGUES[locale][words.id];
  const out = new IntlMessageFormat(message, locale).format(words.values);
  return String(out);
}

/**
 * What a framed link page adds: its frame's origin allowed to frame it, and a script, allowed by its
 * hash alone, that tells that origin the session is over.
 */
function framedScript({ origin, reason }: { origin: string; reason: string }) {
  // The embed package's protocol, by its type alone: the server loads none of the package.
  const message: SigningFrameMessage = { source: "countersign", type: "session_expired", reason };
  // JSON in a script element: "<" escaped, so no value can close the element.
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
  const code = `parent.postMessage(${json(message)}, ${json(origin)});`;
  const hash = createHash("sha256").update(code).digest("base64");
  return {
    policy: `script-src 'sha256-${hash}'; frame-ancestors ${origin}`,
    script: `\n<script>${code}</script>`,
  };
}

export function sendLinkPage(req: Request, res: Response, page: LinkPage): void {
  // A page in the service's own words (no message of the catalogue) is in English, and says so.
  const locale = "text" in page.title ? DEFAULT_SIGNER_LOCALE : linkPageLocale(req);
  const title = escapeHtml(say(locale, page.title));
  const message = escapeHtml(say(locale, page.message));
  const framed = page.framedBy && framedScript(page.framedBy);
  res
    .status(page.status)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      "Content-Language": locale,
      Vary: "Accept-Language",
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; ${framed?.policy ?? "frame-ancestors 'none'"}`,
      "Referrer-Policy": "no-referrer",
    })
    .send(`<!doctype html>
<html lang="${locale}" dir="${locale === "ar" ? "rtl" : "ltr"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}${page.unbranded ? "" : " · Countersign"}</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f2a; background: #f4f6fb; }
  main { max-width: 34rem; margin: 12vh auto 0; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 3px rgb(0 0 0 / 12%); overflow-wrap: break-word; hyphens: auto; }
  h1 { font-size: 1.4rem; margin: 0 0 .75rem; }
  p { margin: 0 0 1rem; color: #3b4254; }
  .brand { font-size: .85rem; color: #6b7385; margin: 0; }
  @media (max-width: 600px) { main { margin: 0; padding: 1.5rem 1.25rem; border-radius: 0; min-height: 100vh; box-sizing: border-box; box-shadow: none; } }
</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${message}</p>
${page.unbranded ? "" : `<p class="brand">${escapeHtml(say(locale, { id: "brand" }))}</p>\n`}</main>${framed?.script ?? ""}
</body>
</html>
`);
}
