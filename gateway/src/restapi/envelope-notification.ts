/**
 * An envelope's `notification` as the request's schedule. DocuSign reminds first `reminderDelay`
 * days after the e-mail, then every `reminderFrequency` days; a request here reminds every N days
 * after the last e-mail, so N is the frequency (the delay where no frequency is given). An expiry
 * `expireAfter` days from now, warned `expireWarn` days before. With `useAccountDefaults`, or
 * without a notification, the workspace's defaults apply and nothing expires.
 */

import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EnvelopeNotification } from "./envelope-definition.js";

const DAY_MS = 86_400_000;

export interface RequestSchedule {
  reminderEveryDays?: number;
  expiryWarningDays?: number;
  expireTime?: Timestamp;
}

export function scheduleOf(
  notification: EnvelopeNotification | undefined,
  now = new Date(),
): RequestSchedule {
  if (!notification || notification.useAccountDefaults === true) return {};
  const schedule: RequestSchedule = {};
  const { reminders, expirations } = notification;
  if (reminders?.reminderEnabled === false) schedule.reminderEveryDays = 0;
  else if (reminders?.reminderEnabled === true) {
    const every = reminders.reminderFrequency ?? reminders.reminderDelay;
    if (every !== undefined) schedule.reminderEveryDays = every;
  }
  if (expirations?.expireEnabled === true && expirations.expireAfter !== undefined) {
    schedule.expireTime = timestampFromDate(new Date(now.getTime() + expirations.expireAfter * DAY_MS));
    if (expirations.expireWarn !== undefined) schedule.expiryWarningDays = expirations.expireWarn;
  }
  return schedule;
}
