/**
 * Settings → Requests: the defaults a new request gets — how often the service reminds whoever's
 * turn it is, and how long before expiry it warns them and the sender. Requests already made keep
 * theirs.
 */
import { type FormEvent, useState } from "react";
import { call, inWorkspace } from "../api";
import type { RequestSettings } from "../types";
import { BusyButton, ErrorNote, Show, TextField, useAction, useLoad } from "../ui";
import { useWorkspace } from "../workspace";

export function RequestsTab() {
  const workspace = useWorkspace();
  const [settings, reload] = useLoad(
    () => call<RequestSettings>(inWorkspace(workspace.id, "/request-settings")),
    [workspace.id],
  );
  return (
    <div className="stack">
      <Show loaded={settings} what="the request settings" onRetry={reload}>
        {(loaded) => <ScheduleForm loaded={loaded} />}
      </Show>
    </div>
  );
}

const isDays = (typed: string) => /^\d{1,3}$/.test(typed.trim());

/** What a field holds as the API takes it: a number, or null for the service to name as missing. */
const daysOf = (typed: string) => (isDays(typed) ? Number(typed) : null);

function ScheduleForm({ loaded }: { loaded: RequestSettings }) {
  const workspace = useWorkspace();
  const [current, setCurrent] = useState(loaded);
  const [reminder, setReminder] = useState(String(current.reminderEveryDays));
  const [warning, setWarning] = useState(String(current.expiryWarningDays));
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void save.run("save", async () => {
      const kept = await call<RequestSettings>(inWorkspace(workspace.id, "/request-settings"), {
        method: "PUT",
        json: { reminderEveryDays: daysOf(reminder), expiryWarningDays: daysOf(warning) },
      });
      setCurrent(kept);
      setSaved(true);
    });
  };
  const changed =
    reminder !== String(current.reminderEveryDays) || warning !== String(current.expiryWarningDays);
  return (
    <form className="card" onSubmit={submit} noValidate data-testid="request-settings">
      <h2>Reminders and expiry</h2>
      <p className="muted">
        The defaults a new request gets; a request made with the API may name its own schedule. Requests
        already made keep theirs. Each reminder and warning is written to the request's audit trail.
      </p>
      <div className="field-pair">
        <DaysField
          label="Remind every (days)"
          value={reminder}
          onChange={(value) => {
            setReminder(value);
            setSaved(false);
          }}
          error={save.error?.about("reminderEveryDays")}
          none="No automatic reminders."
          some={(n) =>
            `Whoever's turn it is gets a reminder ${n} after their last e-mail, until the request ends or expires.`
          }
        />
        <DaysField
          label="Warn before expiry (days)"
          value={warning}
          onChange={(value) => {
            setWarning(value);
            setSaved(false);
          }}
          error={save.error?.about("expiryWarningDays")}
          none="No warning before a request expires."
          some={(n) => `${n} before a request expires, whoever's turn it is and its sender get an e-mail.`}
        />
      </div>
      <div className="button-row">
        <BusyButton type="submit" busy={save.busy !== undefined} disabled={!changed}>
          Save
        </BusyButton>
      </div>
      {saved ? (
        <p className="note success" role="status">
          Saved. New requests get these defaults.
        </p>
      ) : null}
      {save.error && !save.error.about("reminderEveryDays") && !save.error.about("expiryWarningDays") ? (
        <ErrorNote error={save.error} />
      ) : null}
    </form>
  );
}

/** A number of days from 0 to 30, with what the number typed will do beneath it. */
function DaysField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  /** Said for 0. */
  none: string;
  /** Said for more, given "3 days". */
  some: (days: string) => string;
}) {
  const { value } = props;
  return (
    <div>
      <TextField
        label={props.label}
        type="number"
        inputMode="numeric"
        min={0}
        max={30}
        value={value}
        onChange={(e) => props.onChange(e.target.value)}
        error={props.error}
      />
      <p className="muted small">
        {!isDays(value)
          ? "A whole number of days, 0 for none."
          : Number(value) === 0
            ? props.none
            : props.some(`${Number(value)} ${Number(value) === 1 ? "day" : "days"}`)}
      </p>
    </div>
  );
}
