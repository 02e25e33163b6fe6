/**
 * The words of the pages a signer meets when their link cannot open, in English: the catalogue
 * every other language translates (ICU MessageFormat).
 */
export const en = {
  brand: "Countersign",
  "tooMany.title": "Too many attempts",
  "tooMany.body":
    "Too many signing links were opened from your address. Wait {seconds, plural, one {# second} other {# seconds}} and open the link again.",
  "invalid.title": "This signing link is not valid",
  "invalid.body":
    "Check that you opened the whole address from the e-mail, or ask the sender to send it again.",
  "gone.title": "This link no longer works",
  "unavailable.title": "Signing is unavailable right now",
  "unavailable.body": "We could not open your document. Try the link again in a minute.",
} as const;

export type MessageId = keyof typeof en;

/** A translation: every id of the English catalogue, none other. */
export type Catalogue = Record<MessageId, string>;
