/**
 * The e-mail with a signer's one-time code: the code in the subject's place a person looks first,
 * what it opens, how long it works, and what to do when they did not ask for it. The request's
 * title and sender come from API clients: escaped in HTML, on one line in the subject.
 */
import { escapeHtml, htmlDocument, oneLine } from "./notification-emails.js";

export interface SigningCodeContent {
  requestTitle: string;
  senderName: string;
  recipientName: string;
  code: string;
}

export function renderSigningCode(content: SigningCodeContent): {
  subject: string;
  text: string;
  html: string;
} {
  const title = oneLine(content.requestTitle);
  const sender = oneLine(content.senderName);
  const from = sender ? ` from ${sender}` : "";
  const lead = `Your code to open "${title}"${from} is`;
  const works = "It works for 10 minutes, in the window where you asked for it.";
  const stranger =
    "If you did not ask for a code, someone may have your signing link: do not share this code, and tell the sender.";
  const text = [
    `Hello ${content.recipientName},`,
    "",
    `${lead}:`,
    "",
    `    ${content.code}`,
    "",
    works,
    "",
    stranger,
    "",
    "— Countersign",
  ];
  const html = [
    `<p>Hello ${escapeHtml(content.recipientName)},</p>`,
    `<p>${escapeHtml(lead)}:</p>`,
    `<p style="font-size:28px;font-weight:700;letter-spacing:6px;margin:16px 0">${escapeHtml(content.code)}</p>`,
    `<p>${escapeHtml(works)}</p>`,
    `<p style="font-size:13px;color:#555">${escapeHtml(stranger)}</p>`,
  ];
  return {
    subject: `${content.code} is your code for ${title}`.slice(0, 250),
    text: `${text.join("\n")}\n`,
    html: htmlDocument(html),
  };
}
