/**
 * Which language a signer gets — the one they chose on the page, else the sender's choice for them,
 * else the first their browser asks for that the page speaks, else English — and its catalogue.
 */
import { pickSignerLocale, type SignerLocale } from "@countersign/domain/web";
import { type Catalogue, en, type MessageId } from "./messages/en";

/** Every language but English (in the page's script) is fetched when first wanted, each its own small script. */
const LOADERS: Record<Exclude<SignerLocale, "en">, () => Promise<Catalogue>> = {
  de: () => import("./messages/de").then((m) => m.de),
  fr: () => import("./messages/fr").then((m) => m.fr),
  es: () => import("./messages/es").then((m) => m.es),
  "pt-BR": () => import("./messages/pt-BR").then((m) => m.ptBR),
  it: () => import("./messages/it").then((m) => m.it),
  nl: () => import("./messages/nl").then((m) => m.nl),
  pl: () => import("./messages/pl").then((m) => m.pl),
  ja: () => import("./messages/ja").then((m) => m.ja),
  ar: () => import("./messages/ar").then((m) => m.ar),
};

export async function loadCatalogue(locale: SignerLocale): Promise<Catalogue> {
  return locale === "en" ? en : LOADERS[locale]();
}

const CHOICE_KEY = "countersign.signing.locale";

/** The language the signer picked on the page, in an earlier visit too; undefined when they never did. */
export function storedChoice(): SignerLocale | undefined {
  try {
    return pickSignerLocale([window.localStorage.getItem(CHOICE_KEY)]);
  } catch {
    return undefined;
  }
}

export function storeChoice(locale: SignerLocale): void {
  try {
    window.localStorage.setItem(CHOICE_KEY, locale);
  } catch {
    // Storage refused (a private window): the choice lasts as long as the page.
  }
}

const RIGHT_TO_LEFT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const LETTER = /\p{L}/u;

/** The direction of the first letter of `text` that has one (rule P2 of UAX #9); undefined with none. */
export function firstStrongDirection(text: string): "ltr" | "rtl" | undefined {
  for (const character of text) {
    if (RIGHT_TO_LEFT.test(character)) return "rtl";
    if (LETTER.test(character)) return "ltr";
  }
  return undefined;
}

/** Whether `text` holds letters of both directions ("Consulting offer — عرض استشاري"). */
export function mixesDirections(text: string): boolean {
  let ltr = false;
  let rtl = false;
  for (const character of text) {
    if (RIGHT_TO_LEFT.test(character)) rtl = true;
    else if (LETTER.test(character)) ltr = true;
  }
  return ltr && rtl;
}

/** A message of the catalogue in the page's language, with its values. */
export type Translate = (id: MessageId, values?: Record<string, string | number | Date>) => string;
