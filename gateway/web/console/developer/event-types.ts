/** What each webhook event tells an endpoint, in a sentence; every event type has one. */
import type { EventType } from "../types";

export const EVENT_DESCRIPTIONS: Readonly<Record<EventType, string>> = {
  "signature_request.sent": "A request was sent, and its first signers were asked to sign.",
  "signature_request.viewed": "A signer opened the request.",
  "signature_request.signed": "A signer signed; others may still have to.",
  "signature_request.completed": "Everyone signed, and the sealed PDF is ready to download.",
  "signature_request.declined": "A signer declined to sign, which ended the request.",
  "signature_request.cancelled": "The sender cancelled the request.",
  "signature_request.expired": "The request expired before everyone signed.",
};
