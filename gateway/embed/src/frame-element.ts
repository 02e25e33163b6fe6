/**
 * What every element of the package is: a page of ours in a frame (`url`, made for this page's
 * origin), and what that page tells, dispatched as DOM events on the element — `countersign:` and the
 * message's type, with the message as its `detail`. Messages are taken only from that frame, at the
 * URL's own origin, and only of the kind the element shows.
 */
import type { FRAME_MESSAGE_SOURCE } from "./protocol.js";

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

/** A message of ours, as posted: the source mark beside the event. */
export type Posted<Event extends { type: string }> = Event & { source: typeof FRAME_MESSAGE_SOURCE };

/**
 * `Event` is what the frame posts, `EventMap` the element's DOM events by name (`countersign:ready`…),
 * which types a listener's `event.detail`.
 */
export abstract class CountersignFrameElement<
  Event extends { type: string },
  EventMap extends Record<string, CustomEvent>,
> extends Base {
  static readonly observedAttributes = ["url", "title"];

  readonly #frame: HTMLIFrameElement;
  #origin = "";

  /** The frame's accessible name when the page gives none. */
  protected abstract readonly defaultTitle: string;
  /** Whether a message's data is of the kind this element shows (its origin is checked already). */
  protected abstract accepts(data: unknown): data is Posted<Event>;

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    style.textContent = STYLE;
    this.#frame = document.createElement("iframe");
    this.#frame.referrerPolicy = "no-referrer";
    root.append(style, this.#frame);
  }

  /** The URL to show, made for this page's origin (`frameOrigin`). */
  get url(): string {
    return this.getAttribute("url") ?? "";
  }

  set url(value: string) {
    this.setAttribute("url", value);
  }

  connectedCallback(): void {
    if (!this.#frame.title) this.#frame.title = this.defaultTitle;
    window.addEventListener("message", this.#onMessage);
  }

  disconnectedCallback(): void {
    window.removeEventListener("message", this.#onMessage);
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    // The URL opens once: set again to the same, it must not load the frame again.
    if (old === value) return;
    if (name === "title") {
      this.#frame.title = value || this.defaultTitle;
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
    if (!this.accepts(event.data)) return;
    const { source: _, ...detail } = event.data;
    this.dispatchEvent(
      new CustomEvent(`countersign:${detail.type}`, { detail, bubbles: true, composed: true }),
    );
  };

  override addEventListener<Name extends keyof EventMap & string>(
    type: Name,
    listener: (this: this, event: EventMap[Name]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | ((this: this, event: never) => unknown),
    options?: boolean | AddEventListenerOptions,
  ): void {
    super.addEventListener(type, listener as EventListenerOrEventListenerObject, options);
  }
}
