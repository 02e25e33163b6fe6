import { type NotificationContent, renderNotification } from "../src/mail/notification-emails.js";

const LINK = "https://sign.example.com/sign/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde";

function content(overrides: Partial<NotificationContent> = {}): NotificationContent {
  return {
    kind: "invitation",
    requestTitle: "Mutual NDA",
    senderName: "ada@acme.example",
    senderMessage: "Please sign by Friday.",
    note: "",
    recipientName: "Ada",
    link: LINK,
    ...overrides,
  };
}

test("every kind that asks for a signature carries the link and the sender's message in both parts", () => {
  for (const kind of ["invitation", "resend", "reminder", "recipient_changed"] as const) {
    const mail = renderNotification(content({ kind }));
    expect(mail.subject).toContain("Mutual NDA");
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(LINK);
      expect(part).toContain("Please sign by Friday.");
      expect(part).toContain("Ada");
    }
  }
});

test("an invitation names who sent the request; without a sender it says nothing of one", () => {
  expect(renderNotification(content()).text).toContain(
    'You have been asked to sign "Mutual NDA" by ada@acme.example.',
  );
  expect(renderNotification(content({ senderName: "" })).text).toContain(
    'You have been asked to sign "Mutual NDA".',
  );
});

test("a reminder says it is one and carries its note", () => {
  const mail = renderNotification(content({ kind: "reminder", note: "Second nudge" }));
  expect(mail.subject).toBe("Reminder: please sign Mutual NDA");
  expect(mail.text).toContain("Second nudge");
  expect(mail.html).toContain("Second nudge");
});

test("a completed copy has no link", () => {
  const mail = renderNotification(content({ kind: "completed", link: "" }));
  expect(mail.subject).toBe("Completed: Mutual NDA");
  expect(mail.text).not.toContain("/sign/");
  expect(mail.html).not.toContain("/sign/");
});

test("values from API clients are escaped in HTML and cannot add header lines to the subject", () => {
  const mail = renderNotification(
    content({
      requestTitle: "NDA <script>alert(1)</script>\r\nBcc: victim@example.com",
      senderMessage: "<b>hi</b> & bye",
    }),
  );
  expect(mail.html).not.toContain("<script>");
  expect(mail.html).toContain("&lt;script&gt;");
  expect(mail.html).toContain("&lt;b&gt;hi&lt;/b&gt; &amp; bye");
  expect(mail.subject).not.toMatch(/[\r\n]/);
});

test("the expiry date is given when the request has one", () => {
  const mail = renderNotification(content({ expiresAt: new Date("2030-01-31T17:00:00Z") }));
  expect(mail.text).toContain("2030-01-31 17:00 UTC");
});
