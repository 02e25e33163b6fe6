/** An envelope's DocuSign notification read as the request's reminder schedule and expiry. */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { EnvelopeNotification } from "../src/restapi/envelope-definition.js";
import { scheduleOf } from "../src/restapi/envelope-notification.js";

const now = new Date("2026-11-28T10:00:00Z");
const read = (json: unknown) => scheduleOf(EnvelopeNotification.parse(json), now);

test("reminders every reminderFrequency days (the delay when no frequency is given), off when disabled", () => {
  const on = { reminders: { reminderEnabled: "true", reminderDelay: "2", reminderFrequency: "3" } };
  expect(read({ useAccountDefaults: "false", ...on })).toEqual({ reminderEveryDays: 3 });
  expect(read({ reminders: { reminderEnabled: true, reminderDelay: 5 } })).toEqual({ reminderEveryDays: 5 });
  expect(read({ reminders: { reminderEnabled: "false", reminderFrequency: "3" } })).toEqual({
    reminderEveryDays: 0,
  });
  expect(read({ reminders: { reminderFrequency: "3" } })).toEqual({});
});

test("an expiry expireAfter days from now, warned expireWarn days before; the account's defaults leave both", () => {
  const schedule = read({ expirations: { expireEnabled: "true", expireAfter: "10", expireWarn: "3" } });
  expect(schedule.expiryWarningDays).toBe(3);
  expect(timestampDate(schedule.expireTime as never).toISOString()).toBe("2026-12-08T10:00:00.000Z");
  expect(read({ expirations: { expireEnabled: "false", expireAfter: "10", expireWarn: "3" } })).toEqual({});
  const defaults = {
    useAccountDefaults: "true",
    reminders: { reminderEnabled: "true", reminderFrequency: "3" },
  };
  expect(read(defaults)).toEqual({});
  expect(scheduleOf(undefined, now)).toEqual({});
});

test("days out of range are refused where DocuSign's clients put them", () => {
  const refused = EnvelopeNotification.safeParse({
    reminders: { reminderEnabled: "true", reminderFrequency: "45" },
    expirations: { expireEnabled: "true", expireAfter: "0" },
  });
  expect(refused.success).toBe(false);
  expect(refused.error?.issues.map((i) => i.path.join("."))).toEqual([
    "reminders.reminderFrequency",
    "expirations.expireAfter",
  ]);
});
