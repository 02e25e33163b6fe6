/**
 * `@countersign/embed`: Countersign inside your own app. Importing it defines
 * `<countersign-signing>`, `<countersign-sender>` and `<countersign-template-editor>`; the React
 * wrappers are `@countersign/embed/react`.
 */
import { CountersignSigningElement } from "./signing-element.js";
import { CountersignSenderElement, CountersignTemplateEditorElement } from "./view-elements.js";

export * from "./protocol.js";
export * from "./signing-element.js";
export * from "./view-elements.js";

const ELEMENTS = {
  "countersign-signing": CountersignSigningElement,
  "countersign-sender": CountersignSenderElement,
  "countersign-template-editor": CountersignTemplateEditorElement,
} as const;

/** Defines the elements once, under their names, in a browser; a second copy of the package defines none again. */
export function defineCountersignElements(): void {
  if (typeof customElements === "undefined") return;
  for (const [name, element] of Object.entries(ELEMENTS)) {
    if (!customElements.get(name)) customElements.define(name, element);
  }
}

defineCountersignElements();
