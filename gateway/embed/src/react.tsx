/**
 * `<CountersignSigning url onCompleted … />`: the `<countersign-signing>` element for React, its
 * events as callback props. The latest callbacks are called; changing one does not reload the frame.
 */
import { type CSSProperties, createElement, useEffect, useRef } from "react";
import { defineCountersignElements } from "./index.js";
import type { SigningFrameEvent, SigningFrameEventType } from "./protocol.js";
import {
  type CountersignSigningElement,
  SIGNING_EVENT_NAMES,
  type SigningEventDetail,
} from "./signing-element.js";

/** The callback prop of each event type. */
const CALLBACKS = {
  ready: "onReady",
  field_changed: "onFieldChanged",
  completed: "onCompleted",
  declined: "onDeclined",
  reassigned: "onReassigned",
  session_expired: "onSessionExpired",
  error: "onError",
} as const satisfies Record<SigningFrameEventType, string>;

type Callbacks = {
  [Type in SigningFrameEventType as (typeof CALLBACKS)[Type]]?: (event: SigningEventDetail<Type>) => void;
};

export interface CountersignSigningProps extends Callbacks {
  /** The embedded signing URL, made for this page's origin (`frameOrigin`). */
  url: string;
  /** The frame's accessible name ("Sign the document"). */
  title?: string;
  className?: string;
  /** The element is 720 px high unless given another height. */
  style?: CSSProperties;
}

export function CountersignSigning({ url, title, className, style, ...callbacks }: CountersignSigningProps) {
  const element = useRef<CountersignSigningElement>(null);
  const latest = useRef(callbacks);
  latest.current = callbacks;
  useEffect(() => {
    defineCountersignElements();
    const target = element.current;
    if (!target) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<SigningFrameEvent>).detail;
      const call = latest.current[CALLBACKS[detail.type]] as ((event: SigningFrameEvent) => void) | undefined;
      call?.(detail);
    };
    for (const name of SIGNING_EVENT_NAMES) target.addEventListener(name, listener);
    return () => {
      for (const name of SIGNING_EVENT_NAMES) target.removeEventListener(name, listener);
    };
  }, []);
  return createElement("countersign-signing", { ref: element, url, title, className, style });
}

export type { SigningFrameEvent, SigningFrameEventType } from "./protocol.js";
