/**
 * The words of the e-mails a recipient gets, in English: the catalogue every other language
 * translates. ICU MessageFormat; <b>…</b> marks the request's title, which the HTML part sets in
 * bold and the text part in quotes.
 */
export const en = {
  greeting: "Hello {name},",
  "invitation.subject": "Please sign: {title}",
  "invitation.lead":
    "You have been asked to sign <b>{title}</b>{hasSender, select, yes { by {sender}} other {}}.",
  "resend.subject": "Please sign: {title}",
  "resend.lead": "This is a new link to sign <b>{title}</b>{hasSender, select, yes { by {sender}} other {}}.",
  "reminder.subject": "Reminder: please sign {title}",
  "reminder.lead":
    "A reminder: you have been asked to sign <b>{title}</b>{hasSender, select, yes { by {sender}} other {}}.",
  "expiryWarning.subject": "Expiring soon: {title}",
  "expiryWarning.lead":
    "<b>{title}</b>{hasSender, select, yes { from {sender}} other {}} expires soon and is still waiting for you.",
  "recipientChanged.subject": "Please sign: {title}",
  "recipientChanged.lead":
    "Your details on this request were updated. You have been asked to sign <b>{title}</b>{hasSender, select, yes { by {sender}} other {}}.",
  "completed.subject": "Completed: {title}",
  "completed.lead": "Everyone has signed <b>{title}</b>.",
  "completed.attached":
    "The signed document is attached. Its last page is the certificate of completion, and it is sealed with a digital signature that shows any later change.",
  "completed.tooLarge":
    "The signed document is too large to attach; download it with the link below. Its last page is the certificate of completion.",
  "action.sign": "Review and sign",
  "action.download": "Download the signed document",
  "review.subject": "Please review: {title}",
  "review.reminderSubject": "Reminder: please review {title}",
  "review.lead":
    "You have been asked to review <b>{title}</b>{hasSender, select, yes { by {sender}} other {}}. Opening the documents is all you need to do.",
  "review.reminderLead":
    "A reminder: you have been asked to review <b>{title}</b>{hasSender, select, yes { by {sender}} other {}}.",
  "action.review": "Review the documents",
  "approve.subject": "Please approve: {title}",
  "approve.reminderSubject": "Reminder: please approve {title}",
  "approve.lead":
    "You have been asked to approve <b>{title}</b>{hasSender, select, yes { by {sender}} other {}}. You sign nothing: approve or decline.",
  "approve.reminderLead":
    "A reminder: you have been asked to approve <b>{title}</b>{hasSender, select, yes { by {sender}} other {}}.",
  "action.approve": "Review and approve",
  senderMessage: "Message from the sender:",
  reminderNote: "Note with this reminder:",
  orOpen: "Or open this address:",
  expires: "The request expires on {date}.",
  personal: "This link is personal: anyone with it can sign in your name, so do not forward this e-mail.",
  personalView:
    "This link is personal: anyone with it can open the documents as you, so do not forward this e-mail.",
  signOff: "— Countersign",
  sentBy: "Sent by Countersign",
  "code.subject": "{code} is your code for {title}",
  "code.lead": "Your code to open <b>{title}</b>{hasSender, select, yes { from {sender}} other {}} is:",
  "code.works": "It works for 10 minutes, in the window where you asked for it.",
  "code.stranger":
    "If you did not ask for a code, someone may have your signing link: do not share this code, and tell the sender.",
} as const;

export type MessageId = keyof typeof en;

/** A translation: every id of the English catalogue, none other. */
export type Catalogue = Record<MessageId, string>;
