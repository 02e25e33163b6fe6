/**
 * `@countersign/embed`: Countersign inside your own app. Importing it defines
 * `<countersign-signing>`; the React wrapper is `@countersign/embed/react`.
 */
import { CountersignSigningElement } from "./signing-element.js";

export * from "./protocol.js";
export * from "./signing-element.js";

/** Defines the element once, under its name, in a browser; a second copy of the package defines nothing. */
export function defineCountersignElements(): void {
  if (typeof customElements === "undefined" || customElements.get("countersign-signing")) return;
  customElements.define("countersign-signing", CountersignSigningElement);
}

defineCountersignElements();
