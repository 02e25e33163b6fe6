/**
 * `<countersign-signing url="…">`: the signing page of an embedded signing URL in a frame, and what
 * it tells as DOM events on the element — `countersign:ready`, `countersign:completed`… each with the
 * event as its `detail`.
 */
import { CountersignFrameElement, type Posted } from "./frame-element.js";
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

export class CountersignSigningElement extends CountersignFrameElement<
  SigningFrameEvent,
  SigningElementEventMap
> {
  protected readonly defaultTitle = "Sign the document";

  protected accepts(data: unknown): data is Posted<SigningFrameEvent> {
    return isSigningFrameMessage(data);
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
