/**
 * `<countersign-sender url="…">` and `<countersign-template-editor url="…">`: our sending flow and
 * our template editor in a frame (a sender view's URL, a template edit view's), and what they tell as
 * DOM events on the element — `countersign:ready`, `countersign:sent`, `countersign:saved`… each with
 * the event as its `detail`. Each element hears its own flow's messages alone.
 */
import { CountersignFrameElement, type Posted } from "./frame-element.js";
import {
  isViewFrameMessage,
  VIEW_FRAME_EVENT_TYPES,
  type ViewFrameEvent,
  type ViewFrameEventType,
  type ViewFrameMessage,
} from "./protocol.js";

/** The `detail` of a view element's event of a type: the event, and which flow told it. */
export type ViewEventDetail<Type extends ViewFrameEventType> = Extract<ViewFrameEvent, { type: Type }> & {
  view: ViewFrameMessage["view"];
};

export type ViewElementEventMap = {
  [Type in ViewFrameEventType as `countersign:${Type}`]: CustomEvent<ViewEventDetail<Type>>;
};

type ViewEvent = ViewFrameEvent & { view: ViewFrameMessage["view"] };

abstract class CountersignViewElement extends CountersignFrameElement<ViewEvent, ViewElementEventMap> {
  protected abstract readonly view: ViewFrameMessage["view"];

  protected accepts(data: unknown): data is Posted<ViewEvent> {
    return isViewFrameMessage(data) && data.view === this.view;
  }
}

/** A sender view: a draft to review and send, or a new request prepared and sent. */
export class CountersignSenderElement extends CountersignViewElement {
  protected readonly view = "sender";
  protected readonly defaultTitle = "Send for signature";
}

/** A template edit view: one template's documents, roles and fields. */
export class CountersignTemplateEditorElement extends CountersignViewElement {
  protected readonly view = "template_edit";
  protected readonly defaultTitle = "Edit the template";
}

/** The view elements' event names, one per event type. */
export const VIEW_EVENT_NAMES = VIEW_FRAME_EVENT_TYPES.map((type) => `countersign:${type}` as const);

declare global {
  interface HTMLElementTagNameMap {
    "countersign-sender": CountersignSenderElement;
    "countersign-template-editor": CountersignTemplateEditorElement;
  }
}
