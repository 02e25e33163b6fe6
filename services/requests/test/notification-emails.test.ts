import { type NotificationContent, renderNotification } from "../src/notices/mail/notification-emails.js";
import { renderSenderExpiryWarning } from "../src/notices/mail/sender-expiry-warning.js";
import { renderSigningCode } from "../src/notices/mail/signing-code-email.js";

const LINK = "https://sign.example.com/sign/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde";

function content(overrides: Partial<NotificationContent> = {}): NotificationContent {
  return {
    kind: "invitation",
    locale: "",
    recipientKind: "signer",
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
    'You have been asked to sign "\u2068Mutual NDA\u2069" by \u2068ada@acme.example\u2069.',
  );
  expect(renderNotification(content({ senderName: "" })).text).toContain(
    'You have been asked to sign "\u2068Mutual NDA\u2069".',
  );
});

test("a viewer is asked to review, not to sign, in every e-mail that asks something of them", () => {
  for (const kind of ["invitation", "resend", "reminder", "recipient_changed"] as const) {
    const mail = renderNotification(
      content({ kind, recipientKind: "viewer", senderMessage: "For your files." }),
    );
    expect(mail.subject).toMatch(/review/);
    const words = `${mail.subject} ${mail.text}`.replaceAll(LINK, "").replaceAll("Countersign", "");
    expect(words).not.toMatch(/sign/i);
    expect(mail.text).toContain("Review the documents:");
  }
});

test("an approver is asked to approve, in the e-mails that ask something of them", () => {
  const invitation = renderNotification(content({ recipientKind: "approver" }));
  expect(invitation.subject).toBe("Please approve: \u2068Mutual NDA\u2069");
  expect(invitation.text).toContain("Review and approve:");
  const reminder = renderNotification(content({ kind: "reminder", recipientKind: "approver" }));
  expect(reminder.subject).toBe("Reminder: please approve \u2068Mutual NDA\u2069");
});

test("a reminder says it is one and carries its note", () => {
  const mail = renderNotification(content({ kind: "reminder", note: "Second nudge" }));
  expect(mail.subject).toBe("Reminder: please sign \u2068Mutual NDA\u2069");
  expect(mail.text).toContain("Second nudge");
  expect(mail.html).toContain("Second nudge");
});

