/**
 * A request's deadline and reminders as its sender sets them: the day it expires, unfinished
 * (optional), and how often the service reminds whoever's turn it is — left empty, the workspace's
 * default (Settings → Requests).
 */
import { TextField } from "../ui";

export interface ScheduleValues {
  /** The last day to sign, yyyy-mm-dd; empty for no expiry. */
  expiresOn: string;
  /** Days between reminders as typed; empty for the workspace's default. */
  remindEvery: string;
}

export const NO_SCHEDULE: ScheduleValues = { expiresOn: "", remindEvery: "" };

/** The request body's part: it expires at the end of the chosen day, in the sender's time zone. */
export function scheduleBody({ expiresOn, remindEvery }: ScheduleValues) {
  const days = remindEvery.trim();
  return {
    ...(expiresOn ? { expiresAt: new Date(`${expiresOn}T23:59:59`).toISOString() } : {}),
    // A number input holds a number: one out of range or not whole goes as it is, for the service
    // to name the field.
    ...(days ? { reminderEveryDays: Number(days) } : {}),
  };
}

function tomorrow(): string {
  const day = new Date(Date.now() + 86_400_000);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
}

export function ScheduleChoice({
  value,
  onChange,
  problem,
}: {
  value: ScheduleValues;
  onChange: (next: ScheduleValues) => void;
  problem: (path: string) => string | undefined;
}) {
  const days = value.remindEvery.trim();
  return (
    // Closed until wanted (the request's other parts come first, and on a phone the documents' pages
    // follow this column); open while it holds something or the service named one of its fields.
    <details
      className="schedule-choice"
      open={
        days !== "" || value.expiresOn !== "" || problem("expiresAt") || problem("reminderEveryDays")
          ? true
          : undefined
      }
    >
      <summary>
        Deadline and reminders <span className="required-word">(optional)</span>
      </summary>
      <div className="field-pair">
        <div>
          <TextField
            label="Expires on"
            optional
            type="date"
            min={tomorrow()}
            value={value.expiresOn}
            onChange={(e) => onChange({ ...value, expiresOn: e.target.value })}
            error={problem("expiresAt")}
          />
          <p className="muted small">
            {value.expiresOn ? "Unfinished at the end of that day, it expires." : "It does not expire."}
          </p>
        </div>
        <div>
          <TextField
            label="Remind every (days)"
            optional
            type="number"
            inputMode="numeric"
            min={0}
            max={30}
            placeholder="Workspace default"
            value={value.remindEvery}
            onChange={(e) => onChange({ ...value, remindEvery: e.target.value })}
            error={problem("reminderEveryDays")}
          />
          <p className="muted small">
            {days === ""
              ? "Empty: as Settings → Requests says."
              : days === "0"
                ? "No automatic reminders."
                : `Whoever's turn it is gets a reminder ${days} day${days === "1" ? "" : "s"} after their last e-mail.`}
          </p>
        </div>
      </div>
    </details>
  );
}
