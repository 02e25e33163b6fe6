/**
 * The e-mails a signature request sends, in plain text and HTML with the same content. Titles and
 * messages come from API clients, so every value is escaped in HTML and stripped of line breaks in
 * the subject.
 */
export type NotificationKind = "invitation" | "resend" | "reminder" | "recipient_changed" | "completed";

export interface NotificationContent {
  kind: NotificationKind;
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
}

const WORDING: Record<NotificationKind, { subject: string; lead: string; action: string }> = {
  invitation: { subject: "Please sign: ", lead: "You have been asked to sign", action: "Review and sign" },
  resend: { subject: "Please sign: ", lead: "This is a new link to sign", action: "Review and sign" },
  reminder: {
    subject: "Reminder: please sign ",
    lead: "A reminder: you have been asked to sign",
    action: "Review and sign",
  },
  recipient_changed: {
    subject: "Please sign: ",
    lead: "Your details on this request were updated. You have been asked to sign",
    action: "Review and sign",
  },
  completed: { subject: "Completed: ", lead: "Everyone has signed", action: "Download the signed document" },
};

export function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

function dateText(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function renderNotification(content: NotificationContent): {
  subject: string;
  text: string;
  html: string;
} {
  const wording = WORDING[content.kind];
  const title = oneLine(content.requestTitle);
  const subject = `${wording.subject}${title}`.slice(0, 250);

  const sender = oneLine(content.senderName);
  const by = sender && content.kind !== "completed" ? ` by ${sender}` : "";
  const text: string[] = [`Hello ${content.recipientName},`, "", `${wording.lead} "${title}"${by}.`];
  const html: string[] = [
    `<p>Hello ${escapeHtml(content.recipientName)},</p>`,
    `<p>${escapeHtml(wording.lead)} <strong>${escapeHtml(title)}</strong>${escapeHtml(by)}.</p>`,
  ];
  if (content.senderMessage.trim()) {
    text.push(
      "",
      "Message from the sender:",
      ...content.senderMessage
        .trim()
        .split("\n")
        .map((l) => `> ${l}`),
    );
    html.push(
      '<p style="margin:16px 0 4px;color:#555">Message from the sender:</p>',
      `<blockquote style="margin:0;padding:8px 12px;border-left:3px solid #ccc;white-space:pre-wrap">${escapeHtml(content.senderMessage.trim())}</blockquote>`,
    );
  }
  if (content.note.trim()) {
    text.push(
      "",
      "Note with this reminder:",
      ...content.note
        .trim()
        .split("\n")
        .map((l) => `> ${l}`),
    );
    html.push(
      '<p style="margin:16px 0 4px;color:#555">Note with this reminder:</p>',
      `<blockquote style="margin:0;padding:8px 12px;border-left:3px solid #ccc;white-space:pre-wrap">${escapeHtml(content.note.trim())}</blockquote>`,
    );
  }
  if (content.kind === "completed") {
    const where = content.attached
      ? "The signed document is attached. Its last page is the certificate of completion, and it is sealed with a digital signature that shows any later change."
      : "The signed document is too large to attach; download it with the link below. Its last page is the certificate of completion.";
    text.push("", where);
    html.push(`<p>${escapeHtml(where)}</p>`);
  }
  if (content.link) {
    text.push("", `${wording.action}:`, content.link);
    html.push(
      `<p style="margin:24px 0"><a href="${escapeHtml(content.link)}" style="display:inline-block;padding:12px 20px;background:#1f4fd1;color:#fff;text-decoration:none;border-radius:6px;font-weight:600">${escapeHtml(wording.action)}</a></p>`,
      `<p style="font-size:13px;color:#555">Or open this address: <a href="${escapeHtml(content.link)}">${escapeHtml(content.link)}</a></p>`,
    );
    if (content.expiresAt) {
      text.push("", `The request expires on ${dateText(content.expiresAt)}.`);
      html.push(
        `<p style="font-size:13px;color:#555">The request expires on ${dateText(content.expiresAt)}.</p>`,
      );
    }
    const personal =
      "This link is personal: anyone with it can sign in your name, so do not forward this e-mail.";
    text.push("", personal);
    html.push(`<p style="font-size:13px;color:#555">${personal}</p>`);
  }
  text.push("", "— Countersign");
  return {
    subject,
    text: `${text.join("\n")}\n`,
    html: htmlDocument(html),
  };
}

/** An e-mail's HTML parts in the page every e-mail of a request uses. */
export function htmlDocument(parts: string[]): string {
  return `<!doctype html><html><body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#111;max-width:560px;margin:0 auto;padding:16px">${parts.join("")}<p style="font-size:12px;color:#888;margin-top:32px">Sent by Countersign</p></body></html>`;
}
