/**
 * The package's elements for React — `<CountersignSigning>`, `<CountersignSender>`,
 * `<CountersignTemplateEditor>` — their events as callback props. The latest callbacks are called;
 * changing one does not reload the frame.
 */
import { type CSSProperties, createElement, useEffect, useRef } from "react";
import { defineCountersignElements } from "./index.js";
import type { SigningFrameEventType, ViewFrameEventType } from "./protocol.js";
import { SIGNING_EVENT_NAMES, type SigningEventDetail } from "./signing-element.js";
import { VIEW_EVENT_NAMES, type ViewEventDetail } from "./view-elements.js";

/** The callback prop of each signing event type. */
const SIGNING_CALLBACKS = {
  ready: "onReady",
  field_changed: "onFieldChanged",
  completed: "onCompleted",
  declined: "onDeclined",
  reassigned: "onReassigned",
  session_expired: "onSessionExpired",
  error: "onError",
} as const satisfies Record<SigningFrameEventType, string>;

/** The callback prop of each view event type. */
const VIEW_CALLBACKS = {
  ready: "onReady",
  sent: "onSent",
  saved: "onSaved",
  session_expired: "onSessionExpired",
} as const satisfies Record<ViewFrameEventType, string>;

type SigningCallbacks = {
  [Type in SigningFrameEventType as (typeof SIGNING_CALLBACKS)[Type]]?: (
    event: SigningEventDetail<Type>,
  ) => void;
};

type ViewCallbacks = {
  [Type in ViewFrameEventType as (typeof VIEW_CALLBACKS)[Type]]?: (event: ViewEventDetail<Type>) => void;
};

interface FrameProps {
  /** The URL to show, made for this page's origin (`frameOrigin`). */
  url: string;
  /** The frame's accessible name. */
  title?: string;
  className?: string;
  /** The element is 720 px high unless given another height. */
  style?: CSSProperties;
}

export interface CountersignSigningProps extends SigningCallbacks, FrameProps {}
export interface CountersignSenderProps extends ViewCallbacks, FrameProps {}
export interface CountersignTemplateEditorProps extends ViewCallbacks, FrameProps {}

/** One of the elements, each of its events handed to the callback prop its type names. */
function useFrameElement(
  tag: string,
  names: readonly string[],
  callbackOf: Record<string, string>,
  { url, title, className, style, ...callbacks }: FrameProps & Record<string, unknown>,
) {
  const element = useRef<HTMLElement>(null);
  const latest = useRef(callbacks);
  latest.current = callbacks;
  useEffect(() => {
    defineCountersignElements();
    const target = element.current;
    if (!target) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<{ type: string }>).detail;
      const call = latest.current[callbackOf[detail.type] ?? ""] as ((event: unknown) => void) | undefined;
      call?.(detail);
    };
    for (const name of names) target.addEventListener(name, listener);
    return () => {
      for (const name of names) target.removeEventListener(name, listener);
    };
  }, [names, callbackOf]);
  return createElement(tag, { ref: element, url, title, className, style });
}

export function CountersignSigning(props: CountersignSigningProps) {
  return useFrameElement("countersign-signing", SIGNING_EVENT_NAMES, SIGNING_CALLBACKS, { ...props });
}

export function CountersignSender(props: CountersignSenderProps) {
  return useFrameElement("countersign-sender", VIEW_EVENT_NAMES, VIEW_CALLBACKS, { ...props });
}

export function CountersignTemplateEditor(props: CountersignTemplateEditorProps) {
  return useFrameElement("countersign-template-editor", VIEW_EVENT_NAMES, VIEW_CALLBACKS, { ...props });
}

export type {
  SigningFrameEvent,
  SigningFrameEventType,
  ViewFrameEvent,
  ViewFrameEventType,
} from "./protocol.js";
