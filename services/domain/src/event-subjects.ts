/**
 * Event subjects, relative to the bus namespace, with the countersign.events.v1 message each one
 * carries. Producers and consumers both name them from here.
 */
export const subjects = {
  /** countersign.events.v1.ApiKeyDeleted */
  apiKeyDeleted: "auth.api_key_deleted",
  /** countersign.events.v1.WorkspaceUpdated */
  workspaceUpdated: "auth.workspace_updated",
  /** countersign.events.v1.TemplateChanged */
  templateChanged: "templates.template_changed",
  /** countersign.events.v1.ApiCallsRecorded */
  apiCallsRecorded: "gateway.api_calls_recorded",
  /** countersign.events.v1.CompletionAttemptFailed */
  completionAttemptFailed: "requests.completion_attempt_failed",
  /** countersign.events.v1.EmailDeliveryFailed */
  emailDeliveryFailed: "requests.email_delivery_failed",
  /** countersign.events.v1.SealCertificateExpiring */
  sealCertificateExpiring: "requests.seal_certificate_expiring",
  /** countersign.events.v1.SignatureRequestEvent, every type */
  signatureRequestEvents: "requests.signature_request.*",
} as const;

/** The seven event types of a signature request, each published on a subject of its own. */
export const SIGNATURE_REQUEST_EVENT_TYPES = [
  "sent",
  "viewed",
  "signed",
  "completed",
  "declined",
  "cancelled",
  "expired",
] as const;
export type SignatureRequestEventType = (typeof SIGNATURE_REQUEST_EVENT_TYPES)[number];

/** countersign.events.v1.SignatureRequestEvent of one type */
export function signatureRequestSubject(type: SignatureRequestEventType): string {
  return `requests.signature_request.${type}`;
}
