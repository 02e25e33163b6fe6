/**
 * A workspace's defaults for its new signature requests: the reminder schedule a request gets when
 * it names none, and how long before expiry the waiting recipients and the sender are warned. A
 * request keeps what it was made with; changing the defaults changes only requests made later.
 */
import type { RequestSettings as RequestSettingsMessage } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { Database } from "@countersign/kit";
import { type FieldViolation, type Queryable, validationError } from "@countersign/kit";

export interface RequestSettings {
  reminderEveryDays: number;
  expiryWarningDays: number;
}

/** Reminders off, as in the peers; a warning two days before expiry. */
export const DEFAULT_REQUEST_SETTINGS: RequestSettings = { reminderEveryDays: 0, expiryWarningDays: 2 };

/** The longest schedule or warning: a month. */
export const MAX_SCHEDULE_DAYS = 30;

/** Why `days` is not a schedule, if it is not: a whole number of days from 0 (never) to 30. */
export function scheduleViolation(path: string, days: number): FieldViolation | undefined {
  return Number.isInteger(days) && days >= 0 && days <= MAX_SCHEDULE_DAYS
    ? undefined
    : { path, message: `must be a whole number of days from 0 (never) to ${MAX_SCHEDULE_DAYS}` };
}

export async function requestSettingsOf(db: Queryable, workspaceId: string): Promise<RequestSettings> {
  const { rows } = await db.query<{ reminder_every_days: number; expiry_warning_days: number }>(
    "SELECT reminder_every_days, expiry_warning_days FROM request_settings WHERE workspace_id = $1",
    [workspaceId],
  );
  const row = rows[0];
  return row
    ? { reminderEveryDays: row.reminder_every_days, expiryWarningDays: row.expiry_warning_days }
    : DEFAULT_REQUEST_SETTINGS;
}

export async function updateRequestSettings(
  db: Queryable,
  workspaceId: string,
  settings: RequestSettingsMessage | undefined,
): Promise<RequestSettings> {
  const next = {
    reminderEveryDays: settings?.reminderEveryDays ?? 0,
    expiryWarningDays: settings?.expiryWarningDays ?? 0,
  };
  const violations = [
    scheduleViolation("reminderEveryDays", next.reminderEveryDays),
    scheduleViolation("expiryWarningDays", next.expiryWarningDays),
  ].filter((v) => v !== undefined);
  if (violations.length > 0) throw validationError(violations, "the request settings are not valid");
  await db.query(
    `INSERT INTO request_settings (workspace_id, reminder_every_days, expiry_warning_days) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id) DO UPDATE
       SET reminder_every_days = $2, expiry_warning_days = $3, updated_at = now()`,
    [workspaceId, next.reminderEveryDays, next.expiryWarningDays],
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
