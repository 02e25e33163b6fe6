/**
 * The languages a signer can have Countersign in — the signing page and their e-mails — each named
 * in itself: the signing page's switcher and the console's choice for a recipient both list them.
 * The service's list (signer-locales.ts in services/domain) is the same; a test holds them equal.
 */
export const LOCALES = [
  { code: "en", name: "English" },
  { code: "de", name: "Deutsch" },
  { code: "fr", name: "Français" },
  { code: "es", name: "Español" },
  { code: "pt-BR", name: "Português (Brasil)" },
  { code: "it", name: "Italiano" },
  { code: "nl", name: "Nederlands" },
  { code: "pl", name: "Polski" },
  { code: "ja", name: "日本語" },
  { code: "ar", name: "العربية" },
] as const;

export type Locale = (typeof LOCALES)[number]["code"];

export const DEFAULT_LOCALE: Locale = "en";

/** The first of `preferences` (BCP 47 tags, best first) Countersign speaks: exactly, else by language. */
export function pickLocale(preferences: readonly (string | null | undefined)[]): Locale | undefined {
  for (const tag of preferences) {
    if (!tag) continue;
    const wanted = tag.replaceAll("_", "-").toLowerCase();
    const exact = LOCALES.find((l) => l.code.toLowerCase() === wanted);
    if (exact) return exact.code;
    const language = wanted.split("-")[0];
    const near = LOCALES.find((l) => l.code.toLowerCase().split("-")[0] === language);
    if (near) return near.code;
  }
  return undefined;
}

export function direction(locale: Locale): "rtl" | "ltr" {
  return locale === "ar" ? "rtl" : "ltr";
}

/** A language's name in itself ("Deutsch"); the code where it is not one of the list. */
export function localeName(code: string): string {
  return LOCALES.find((l) => l.code === code)?.name ?? code;
}
