/** The shapes the console reads, as the gateway's OpenAPI document describes them. */
import type { PageSize } from "../shared/PageView";

export type Role = "org_admin" | "member";

export interface Workspace {
  id: string;
  name: string;
  apiAccessEnabled: boolean;
  role: Role;
}

export interface Session {
  user: { id: string; email: string };
  workspaces: Workspace[];
  /** Sent in X-CSRF-Token on state-changing calls. */
  csrfToken: string;
}

export interface Page<T> {
  items: T[];
  pageIndex: number;
  pageSize: number;
  totalCount: number;
}

export interface ApiKey {
  id: string;
  name: string;
  createdAt: string;
}

export interface CreatedApiKey extends ApiKey {
  secret: string;
  accountId: string;
}

export interface Configuration {
  accountId: string;
  baseUrls: { accountScoped: string; resourceStyle: string; compatibility: string; tools: string };
}

export interface RecentError {
  timestamp: string;
  source: "api" | "sealing" | "email";
  method: string;
  path: string;
  status: number;
  code: string;
  detail: string;
  requestId: string;
}

export interface UsageFigures {
  calls: number;
  errors: number;
  errorRate: number;
  p50Ms: number;
  p95Ms: number;
}

export interface ApiUsage {
  from: string;
  to: string;
  total: UsageFigures;
  days: (UsageFigures & { day: string })[];
  routes: (UsageFigures & { method: string; route: string })[];
}

export const EVENT_TYPES = [
  "signature_request.sent",
  "signature_request.viewed",
  "signature_request.signed",
  "signature_request.completed",
  "signature_request.declined",
  "signature_request.cancelled",
  "signature_request.expired",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  eventTypes: EventType[];
  disabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookAttempt {
  id: string;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  error: string | null;
  succeeded: boolean;
  trigger: "delivery" | "retry" | "replay" | "test";
}

export interface WebhookMessage {
  id: string;
  eventId: string;
  eventType: EventType;
  status: "pending" | "succeeded" | "failed";
  attemptCount: number;
  createdAt: string;
  nextAttemptAt: string | null;
  payload: Record<string, unknown>;
  attempts: WebhookAttempt[];
}

export interface TestFireResult {
  messageId: string;
  payload: Record<string, unknown>;
  attempt: WebhookAttempt;
}

export type RequestStatus =
  | "draft"
  | "sent"
  | "in_progress"
  | "completed"
  | "cancelled"
  | "declined"
  | "expired";

export interface Recipient {
  id: string;
  name: string;
  email: string;
  role: string | null;
  kind: "signer" | "cc";
  routingOrder: number;
  status: "pending" | "sent" | "viewed" | "signed" | "declined";
  /** Set for a signer who signs embedded in the sender's app: no e-mails, so no reminders. */
  clientUserId: string | null;
  viewedAt: string | null;
  signedAt: string | null;
  declinedAt: string | null;
  declineReason: string | null;
  /** The last e-mail queued for the recipient; null when none was. */
  emailDelivery: EmailDelivery | null;
}

export interface EmailDelivery {
  status: "queued" | "retrying" | "sent" | "failed" | "not_sent";
  email: "invitation" | "resend" | "reminder" | "recipient_changed" | "completed";
  attempts: number;
  error: string | null;
  queuedAt: string;
  doneAt: string | null;
  nextAttemptAt: string | null;
}

export interface TestEmailResult {
  sent: boolean;
  transport: "smtp" | "outbox";
  server: string;
  detail: string;
  durationMs: number;
}

export interface SignatureRequest {
  id: string;
  title: string;
  message: string;
  status: RequestStatus;
  templateId: string | null;
  documentIds: string[];
  recipients: Recipient[];
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  completedAt: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
  signedDocumentId: string | null;
  /** Every signer signed but sealing failed at its last attempt: resend tries again, or cancel. */
  completionFailure: { reason: string; attempts: number; failedAt: string } | null;
  sender: { name: string; email: string | null };
}

export interface AuditEntry {
  sequence: number;
  at: string;
  action: string;
  actor: { type: string; id: string | null; name: string | null; email: string | null };
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
}

export interface DocumentInfo {
  id: string;
  filename: string;
  pageCount: number;
  /** Each page's visible size in PDF points, for placing fields. */
  pages: PageSize[];
}

export interface TemplateRole {
  name: string;
  order: number;
}

export interface TemplateField {
  id: string;
  type: string;
  role: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string;
}

export interface Template {
  id: string;
  name: string;
  description: string;
  documentId: string;
  roles: TemplateRole[];
  fields: TemplateField[];
  createdAt: string;
  updatedAt: string;
}
