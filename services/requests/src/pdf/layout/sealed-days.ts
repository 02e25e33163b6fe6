/**
 * The one form every day filled in is written in on a sealed document and a signer's copy, whatever
 * language each signer's page showed it in: a contract reads one form, not "6. Dez. 2026" beside
 * "Dec 6, 2026". The form would be the sender's language, but nothing holds it — a request, a
 * template and a workspace have no locale, only each recipient does — so it is the form the service
 * writes without a locale: ISO 8601, year-month-day, as the certificate writes its own times. It
 * reads alike in every language the signing page speaks, left to right, with no month name in a
 * script a party may not read. The certificate of completion says so (`SEALED_DAYS.statement`).
 */
export const SEALED_DAYS = {
  /** A day (YYYY-MM-DD) as the sealed document writes it. */
  write: (day: string): string => day,
  /** What the certificate of completion says of the days the document holds. */
  statement:
    "written YYYY-MM-DD (ISO 8601) throughout the document, whatever language a signer's page showed " +
    "them in; a date signed is the day in the signer's time zone when they signed",
};
