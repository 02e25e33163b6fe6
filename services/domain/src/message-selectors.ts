/**
 * The values an ICU message chooses its words by (`{hasSender, select, yes {…} other {…}}`): keys,
 * not text. The e-mails and the signing page set every other text value apart from the sentence's
 * direction; a key wrapped so would match no branch but `other`.
 */

/** An element of a parsed message, as far as finding its selects needs (intl-messageformat's AST). */
export interface MessageElement {
  type: number;
  value?: string;
  options?: Record<string, { value: MessageElement[] }>;
  children?: MessageElement[];
}

/** @formatjs/icu-messageformat-parser's TYPE.select. */
const SELECT = 5;

export function selectorsOf(elements: readonly MessageElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === SELECT && element.value) into.add(element.value);
    for (const option of Object.values(element.options ?? {})) selectorsOf(option.value, into);
    if (element.children) selectorsOf(element.children, into);
  }
  return into;
}
