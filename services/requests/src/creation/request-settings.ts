/**
 * A workspace's settings for its signature requests: the reminder schedule a new request gets when
 * it names none, and how long before expiry the waiting recipients and the sender are warned — a
 * request keeps what it was made with, so changing these changes only requests made later — and its
 * retention: how long after a request ends its documents are kept, which applies to every request;
 * and who approves what agents' keys propose besides the Organization Admins.
 */
import type { RequestSettings as RequestSettingsMessage } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { Database } from "@countersign/kit";
import { type FieldViolation, isUuid, type Queryable, validationError } from "@countersign/kit";

export interface RequestSettings {
  reminderEveryDays: number;
  expiryWarningDays: number;
  /** Days after a request ends that its documents are deleted; undefined keeps them. */
  retentionDays?: number;
  /** Whether the audit trail is deleted with the documents. */
  retentionDeletesEvidence: boolean;
  /** The member (auth's user id) who approves agents' proposals besides the Organization Admins. */
  approverUserId?: string;
}

/** Reminders off, as in the peers; a warning two days before expiry; everything kept. */
export const DEFAULT_REQUEST_SETTINGS: RequestSettings = {
  reminderEveryDays: 0,
  expiryWarningDays: 2,
  retentionDeletesEvidence: false,
};

/** The longest retention: ten years, past which a workspace keeps documents for good. */
const MAX_RETENTION_DAYS = 3650;

/** The longest schedule or warning: a month. */
export const MAX_SCHEDULE_DAYS = 30;

/** Why `days` is not a schedule, if it is not: a whole number of days from 0 (never) to 30. */
export function scheduleViolation(path: string, days: number): FieldViolation | undefined {
  return Number.isInteger(days) && days >= 0 && days <= MAX_SCHEDULE_DAYS
    ? undefined
    : { path, message: `must be a whole number of days from 0 (never) to ${MAX_SCHEDULE_DAYS}` };
}

export async function requestSettingsOf(db: Queryable, workspaceId: string): Promise<RequestSettings> {
  const { rows } = await db.query<{
    reminder_every_days: number;
    expiry_warning_days: number;
    retention_days: number | null;
    retention_deletes_evidence: boolean;
    approver_user_id: string | null;
  }>(
    `SELECT reminder_every_days, expiry_warning_days, retention_days, retention_deletes_evidence, approver_user_id
       FROM request_settings WHERE workspace_id = $1`,
    [workspaceId],
  );
  const row = rows[0];
  return row
    ? {
        reminderEveryDays: row.reminder_every_days,
        expiryWarningDays: row.expiry_warning_days,
        ...(row.retention_days === null ? {} : { retentionDays: row.retention_days }),
        retentionDeletesEvidence: row.retention_deletes_evidence,
        ...(row.approver_user_id === null ? {} : { approverUserId: row.approver_user_id }),
      }
    : DEFAULT_REQUEST_SETTINGS;
}

export async function updateRequestSettings(
  db: Queryable,
  workspaceId: string,
  settings: RequestSettingsMessage | undefined,
): Promise<RequestSettings> {
  const next: RequestSettings = {
    reminderEveryDays: settings?.reminderEveryDays ?? 0,
    expiryWarningDays: settings?.expiryWarningDays ?? 0,
    ...(settings?.retentionDays === undefined ? {} : { retentionDays: settings.retentionDays }),
    retentionDeletesEvidence: settings?.retentionDeletesEvidence ?? false,
    ...(settings?.approverUserId ? { approverUserId: settings.approverUserId } : {}),
  };
  const { retentionDays, approverUserId } = next;
  const violations = [
    scheduleViolation("reminderEveryDays", next.reminderEveryDays),
    scheduleViolation("expiryWarningDays", next.expiryWarningDays),
    retentionDays === undefined ||
    (Number.isInteger(retentionDays) && retentionDays >= 1 && retentionDays <= MAX_RETENTION_DAYS)
      ? undefined
      : {
          path: "retentionDays",
          message: `must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or absent to keep documents`,
        },
    approverUserId === undefined || isUuid(approverUserId)
      ? undefined
      : { path: "approverUserId", message: "must be a member's user id" },
  ].filter((v) => v !== undefined);
  if (violations.length > 0) throw validationError(violations, "the request settings are not valid");
  await db.query(
    `INSERT INTO request_settings
       (workspace_id, reminder_every_days, expiry_warning_days, retention_days, retention_deletes_evidence,
        approver_user_id)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (workspace_id) DO UPDATE
       SET reminder_every_days = $2, expiry_warning_days = $3, retention_days = $4,
           retention_deletes_evidence = $5, approver_user_id = $6, updated_at = now()`,
    [
      workspaceId,
      next.reminderEveryDays,
      next.expiryWarningDays,
      retentionDays ?? null,
      next.retentionDeletesEvidence,
      approverUserId ?? null,
    ],
  );
  return next;
}

/** The settings of every workspace, as the API reads and replaces them. */
export class RequestSettingsBook {
  constructor(private readonly db: Database) {}

  get(workspaceId: string): Promise<RequestSettings> {
    return requestSettingsOf(this.db, workspaceId);
  }

  update(workspaceId: string, settings: RequestSettingsMessage | undefined): Promise<RequestSettings> {
    return updateRequestSettings(this.db, workspaceId, settings);
  }
}
