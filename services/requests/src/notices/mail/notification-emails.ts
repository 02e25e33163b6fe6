/**
 * The e-mails a signature request sends, in plain text and HTML with the same content, in the
 * recipient's language. Titles and messages come from API clients, so every value is escaped in
 * HTML and stripped of line breaks in the subject.
 */

import type { RecipientKind, SignerLocale } from "@countersign/domain";
import escapeHtml from "escape-html";
import type { NotificationKind } from "../../core/notice-queue.js";
import { MailWords } from "./mail-words.js";
import type { MessageId } from "./messages/en.js";

/** How a workspace's e-mails look: its logo on top, its colour on the button, our name left off. */
export interface MailBrand {
  /** "#rrggbb" for the button. */
  accentColor: string;
  /** The logo's absolute URL; empty for none. */
  logoUrl: string;
  /** Who the logo stands for, its text where images are not shown. */
  name: string;
  hideProductName: boolean;
}

/** Ours: our button colour, no logo, our name. */
export const OUR_MAIL_BRAND: MailBrand = {
  accentColor: "#1f4fd1",
  logoUrl: "",
  name: "",
  hideProductName: false,
};

export interface NotificationContent {
  kind: NotificationKind;
  /** The recipient's language; empty for English. */
  locale: SignerLocale | "";
  /** A viewer is asked to review, an approver to approve, not to sign. */
  recipientKind: RecipientKind;
  requestTitle: string;
  /** Who sent the request, as recipients know them; empty when not known. */
  senderName: string;
  senderMessage: string;
  /** The extra note of a reminder. */
  note: string;
  recipientName: string;
  /** The signing link; for a completed request, where the sealed PDF is fetched when it is not attached. */
  link: string;
  expiresAt?: Date;
  /** A completed request's sealed PDF is attached. */
  attached?: boolean;
  /** The sender's workspace's brand; ours when not given. */
  brand?: MailBrand;
}

type Wording = { subject: MessageId; lead: MessageId; action: MessageId };

const WORDING: Record<NotificationKind, Wording> = {
  invitation: { subject: "invitation.subject", lead: "invitation.lead", action: "action.sign" },
  resend: { subject: "resend.subject", lead: "resend.lead", action: "action.sign" },
  reminder: { subject: "reminder.subject", lead: "reminder.lead", action: "action.sign" },
  expiry_warning: { subject: "expiryWarning.subject", lead: "expiryWarning.lead", action: "action.sign" },
  recipient_changed: {
    subject: "recipientChanged.subject",
    lead: "recipientChanged.lead",
    action: "action.sign",
  },
  completed: { subject: "completed.subject", lead: "completed.lead", action: "action.download" },
};

/** The words of e-mails that ask a viewer to review, or an approver to approve, rather than to sign. */
function askedTo(ask: "review" | "approve"): Partial<Record<NotificationKind, Wording>> {
  const asked: Wording = { subject: `${ask}.subject`, lead: `${ask}.lead`, action: `action.${ask}` };
  return {
    invitation: asked,
    resend: asked,
    reminder: { ...asked, subject: `${ask}.reminderSubject`, lead: `${ask}.reminderLead` },
    expiry_warning: { ...WORDING.expiry_warning, action: asked.action },
    recipient_changed: asked,
  };
}

/** What a viewer and an approver are asked, in the e-mails that ask: to review, or to approve. */
const ASKED_OF: Partial<Record<RecipientKind, Partial<Record<NotificationKind, Wording>>>> = {
  viewer: askedTo("review"),
  approver: askedTo("approve"),
};

export function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}

const QUOTE = "margin:0;padding:8px 12px;border-left:3px solid #ccc;white-space:pre-wrap";
const QUOTE_RTL = "margin:0;padding:8px 12px;border-right:3px solid #ccc;white-space:pre-wrap";