test("a completed copy has no link", () => {
  const mail = renderNotification(content({ kind: "completed", link: "" }));
  expect(mail.subject).toBe("Completed: \u2068Mutual NDA\u2069");
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

test("the expiry date is given when the request has one, as the recipient's language writes it", () => {
  const expiresAt = new Date("2030-01-31T17:00:00Z");
  expect(renderNotification(content({ expiresAt })).text).toContain(
    "The request expires on \u2068January 31, 2030 at 05:00 PM UTC\u2069.",
  );
  expect(renderNotification(content({ expiresAt, locale: "de" })).text).toContain("31. Januar 2030");
});

test("a recipient with a language gets every part of the e-mail in it, the HTML marked with it", () => {
  const mail = renderNotification(content({ locale: "de", kind: "reminder", note: "Bitte heute" }));
  expect(mail.subject).not.toContain("Reminder");
  expect(mail.subject).toContain("Mutual NDA");
  for (const english of ["Hello", "You have been asked", "Review and sign", "Message from the sender"]) {
    expect(mail.text).not.toContain(english);
    expect(mail.html).not.toContain(english);
  }
  expect(mail.html).toContain('<html lang="de" dir="ltr">');
  expect(mail.text).toContain("Bitte heute");
});

test("an Arabic e-mail reads right to left, the link and the code left to right inside it", () => {
  const mail = renderNotification(content({ locale: "ar" }));
  expect(mail.html).toContain('<html lang="ar" dir="rtl">');
  expect(mail.html).toContain(`dir="ltr">${LINK}</a>`);
  expect(mail.text).toMatch(/[\u0600-\u06FF]/);
});

test("a title is bold in HTML and quoted in text in every language, and no value can forge the marks", () => {
  for (const locale of ["en", "fr", "ja", "ar"] as const) {
    const mail = renderNotification(content({ locale, requestTitle: "NDA \uE001<i>x</i>" }));
    expect(mail.html).toContain("<strong><bdi>NDA &lt;i&gt;x&lt;/i&gt;</bdi></strong>");
    expect(mail.text).toContain('"\u2068NDA <i>x</i>\u2069"');
  }
});

test("a title, a sender and a name in another direction are isolated from the sentence in both parts", () => {
  const title = "Consulting offer — عرض استشاري";
  const sender = "محمد عبد الله";
  for (const locale of ["en", "ar"] as const) {
    const mail = renderNotification(
      content({ locale, requestTitle: title, senderName: sender, recipientName: "Ada Lovelace" }),
    );
    expect(mail.text).toContain(`\u2068${title}\u2069`);
    expect(mail.text).toContain(`\u2068${sender}\u2069`);
    expect(mail.text).toContain("\u2068Ada Lovelace\u2069");
    expect(mail.html).toContain(`<bdi>${title}</bdi>`);
    expect(mail.html).toContain(`<bdi>${sender}</bdi>`);
    // The subject isolates the title as the text does: a mail client shows it in the same order.
    expect(mail.subject).toContain(`\u2068${title}\u2069`);
  }
});

test("a subject is cut to 250 characters with every isolate in it closed, whatever the title's length", () => {
  for (const locale of ["en", "ar", "ja"] as const) {
    for (const length of [200, 235, 240, 241, 245, 249, 250, 400]) {
      const title = `عرض${"x".repeat(length - 3)}`;
      const { subject } = renderNotification(content({ locale, requestTitle: title }));
      expect(subject.length).toBeLessThanOrEqual(250);
      const opens = subject.match(/\u2068/g)?.length ?? 0;
      expect({ length, opens, closes: subject.match(/\u2069/g)?.length ?? 0 }).toEqual({
        length,
        opens: 1,
        closes: 1,
      });
      // The isolate closes after what the subject kept of the title.
      expect(subject.indexOf("\u2069")).toBeGreaterThan(subject.indexOf("\u2068"));
    }
  }
});

test("the one-time code's subject and the sender's expiry warning isolate the title too", () => {
  const title = "Consulting offer — عرض استشاري";
  const code = renderSigningCode({
    locale: "",
    requestTitle: title,
    senderName: "Ada",
    recipientName: "Bo",
    code: "123456",
  });
  expect(code.subject).toContain(`\u2068${title}\u2069`);
  // The code is a value of its own, isolated as well: digits beside Arabic keep their place.
  expect(code.subject).toContain("\u2068123456\u2069");
  const warning = renderSenderExpiryWarning({
    senderName: "Ada",
    requestTitle: title,
    expiresAt: new Date("2030-01-31T17:00:00Z"),
    waitingFor: "Bo <bo@example.com>",
    link: "https://console.example.com/r/1",
  });
  expect(warning.subject).toBe(`Expiring soon: \u2068${title}\u2069`);
  const long = renderSenderExpiryWarning({
    senderName: "",
    requestTitle: "ع".repeat(400),
    expiresAt: new Date("2030-01-31T17:00:00Z"),
    waitingFor: "",
    link: "https://console.example.com/r/1",
  });
  expect(long.subject.length).toBeLessThanOrEqual(250);
  expect(long.subject.endsWith("\u2069")).toBe(true);
});

test("a workspace's brand: its logo above, its colour on the button, our name nowhere when it leaves it off; ours otherwise", () => {
  const brand = {
    accentColor: "#0b6e4f",
    logoUrl: 'https://sign.example.com/sign/logos/ws/abc"><script>',
    name: "Acme <Leasing>",
    hideProductName: true,
  };
  for (const mail of [
    renderNotification(content({ brand })),
    renderSigningCode({
      locale: "",
      requestTitle: "Lease",
      senderName: "Acme",
      recipientName: "Ada",
      code: "123456",
      brand,
    }),
  ]) {
    // The logo's address and name are values like any other: escaped, never markup.
    expect(mail.html).toContain(
      '<img src="https://sign.example.com/sign/logos/ws/abc&quot;&gt;&lt;script&gt;" alt="Acme &lt;Leasing&gt;"',
    );
    expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(/countersign/i);
  }
  expect(renderNotification(content({ brand })).html).toContain("background:#0b6e4f");
  const ours = renderNotification(content());
  expect(ours.html).not.toContain("<img");
  expect(ours.html).toContain("background:#1f4fd1");
  expect(ours.text).toContain("— Countersign");
  expect(ours.html).toContain("Sent by Countersign");
});
