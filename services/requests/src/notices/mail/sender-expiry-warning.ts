/**
 * The e-mail that warns a request's sender (a console user, who has an address) that it expires
 * soon while recipients still have to act: who is still waited for, when it expires, and a link to
 * the request in the console, where they can remind them. In English, as every sender-facing e-mail.
 */
import escapeHtml from "escape-html";
import { FSI, MailWords, PDI, SUBJECT_LENGTH } from "./mail-words.js";
import { htmlDocument, oneLine } from "./notification-emails.js";

export interface SenderExpiryWarning {
  senderName: string;
  requestTitle: string;
  expiresAt: Date;
  /** The recipients still waited for, as "Name <e-mail>" joined by commas. */
  waitingFor: string;
  /** The request in the console. */
  link: string;
}

export function renderSenderExpiryWarning(content: SenderExpiryWarning): {
  subject: string;
  text: string;
  html: string;
} {
  const words = new MailWords("");
  const title = oneLine(content.requestTitle);
  const date = words.dateTime(content.expiresAt);
  const waiting =
    oneLine(content.waitingFor) || "nobody who gets e-mail (signers embedded in your app or in person)";
  const greeting = content.senderName ? `Hello ${oneLine(content.senderName)},` : "Hello,";
  const lead = `Your request "${title}" expires on ${date}, and is still waiting for: ${waiting}.`;
  const action = "Open the request to remind them, or to send it again with a later expiry:";
  const text = [greeting, "", lead, "", action, content.link, "", words.text("signOff"), ""].join("\n");
  const link = escapeHtml(content.link);
  const html = htmlDocument(words, [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>Your request <b>${escapeHtml(title)}</b> expires on ${escapeHtml(date)}, and is still waiting for: ${escapeHtml(waiting)}.</p>`,
    `<p>${escapeHtml(action)}</p>`,
    `<p style="margin:24px 0"><a href="${link}" style="display:inline-block;padding:12px 20px;background:#1f4fd1;color:#fff;text-decoration:none;border-radius:6px;font-weight:600">Open the request</a></p>`,
  ]);
  // The title isolated, cut so that its end still closes the isolate.
  const prefix = "Expiring soon: ";
  const subject = `${prefix}${FSI}${title.slice(0, SUBJECT_LENGTH - prefix.length - 2)}${PDI}`;
  return { subject, text, html };
}
