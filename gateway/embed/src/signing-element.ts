/**
 * `<countersign-signing url="…">`: the signing page of an embedded signing URL in a frame, and what
 * it tells as DOM events on the element — `countersign:ready`, `countersign:completed`… each with the
 * event as its `detail`. Messages are taken only from that frame, at the URL's own origin.
 */
import {
  isSigningFrameMessage,
  SIGNING_FRAME_EVENT_TYPES,
  type SigningFrameEvent,
  type SigningFrameEventType,
} from "./protocol.js";

/** The element's events: `countersign:` and the event's type. */
export type SigningEventName = `countersign:${SigningFrameEventType}`;

/** The `detail` of the element's event of a type. */
export type SigningEventDetail<Type extends SigningFrameEventType> = Extract<
  SigningFrameEvent,
  { type: Type }
>;

export type SigningElementEventMap = {
  [Type in SigningFrameEventType as `countersign:${Type}`]: CustomEvent<SigningEventDetail<Type>>;
};

const STYLE = `
  :host { display: block; height: 720px; }
  :host([hidden]) { display: none; }
  iframe { display: block; width: 100%; height: 100%; border: 0; }
`;

/**
 * A base a server can load this module on: there is no HTMLElement outside a browser, and defining
 * the element waits for one.
 */
const Base: typeof HTMLElement =
  typeof HTMLElement === "undefined" ? (class {} as unknown as typeof HTMLElement) : HTMLElement;

export class CountersignSigningElement extends Base {
  static readonly observedAttributes = ["url", "title"];

  readonly #frame: HTMLIFrameElement;
  #origin = "";

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    style.textContent = STYLE;
    this.#frame = document.createElement("iframe");
    this.#frame.referrerPolicy = "no-referrer";
    this.#frame.title = "Sign the document";
    root.append(style, this.#frame);
  }

  /** The embedded signing URL, made for this page's origin (`frameOrigin`). */
  get url(): string {
    return this.getAttribute("url") ?? "";
  }

  set url(value: string) {
    this.setAttribute("url", value);
  }

  connectedCallback(): void {
    window.addEventListener("message", this.#onMessage);
  }

  disconnectedCallback(): void {
    window.removeEventListener("message", this.#onMessage);
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    // The URL opens once: set again to the same, it must not load the frame again.
    if (old === value) return;
    if (name === "title") {
      this.#frame.title = value || "Sign the document";
      return;
    }
    let origin = "";
    try {
      origin = value ? new URL(value, document.baseURI).origin : "";
    } catch {
      // Not a URL: the frame stays empty, and no message is taken.
    }
    this.#origin = origin;
    if (origin) this.#frame.src = value as string;
    else this.#frame.removeAttribute("src");
  }

  readonly #onMessage = (event: MessageEvent): void => {
    // Only our frame, at the URL's origin: another frame, or a page it was navigated to, is not heard.
    if (event.source !== this.#frame.contentWindow || event.origin !== this.#origin) return;
    if (!isSigningFrameMessage(event.data)) return;
    const { source: _, ...detail } = event.data;
    this.dispatchEvent(
      new CustomEvent(`countersign:${detail.type}`, { detail, bubbles: true, composed: true }),
    );
  };

  override addEventListener<Name extends keyof SigningElementEventMap>(
    type: Name,
    listener: (this: CountersignSigningElement, event: SigningElementEventMap[Name]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void {
    super.addEventListener(type, listener, options);
  }
}

/** The element's event names, one per event type. */
export const SIGNING_EVENT_NAMES = SIGNING_FRAME_EVENT_TYPES.map(
  (type) => `countersign:${type}` as SigningEventName,
);

declare global {
  interface HTMLElementTagNameMap {
    "countersign-signing": CountersignSigningElement;
  }
}
