/**
 * Text from outside (a name, a title, an address) set apart from the sentence around it, so that
 * neither reorders the other: an English title in an Arabic sentence keeps its full stop where it
 * belongs. Unicode's first-strong isolate and pop directional isolate, for where an element
 * (<bdi>) cannot go: plain-text e-mails, subjects, a dialog's or the document's title.
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