export function renderNotification(content: NotificationContent): {
  subject: string;
  text: string;
  html: string;
} {
  const words = new MailWords(content.locale);
  const brand = content.brand ?? OUR_MAIL_BRAND;
  const wording = ASKED_OF[content.recipientKind]?.[content.kind] ?? WORDING[content.kind];
  const title = oneLine(content.requestTitle);
  const subject = words.subject(wording.subject, { title });
  const sender = oneLine(content.senderName);
  const lead = { title, sender, hasSender: sender ? "yes" : "no" };
  const quote = words.direction === "rtl" ? QUOTE_RTL : QUOTE;

  const text: string[] = [
    words.text("greeting", { name: content.recipientName }),
    "",
    words.text(wording.lead, lead),
  ];
  const html: string[] = [
    `<p>${words.html("greeting", { name: content.recipientName })}</p>`,
    `<p>${words.html(wording.lead, lead)}</p>`,
  ];
  const quoted = (label: MessageId, body: string) => {
    text.push(
      "",
      words.text(label),
      ...body
        .trim()
        .split("\n")
        .map((l) => `> ${l}`),
    );
    html.push(
      `<p style="margin:16px 0 4px;color:#555">${words.html(label)}</p>`,
      `<blockquote style="${quote}" dir="auto">${escapeHtml(body.trim())}</blockquote>`,
    );
  };
  if (content.senderMessage.trim()) quoted("senderMessage", content.senderMessage);
  if (content.note.trim()) quoted("reminderNote", content.note);
  if (content.kind === "completed") {
    const where = content.attached ? "completed.attached" : "completed.tooLarge";
    text.push("", words.text(where));
    html.push(`<p>${words.html(where)}</p>`);
  }
  if (content.link) {
    const link = escapeHtml(content.link);
    text.push("", `${words.text(wording.action)}:`, content.link);
    html.push(
      `<p style="margin:24px 0"><a href="${link}" style="display:inline-block;padding:12px 20px;background:${escapeHtml(brand.accentColor)};color:#fff;text-decoration:none;border-radius:6px;font-weight:600">${words.html(wording.action)}</a></p>`,
      `<p style="font-size:13px;color:#555">${words.html("orOpen")} <a href="${link}" dir="ltr">${link}</a></p>`,
    );
    if (content.expiresAt) {
      const date = words.dateTime(content.expiresAt);
      text.push("", words.text("expires", { date }));
      html.push(`<p style="font-size:13px;color:#555">${words.html("expires", { date })}</p>`);
    }
    const personal = content.recipientKind === "viewer" ? "personalView" : "personal";
    text.push("", words.text(personal));
    html.push(`<p style="font-size:13px;color:#555">${words.html(personal)}</p>`);
  }
  text.push(...signOff(words, brand));
  return { subject, text: `${text.join("\n")}\n`, html: htmlDocument(words, html, brand) };
}

/** The text part's last lines: our sign-off, unless the workspace leaves our name off. */
export function signOff(words: MailWords, brand: MailBrand = OUR_MAIL_BRAND): string[] {
  return brand.hideProductName ? [] : ["", words.text("signOff")];
}

/**
 * An e-mail's HTML parts in the page every e-mail of a request uses, in the recipient's language:
 * the workspace's logo above them, our name below unless the workspace leaves it off.
 */
export function htmlDocument(words: MailWords, parts: string[], brand: MailBrand = OUR_MAIL_BRAND): string {
  const logo = brand.logoUrl
    ? `<p style="margin:0 0 16px"><img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}" height="32" style="height:32px;width:auto;border:0"></p>`
    : "";
  const foot = brand.hideProductName
    ? ""
    : `<p style="font-size:12px;color:#888;margin-top:32px">${words.html("sentBy")}</p>`;
  return `<!doctype html><html lang="${words.locale}" dir="${words.direction}"><body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#111;max-width:560px;margin:0 auto;padding:16px">${logo}${parts.join("")}${foot}</body></html>`;
}
