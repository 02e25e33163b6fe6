/**
 * The languages a signer meets Countersign in — the signing page, its link pages and the request's
 * e-mails — and how a date signed is written in them. The web apps read this list too, through the
 * domain's browser entry (web.ts).
 */
export const SIGNER_LOCALES = ["en", "de", "fr", "es", "pt-BR", "it", "nl", "pl", "ja", "ar"] as const;

export type SignerLocale = (typeof SIGNER_LOCALES)[number];

export const DEFAULT_SIGNER_LOCALE: SignerLocale = "en";

export function isSignerLocale(value: string): value is SignerLocale {
  return (SIGNER_LOCALES as readonly string[]).includes(value);
}

/** Each language named in itself: the signing page's switcher and the console's choice for a recipient list them. */
export const SIGNER_LOCALE_NAMES: Readonly<Record<SignerLocale, string>> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  "pt-BR": "Português (Brasil)",
  it: "Italiano",
  nl: "Nederlands",
  pl: "Polski",
  ja: "日本語",
  ar: "العربية",
};

/** A language's name in itself ("Deutsch"); the code where it is not one Countersign speaks. */
export function localeName(code: string): string {
  return isSignerLocale(code) ? SIGNER_LOCALE_NAMES[code] : code;
}

/** The direction a language is written in. */
export function localeDirection(locale: SignerLocale): "rtl" | "ltr" {
  return locale === "ar" ? "rtl" : "ltr";
}

/**
 * The supported locale a client meant by a BCP 47 tag, matched without regard to case and with `_`
 * taken for `-` (DocuSign writes `pt_BR`): "pt-br" and "pt_BR" are pt-BR, "de-AT" is de. Undefined
 * when the language is not one Countersign speaks.
 */
export function signerLocaleOf(tag: string): SignerLocale | undefined {
  const wanted = tag.trim().replaceAll("_", "-").toLowerCase();
  if (!wanted) return undefined;
  const exact = SIGNER_LOCALES.find((l) => l.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split("-")[0];
  return SIGNER_LOCALES.find((l) => l.toLowerCase().split("-")[0] === language);
}

/** The first of `preferences` (BCP 47 tags, best first, as a browser sends them) Countersign speaks. */
export function pickSignerLocale(
  preferences: readonly (string | null | undefined)[],
): SignerLocale | undefined {
  for (const tag of preferences) {
    const locale = tag ? signerLocaleOf(tag) : undefined;
    if (locale) return locale;
  }
  return undefined;
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A date signed as the signer's page shows it (the sealed PDF writes the day, YYYY-MM-DD): the day in
 * the signer's time zone, in their language's medium form ("27 Nov 2026", "27.11.2026", "2026年11月27日"). Without a
 * locale, the ISO date in UTC, as API clients have always had it.
 */
export function dateSignedText(at: Date, locale?: SignerLocale, timeZone?: string): string {
  if (!locale) return at.toISOString().slice(0, 10);
  return new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: timeZone && isTimeZone(timeZone) ? timeZone : "UTC",
  }).format(at);
}

/**
 * The day of the calendar (YYYY-MM-DD) `at` falls on in `timeZone`, UTC when none or one this
 * runtime does not know: the day a date signed stands for, kept apart from how a page wrote it.
 */
export function dayOf(at: Date, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat("en", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    timeZone: timeZone && isTimeZone(timeZone) ? timeZone : "UTC",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** A day as a date field takes it; whether it is a day of the calendar is checked apart. */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a day of the calendar from the year 1000 on, written YYYY-MM-DD. */
export function isDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const at = new Date(Date.UTC(year, month - 1, day));
  return year >= 1000 && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
}

/**
 * A day a signer picked (YYYY-MM-DD) as the page shows it: in the form of a date signed, but a day
 * of the calendar, in no time zone.
 */
export function dayText(day: string, locale?: SignerLocale): string {
  return dateSignedText(new Date(`${day}T00:00:00Z`), locale, "UTC");
}
