/**
 * The e-mail with a signer's one-time code, in their language: the code in the subject's place a
 * person looks first, what it opens, how long it works, and what to do when they did not ask for
 * it. The request's title and sender come from API clients: escaped in HTML, on one line in the
 * subject.
 */

import type { SignerLocale } from "@countersign/domain";
import escapeHtml from "escape-html";
import { MailWords } from "./mail-words.js";
import { htmlDocument, type MailBrand, oneLine, signOff } from "./notification-emails.js";

export interface SigningCodeContent {
  /** The recipient's language; empty for English. */
  locale: SignerLocale | "";
  requestTitle: string;
  senderName: string;
  recipientName: string;
  code: string;
  /** The sender's workspace's brand; ours when not given. */
  brand?: MailBrand;
}

export function renderSigningCode(content: SigningCodeContent): {
  subject: string;
  text: string;
  html: string;
} {
  const words = new MailWords(content.locale);
  const title = oneLine(content.requestTitle);
  const sender = oneLine(content.senderName);
  const lead = { title, sender, hasSender: sender ? "yes" : "no" };
  const text = [
    words.text("greeting", { name: content.recipientName }),
    "",
    words.text("code.lead", lead),
    "",
    `    ${content.code}`,
    "",
    words.text("code.works"),
    "",
    words.text("code.stranger"),
    ...signOff(words, content.brand),
  ];
  const html = [
    `<p>${words.html("greeting", { name: content.recipientName })}</p>`,
    `<p>${words.html("code.lead", lead)}</p>`,
    `<p style="font-size:28px;font-weight:700;letter-spacing:6px;margin:16px 0" dir="ltr">${escapeHtml(content.code)}</p>`,
    `<p>${words.html("code.works")}</p>`,
    `<p style="font-size:13px;color:#555">${words.html("code.stranger")}</p>`,
  ];
  return {
    subject: words.subject("code.subject", { code: content.code, title }),
    text: `${text.join("\n")}\n`,
    html: htmlDocument(words, html, content.brand),
  };
}
