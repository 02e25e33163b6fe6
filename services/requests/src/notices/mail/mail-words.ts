/**
 * The words of a recipient's e-mails in their language: catalogues in ICU MessageFormat, formatted
 * with intl-messageformat. A title (<b>…</b> in a message) is set in bold in HTML and in quotes in
 * text; every value is escaped in HTML, the catalogue's own words too, and set apart from the
 * sentence's direction (<bdi> in HTML, Unicode's isolates in text), so an English title in an Arabic
 * sentence, or an Arabic name in an English one, neither reorders the other.
 */

import {
  DEFAULT_SIGNER_LOCALE,
  type MessageElement,
  type SignerLocale,
  selectorsOf,
} from "@countersign/domain";
import escapeHtml from "escape-html";
import { IntlMessageFormat } from "intl-messageformat";
import { ar } from "./messages/ar.js";
import { de } from "./messages/de.js";
import { type Catalogue, en, type MessageId } from "./messages/en.js";
import { es } from "./messages/es.js";
import { fr } from "./messages/fr.js";
import { it } from "./messages/it.js";
import { ja } from "./messages/ja.js";
import { nl } from "./messages/nl.js";
import { pl } from "./messages/pl.js";
import { ptBR } from "./messages/pt-BR.js";

export const CATALOGUES: Record<SignerLocale, Catalogue> = {
  en,
  de,
  fr,
  es,
  "pt-BR": ptBR,
  it,
  nl,
  pl,
  ja,
  ar,
};

type Values = Record<string, string | number>;

// Where a title, and each value, begins and ends while a message is formatted, before it is escaped:
// characters of Unicode's private use area, taken out of every value first so no value can forge one.
const OPEN = "\uE000";
const CLOSE = "\uE001";
const VALUE_OPEN = "\uE002";
const VALUE_CLOSE = "\uE003";
const MARKS = /[\uE000-\uE003]/g;

/** Unicode's first-strong isolate and pop directional isolate: a value's own direction, in plain text. */
export const FSI = "\u2068";
export const PDI = "\u2069";
/** The longest subject line sent. */
export const SUBJECT_LENGTH = 250;

/** Each message parsed once per language: every e-mail of the process formats the same few. */
const FORMATS = new Map<string, { format: IntlMessageFormat; selectors: Set<string> }>();

function formatOf(
  locale: SignerLocale,
  id: MessageId,
): { format: IntlMessageFormat; selectors: Set<string> } {
  const key = `${locale} ${id}`;
  let parsed = FORMATS.get(key);
  if (!parsed) {
    const format = new IntlMessageFormat(CATALOGUES[locale][id], locale);
    parsed = { format, selectors: selectorsOf(format.getAst() as MessageElement[]) };
    FORMATS.set(key, parsed);
  }
  return parsed;
}

export class MailWords {
  readonly locale: SignerLocale;

  constructor(locale: SignerLocale | "" = DEFAULT_SIGNER_LOCALE) {
    this.locale = locale || DEFAULT_SIGNER_LOCALE;
  }

  /** Right to left (Arabic) or left to right, for the HTML part's `dir`. */
  get direction(): "rtl" | "ltr" {
    return this.locale === "ar" ? "rtl" : "ltr";
  }

  /** The message as plain text: a title in quotes, each value isolated. */
  text(id: MessageId, values: Values = {}): string {
    return this.marked(id, values)
      .replaceAll(OPEN, '"')
      .replaceAll(CLOSE, '"')
      .replaceAll(VALUE_OPEN, FSI)
      .replaceAll(VALUE_CLOSE, PDI);
  }

  /**
   * The message as a subject line of at most `maxLength` characters: a title in quotes, each value
   * isolated as in the text, for a name or title in another direction would otherwise reorder the
   * words around it. A subject is cut to length: the cut falls before an isolate's end only with
   * room kept to close it, so none is ever left open.
   */
  subject(id: MessageId, values: Values = {}, maxLength = SUBJECT_LENGTH): string {
    const marked = this.marked(id, values).replaceAll(OPEN, '"').replaceAll(CLOSE, '"');
    let line = "";
    let open = false;
    for (const char of marked) {
      if (char === VALUE_CLOSE) {
        // Its room was kept when the isolate opened.
        line += PDI;
        open = false;
        continue;
      }
      const next = char === VALUE_OPEN ? FSI : char;
      const closing = open || char === VALUE_OPEN ? PDI.length : 0;
      if (line.length + next.length + closing > maxLength) break;
      line += next;
      if (char === VALUE_OPEN) open = true;
    }
    return open ? `${line}${PDI}` : line;
  }

  /** The message as HTML: escaped, a title in bold, each value in <bdi>. */
  html(id: MessageId, values: Values = {}): string {
    return escapeHtml(this.marked(id, values))
      .replaceAll(OPEN, "<strong>")
      .replaceAll(CLOSE, "</strong>")
      .replaceAll(VALUE_OPEN, "<bdi>")
      .replaceAll(VALUE_CLOSE, "</bdi>");
  }

  /** A date and time as the recipient's language writes them, in UTC (said so). */
  dateTime(at: Date): string {
    return new Intl.DateTimeFormat(this.locale, {
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "UTC",
      timeZoneName: "short",
    }).format(at);
  }

  private marked(id: MessageId, values: Values): string {
    const { format, selectors } = formatOf(this.locale, id);
    const clean = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [
        k,
        typeof v !== "string"
          ? v
          : selectors.has(k)
            ? v
            : `${VALUE_OPEN}${v.replace(MARKS, "")}${VALUE_CLOSE}`,
      ]),
    );
    const out = format.format<string>({
      ...clean,
      b: (chunks: string[]) => `${OPEN}${chunks.join("")}${CLOSE}`,
    });
    return Array.isArray(out) ? out.join("") : String(out);
  }
}
