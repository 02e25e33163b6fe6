/**
 * The shapes the console reads, by the names the pages use: each one the gateway's OpenAPI document
 * declares (shared/api-schema.ts, generated from it by `npm run generate:web`), never a copy.
 */
import { type components, requestStatusValues, webhookEventTypeValues } from "../shared/api-schema";

type Schemas = components["schemas"];

export type Session = Schemas["ConsoleSession"];
export type Workspace = Session["workspaces"][number];
export type Role = Workspace["role"];

/** One page of a list, as every list route answers. */
export interface Page<T> {
  items: T[];
  pageIndex: number;
  pageSize: number;
  totalCount: number;
}

export type ApiKey = Schemas["ApiKey"];
export type CreatedApiKey = Schemas["ApiKeyCreated"];
export type Configuration = Schemas["Configuration"];
export type SealCertificateInfo = Schemas["SealCertificateInfo"];
export type RecentError = Schemas["RecentErrors"]["items"][number];
export type ApiUsage = Schemas["ApiUsage"];
export type Integration = Schemas["Integration"];
export type ConsentDescription = Schemas["ConsentDescription"];
export type ConsentGranted = Schemas["ConsentGranted"];
export type UsageFigures = Schemas["UsageFigures"];
export type TestEmailResult = Schemas["TestEmailResult"];
export type SingleSignOnSettings = Schemas["SingleSignOnSettings"];
export type SingleSignOnChoices = Schemas["SingleSignOnChoices"];

export type EventType = Schemas["WebhookEventType"];
export const EVENT_TYPES: readonly EventType[] = webhookEventTypeValues;
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookAttempt = Schemas["WebhookAttempt"];
export type WebhookMessage = Schemas["WebhookMessage"];
export type TestFireResult = Schemas["TestFireResult"];

export type RequestStatus = Schemas["RequestStatus"];
export const REQUEST_STATUSES: readonly RequestStatus[] = requestStatusValues;
export type SignatureRequest = Schemas["SignatureRequest"];
export type Recipient = Schemas["Recipient"];
export type SignerLocale = Schemas["SignerLocale"];
export type EmailDelivery = Schemas["EmailDelivery"];
export type AuditEntry = Schemas["AuditEntry"];
export type WorkspaceAuditEntry = Schemas["WorkspaceAuditEntry"];
export type Member = Schemas["Member"];
export type Invitation = Schemas["Invitation"];
export type InvitationView = Schemas["InvitationView"];
export type WorkspaceSettings = Schemas["WorkspaceSettings"];
export type RequestSettings = Schemas["RequestSettingsInForce"];
export type EmbeddingSettings = Schemas["EmbeddingSettings"];
export type Branding = Schemas["Branding"];

export type DocumentInfo = Schemas["Document"];
export type Template = Schemas["Template"];
export type TemplateRole = Schemas["Role"];
export type TemplateField = Schemas["Field"];

export type BulkSend = Schemas["BulkSend"];
export type BulkSendRow = Schemas["BulkSendRow"];
export type TextTagField = Schemas["TextTagFields"]["fields"][number];
