/** The rows of signature requests and their recipients as the stores read and write them. */
import type {
  FieldPlacement,
  FieldRules,
  RecipientKind,
  RecipientStatus,
  RequestStatus,
  SignerLocale,
  TextCover,
} from "@countersign/domain";

/** A field as a request keeps it: on a document, bound to its recipient, with its rules. */
export interface StoredField extends FieldRules, FieldPlacement {
  id: string;
  type: string;
  recipientId: string;
  documentId: string;
  required: boolean;
  label: string;
  /** What the sender filled in (merge-fields.ts): the signer sees it and may change it. */
  prefilled?: string;
  /** The text tag that placed the field, painted white in the completed PDF. */
  cover?: TextCover;
}

export interface RequestRow {
  id: string;
  workspace_id: string;
  title: string;
  message: string;
  template_id: string | null;
  document_ids: string[];
  document_external_ids: string[];
  fields: StoredField[];
  status: RequestStatus;
  expires_at: Date | null;
  agreement_set_id: string | null;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string;
  signed_document_id: string | null;
  completion_failure: CompletionFailure | null;
  /** Who the request comes from, as recipients see it. */
  sender_name: string;
  sender_email: string;
  /** Signers may hand the request to someone else. */
  allow_reassign: boolean;
  /** The sender's own id for the request; empty when it gave none. */
  external_id: string;
  /** Each signer's name and e-mail fields are theirs as the sender knows them, and none may hand it on. */
  lock_signer_identity: boolean;
  /** Made with a test key: kept apart from live data, mailed to the outbox, sealed as not binding. */
  test: boolean;
  /** The files signers submitted for their attachment fields. */
  signer_attachments: SignerAttachmentRecord[];
  /** Days after their last e-mail that a recipient whose turn it is is reminded; 0 for never. */
  reminder_every_days: number;
  /** Days before expires_at that the waiting recipients and the sender are warned; 0 for never. */
  expiry_warning_days: number;
  expiry_warned_at: Date | null;
  /** A legal hold: why, placed by whom (a key's name, a user's e-mail), when; all null when there is none. */
  legal_hold_reason: string | null;
  legal_hold_by: string | null;
  legal_hold_at: Date | null;
  /** When retention deleted the documents. */
  documents_deleted_at: Date | null;
  /** The certificate of completion kept on its own when retention deleted the documents. */
  certificate_document_id: string | null;
  /** An agent's proposal: the key that proposed it and when; all null for a request no agent proposed. */
  proposed_by: string | null;
  proposed_at: Date | null;
  /** A person's decision on the proposal, by e-mail, when, and a rejection's reason. */
  approval_decision: "approved" | "rejected" | null;
  approval_decided_by: string | null;
  approval_decided_at: Date | null;
  approval_note: string | null;
}

/** A file a signer gave for an attachment field, as the request keeps it. */
export interface SignerAttachmentRecord {
  fieldId: string;
  recipientId: string;
  documentId: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  attachedAt: string;
}

/** Why sealing a fully signed request gave up, kept on the request for its sender. */
export interface CompletionFailure {
  reason: string;
  attempts: number;
  failedAt: string;
}

export interface RecipientRow {
  id: string;
  request_id: string;
  position: number;
  name: string;
  email: string;
  role: string;
  kind: RecipientKind;
  routing_order: number;
  status: RecipientStatus;
  client_user_id: string;
  external_id: string;
  /** Who hosts the signer's signing in person; empty for a signer who signs from their own link. */
  host_name: string;
  host_email: string;
  viewed_at: Date | null;
  signed_at: Date | null;
  declined_at: Date | null;
  decline_reason: string;
  reminded_at: Date | null;
  viewed_ip: string;
  viewed_user_agent: string;
  signed_ip: string;
  signed_user_agent: string;
  consented_at: Date | null;
  /** The sender set an access code for the signer to give (its hash is never read with the row). */
  access_code_required: boolean;
  /** The signer must give a one-time code e-mailed to them. */
  email_code_required: boolean;
  /** The language of their e-mails and signing page; empty when the sender set none. */
  locale: SignerLocale | "";
  /** Wrong codes given since the last right one, and the lock-out they led to. */
  auth_failures: number;
  auth_locked_until: Date | null;
  /** The recipient's latest e-mail, where the row was read with it (recipientsOf). */
  last_email?: EmailDeliveryRow | null;
}

/** One queued e-mail's state, for the recipient's delivery state. */
export interface EmailDeliveryRow {
  kind: string;
  outcome: "sent" | "failed" | "not_sent" | null;
  attempts: number;
  last_error: string;
  created_at: Date;
  done_at: Date | null;
  next_attempt_at: Date;
}

export interface NewRequest {
  id: string;
  workspaceId: string;
  title: string;
  message: string;
  templateId: string | null;
  documentIds: string[];
  documentExternalIds: string[];
  fields: StoredField[];
  expiresAt: Date | null;
  /** The client operation that creates it, when the caller named one (see operation_key). */
  operationKey: string | null;
  /** A request created and sent at once is written sent (with its sent time) rather than moved there. */
  status: "draft" | "sent";
  sender: { name: string; email: string };
  allowReassign: boolean;
  reminderEveryDays: number;
  expiryWarningDays: number;
  externalId: string;
  lockSignerIdentity: boolean;
  test: boolean;
}

export type NewRecipientRow = Pick<
  RecipientRow,
  | "id"
  | "name"
  | "email"
  | "role"
  | "kind"
  | "routing_order"
  | "status"
  | "client_user_id"
  | "external_id"
  | "host_name"
  | "host_email"
  | "email_code_required"
  | "locale"
> & { access_code_hash: Buffer | null };

export const REQUEST_COLUMNS = `id, workspace_id, title, message, template_id, document_ids, document_external_ids,
  fields, status, expires_at, agreement_set_id, created_at, updated_at, sent_at, completed_at, cancelled_at,
  cancel_reason, signed_document_id, completion_failure, sender_name, sender_email, allow_reassign,
  signer_attachments, reminder_every_days, expiry_warning_days, expiry_warned_at,
  legal_hold_reason, legal_hold_by, legal_hold_at, documents_deleted_at, certificate_document_id,
  proposed_by, proposed_at, approval_decision, approval_decided_by, approval_decided_at, approval_note,
  external_id, lock_signer_identity, test`;
export const RECIPIENT_COLUMNS = `id, request_id, position, name, email, role, kind, routing_order, status, client_user_id,
  host_name, host_email,
  external_id, viewed_at, signed_at, declined_at, decline_reason, reminded_at, viewed_ip, viewed_user_agent, signed_ip,
  signed_user_agent, consented_at, (access_code_hash IS NOT NULL) AS access_code_required, email_code_required,
  auth_failures, auth_locked_until, locale`;
