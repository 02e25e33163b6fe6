/**
 * The words a signer meets — the signing page, the link pages, the e-mails, why a link ended — exist in every
 * language Countersign offers: every message of the English catalogue is in each translation, none
 * more, each one valid ICU MessageFormat taking the same values and markup as the English, with a
 * form for every plural category the language uses for whole numbers. And the page and the service
 * list the same languages.
 */
import { ENDED_WORDS, SIGNER_LOCALES } from "@countersign/domain";
import { IntlMessageFormat } from "intl-messageformat";
import { LINK_PAGE_CATALOGUES } from "../gateway/src/signing/link-pages.js";
import { CATALOGUES as MAIL_CATALOGUES } from "../services/requests/src/notices/mail/mail-words.js";
import { signingPageWords } from "./support/web-catalogues.js";

type Catalogue = Record<string, string>;

/** An element of a parsed message, as intl-messageformat's parser gives it. */
interface Element {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}

// The parser's element types (@formatjs/icu-messageformat-parser TYPE).
const ARGUMENT = 1;
const NUMBER = 2;
const SELECT = 5;
const PLURAL = 6;
const TAG = 8;

/** What a message takes and how: `name:kind` for each value, `<tag>` for each markup. */
function shapeOf(elements: Element[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TAG) into.add(`<${element.value}>`);
    else if (element.type === PLURAL) into.add(`${element.value}:number`);
    else if (element.type === SELECT) into.add(`${element.value}:select`);
    else if (element.type === NUMBER) into.add(`${element.value}:number`);
    else if (element.type === ARGUMENT) into.add(`${element.value}:text`);
    for (const option of Object.values(element.options ?? {})) shapeOf(option.value, into);
    if (element.children) shapeOf(element.children, into);
  }
  return into;
}

function pluralsOf(elements: Element[], into: Element[] = []): Element[] {
  for (const element of elements) {
    if (element.type === PLURAL) into.push(element);
    for (const option of Object.values(element.options ?? {})) pluralsOf(option.value, into);
    if (element.children) pluralsOf(element.children, into);
  }
  return into;
}

/** The plural categories a language gives whole numbers up to 200 (French's "many" is for millions). */
function wholeNumberCategories(locale: string): Set<string> {
  const rules = new Intl.PluralRules(locale);
  return new Set(Array.from({ length: 201 }, (_, n) => rules.select(n)));
}

/** Values for every argument of a message, to format it with. */
function sampleValues(shape: Set<string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const entry of shape) {
    if (entry.startsWith("<")) values[entry.slice(1, -1)] = (chunks: string[]) => chunks.join("");
    else {
      const [name, kind] = entry.split(":") as [string, string];
      values[name] = kind === "number" ? 3 : kind === "select" ? "other" : "x";
    }
  }
  return values;
}

function problemsOf(english: Catalogue, translation: Catalogue, locale: string): string[] {
  const problems: string[] = [];
  const ids = Object.keys(english);
  for (const id of ids) if (!(id in translation)) problems.push(`${id}: missing`);
  for (const id of Object.keys(translation)) if (!(id in english)) problems.push(`${id}: not in English`);
  const categories = wholeNumberCategories(locale);
  for (const id of ids) {
    const message = translation[id];
    if (message === undefined) continue;
    let format: IntlMessageFormat;
    try {
      format = new IntlMessageFormat(message, locale);
    } catch (error) {
      problems.push(`${id}: not ICU MessageFormat (${(error as Error).message})`);
      continue;
    }
    const want = shapeOf(new IntlMessageFormat(english[id] as string, "en").getAst() as Element[]);
    const got = shapeOf(format.getAst() as Element[]);
    if ([...want].sort().join() !== [...got].sort().join())
      problems.push(`${id}: takes ${[...got].sort().join(", ")}, English ${[...want].sort().join(", ")}`);
    for (const plural of pluralsOf(format.getAst() as Element[])) {
      const forms = Object.keys(plural.options ?? {});
      const lacking = [...categories, "other"].filter((c) => !forms.includes(c));
      if (lacking.length > 0) problems.push(`${id}: no plural form for ${lacking.join(", ")}`);
    }
    try {
      format.format(sampleValues(got) as Record<string, string>);
    } catch (error) {
      problems.push(`${id}: does not format (${(error as Error).message})`);
    }
  }
  return problems;
}

// The page offers the domain's list of languages (its switcher reads SIGNER_LOCALES): each has words.
const pageCatalogues = Object.fromEntries(
  await Promise.all(SIGNER_LOCALES.map(async (code) => [code, await signingPageWords(code)])),
) as Record<string, Catalogue>;

const SETS: [string, Record<string, Catalogue>][] = [
  ["signing page", pageCatalogues],
  ["link pages", LINK_PAGE_CATALOGUES],
  ["e-mails", MAIL_CATALOGUES],
  ["reasons a link ended", ENDED_WORDS],
];

test("each set of words has every language the service speaks, and no other", () => {
  for (const [, catalogues] of SETS)
    expect(Object.keys(catalogues).sort()).toEqual([...SIGNER_LOCALES].sort());
});

describe.each(SETS)("the %s", (_name, catalogues) => {
  const english = catalogues.en as Catalogue;

  test.each(SIGNER_LOCALES.filter((l) => l !== "en"))(
    "in %s: every message, valid, with the English one's values and markup and every plural form",
    (locale) => {
      expect(problemsOf(english, catalogues[locale] as Catalogue, locale)).toEqual([]);
    },
  );

  test("in English: every message is valid and formats", () => {
    expect(problemsOf(english, english, "en")).toEqual([]);
  });

  test("a translation is not the English left in place, beyond names and numbers", () => {
    for (const locale of SIGNER_LOCALES.filter((l) => l !== "en")) {
      const same = Object.entries(english).filter(
        ([id, text]) =>
          /[a-z]{4,}/i.test(text.replace(/\{[^}]*\}|Countersign/g, "")) && catalogues[locale]?.[id] === text,
      );
      // Some words are the same in some languages (French "page", "Signature"): one in twenty may be.
      const allowed = Object.keys(english).length / 20;
      expect({ locale, same: same.length > allowed ? same.map(([id]) => id) : [] }).toEqual({
        locale,
        same: [],
      });
    }
  });
});
