/**
 * Settings → Requests: the defaults a new request gets — how often the service reminds whoever's
 * turn it is, and how long before expiry it warns them and the sender; requests already made keep
 * theirs — the retention of every request's documents, and who approves what agents' API keys
 * propose. Each form saves the whole settings, the other forms' parts as they were last saved.
 */
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { keys } from "../queries";
import type { RequestSettings } from "../types";
import { BusyButton, CheckField, ErrorNote, SelectField, Show, TextField, useAction, useLoaded } from "../ui";
import { useWorkspace } from "../workspace";

export function RequestsTab() {
  const workspace = useWorkspace();
  const [settings, reload] = useLoaded(
    keys.requestSettings(workspace.id),
    () =>
      ok(
        api.GET("/workspaces/{workspaceId}/request-settings", {
          params: { path: { workspaceId: workspace.id } },
        }),
      ),
    { seedsForm: true },
  );
  return (
    <div className="stack">
      <Show loaded={settings} what="the request settings" onRetry={reload}>
        {(loaded) => <SettingsForms loaded={loaded} />}
      </Show>
    </div>
  );
}

function SettingsForms({ loaded }: { loaded: RequestSettings }) {
  const [current, setCurrent] = useState(loaded);
  return (
    <>
      <ScheduleForm current={current} onSaved={setCurrent} />
      <RetentionForm current={current} onSaved={setCurrent} />
      <ApproverForm current={current} onSaved={setCurrent} />
    </>
  );
}

/** A settings form's foot: its Save button, what saving did, and a failure no field of it shows. */
function SaveFoot({
  form: { save, saved },
  changed,
  said,
  fieldShowsError = false,
}: {
  form: ReturnType<typeof useSettingsSave>;
  changed: boolean;
  /** Said after "Saved." */
  said?: string;
  fieldShowsError?: boolean;
}) {
  return (
    <>
      <div className="button-row">
        <BusyButton type="submit" busy={save.busy !== undefined} disabled={!changed}>
          Save
        </BusyButton>
      </div>
      {saved ? (
        <p className="note success" role="status">
          {said ? `Saved. ${said}` : "Saved."}
        </p>
      ) : null}
      {save.error && !fieldShowsError ? <ErrorNote error={save.error} /> : null}
    </>
  );
}

/** A form's part of the settings saved with the rest as they were last saved. */
function useSettingsSave(current: RequestSettings, onSaved: (kept: RequestSettings) => void) {
  const workspace = useWorkspace();
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const submit = (part: Record<string, unknown>) => {
    setSaved(false);
    void save.run("save", async () => {
      const kept = await ok(
        api.PUT("/workspaces/{workspaceId}/request-settings", {
          params: { path: { workspaceId: workspace.id } },
          body: {
            reminderEveryDays: current.reminderEveryDays,
            expiryWarningDays: current.expiryWarningDays,
            retentionDays: current.retentionDays,
            retentionDeletesEvidence: current.retentionDeletesEvidence,
            approverUserId: current.approverUserId,
            ...part,
          },
        }),
      );
      onSaved(kept);
      setSaved(true);
    });
  };
  return { save, saved, setSaved, submit };
}

const isDays = (typed: string) => /^\d{1,3}$/.test(typed.trim());

/** What a field holds as the API takes it: a number, or null for the service to name as missing. */
const daysOf = (typed: string) => (isDays(typed) ? Number(typed) : null);

/** The schedule's two settings, each a number of days: what it is called, and what a value means. */
const SCHEDULE = [
  {
    key: "reminderEveryDays",
    label: "Remind every (days)",
    none: "No automatic reminders.",
    some: (n: string) =>
      `Whoever's turn it is gets a reminder ${n} after their last e-mail, until the request ends or expires.`,
  },
  {
    key: "expiryWarningDays",
    label: "Warn before expiry (days)",
    none: "No warning before a request expires.",
    some: (n: string) => `${n} before a request expires, whoever's turn it is and its sender get an e-mail.`,
  },
] as const;

type ScheduleKey = (typeof SCHEDULE)[number]["key"];

function ScheduleForm({
  current,
  onSaved,
}: {
  current: RequestSettings;
  onSaved: (kept: RequestSettings) => void;
}) {
  const typedOf = (settings: RequestSettings) =>
    Object.fromEntries(SCHEDULE.map(({ key }) => [key, String(settings[key])])) as Record<
      ScheduleKey,
      string
    >;
  const [typed, setTyped] = useState(() => typedOf(current));
  const form = useSettingsSave(current, onSaved);
  const { save, setSaved, submit: saveWith } = form;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    saveWith(Object.fromEntries(SCHEDULE.map(({ key }) => [key, daysOf(typed[key])])));
  };
  const before = typedOf(current);
  const changed = SCHEDULE.some(({ key }) => typed[key] !== before[key]);
  const fieldError = SCHEDULE.some(({ key }) => save.error?.about(key));
  return (
    <form className="card" onSubmit={submit} noValidate data-testid="request-settings">
      <h2>Reminders and expiry</h2>
      <p className="muted">
        The defaults a new request gets; a request made with the API may name its own schedule. Requests
        already made keep theirs. Each reminder and warning is written to the request's audit trail.
      </p>
      <div className="field-pair">
        {SCHEDULE.map(({ key, label, none, some }) => (
          <DaysField
            key={key}
            label={label}
            value={typed[key]}
            onChange={(value) => {
              setTyped((was) => ({ ...was, [key]: value }));
              setSaved(false);
            }}
            error={save.error?.about(key)}
            none={none}
            some={some}
          />
        ))}
      </div>
      <SaveFoot
        form={form}
        changed={changed}
        said="New requests get these defaults."
        fieldShowsError={fieldError}
      />
    </form>
  );
}

/** How long ended requests' documents are kept, and whether their audit trails go with them. */
function RetentionForm({
  current,
  onSaved,
}: {
  current: RequestSettings;
  onSaved: (kept: RequestSettings) => void;
}) {
  const [deleting, setDeleting] = useState(current.retentionDays != null);
  const [days, setDays] = useState(String(current.retentionDays ?? 365));
  const [evidenceToo, setEvidenceToo] = useState(current.retentionDeletesEvidence);
  const form = useSettingsSave(current, onSaved);
  const { save, setSaved, submit: saveWith } = form;
  const [typedWrong, setTypedWrong] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!deleting) {
      saveWith({ retentionDays: null, retentionDeletesEvidence: false });
      return;
    }
    // Not a number at all is said here: sent as none, it would keep documents for good.
    if (!/^\d+$/.test(days.trim())) {
      setTypedWrong(true);
      return;
    }
    saveWith({ retentionDays: Number(days.trim()), retentionDeletesEvidence: evidenceToo });
  };
  const changed =
    deleting !== (current.retentionDays != null) ||
    (deleting &&
      (days !== String(current.retentionDays ?? "") || evidenceToo !== current.retentionDeletesEvidence));
  /** A change to the form: what was said of the last save no longer holds. */
  const edited =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setSaved(false);
      setTypedWrong(false);
    };
  const daysError = typedWrong
    ? "must be a whole number of days from 1 to 3650"
    : save.error?.about("retentionDays");
  return (
    <form className="card" onSubmit={submit} noValidate data-testid="retention-settings">
      <h2>Retention</h2>
      <p className="muted">
        How long the documents of ended requests (completed, declined, cancelled or expired) are kept. It
        applies to every request, those already ended too; a request on legal hold is left alone. Each
        deletion is written to the request's audit trail.
      </p>
      <CheckField checked={deleting} onChange={edited(setDeleting)}>
        Delete the documents of ended requests
      </CheckField>
      {deleting ? (
        <div className="stack">
          <div className="field-pair">
            <div>
              <TextField
                label="Days after a request ends"
                type="number"
                inputMode="numeric"
                min={1}
                max={3650}
                value={days}
                onChange={(e) => edited(setDays)(e.target.value)}
                error={daysError}
              />
              <p className="muted small">From 1 to 3650 (ten years).</p>
            </div>
          </div>
          <CheckField checked={evidenceToo} onChange={edited(setEvidenceToo)}>
            Delete the audit trail with them
          </CheckField>
          <p className="muted small">
            {evidenceToo
              ? "The trail is replaced by one entry recording the deletion and the last hash of the trail it replaces. Nothing is left to prove who signed."
              : "The audit trail stays, and a completed request's certificate of completion is kept on its own."}
          </p>
          <p className="note warning small" role="note">
            Deleted documents cannot be brought back. Requests that ended longer ago than this are deleted at
            the next sweep, within ten minutes of saving.
          </p>
        </div>
      ) : (
        <p className="muted small">Documents are kept for good.</p>
      )}
      <SaveFoot
        form={form}
        changed={changed}
        said={deleting ? "Retention applies from the next sweep." : "Documents are kept for good."}
        fieldShowsError={Boolean(daysError)}
      />
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

/** Who approves what agents' API keys propose: the Organization Admins, and a member named here. */
function ApproverForm({
  current,
  onSaved,
}: {
  current: RequestSettings;
  onSaved: (kept: RequestSettings) => void;
}) {
  const workspace = useWorkspace();
  const [members] = useLoaded(keys.members(workspace.id), () =>
    ok(api.GET("/workspaces/{workspaceId}/members", { params: { path: { workspaceId: workspace.id } } })),
  );
  const [approver, setApprover] = useState(current.approverUserId ?? "");
  const form = useSettingsSave(current, onSaved);
  const { setSaved, submit: saveWith } = form;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    saveWith({ approverUserId: approver || null });
  };
  return (
    <form className="card" onSubmit={submit} noValidate data-testid="approver-settings">
      <h2>Approving agents' requests</h2>
      <p className="muted">
        An agent's API key (scope <code>requests:propose</code>) cannot send: what it would send waits,
        awaiting approval, until someone approves it on the request's page. The Organization Admins always
        may; name one member besides them who may too.
      </p>
      <Show loaded={members} what="the members">
        {({ items }) => (
          <SelectField
            label="Also approved by"
            value={approver}
            onChange={(value) => {
              setApprover(value);
              setSaved(false);
            }}
            options={[
              { value: "", label: "No one else: the Organization Admins alone" },
              ...items.filter((m) => m.role === "member").map((m) => ({ value: m.userId, label: m.email })),
              // Named before they left: kept until someone else is named; they approve nothing while away.
              ...(current.approverUserId && !items.some((m) => m.userId === current.approverUserId)
                ? [{ value: current.approverUserId, label: "A former member (no longer in the workspace)" }]
                : []),
            ]}
          />
        )}
      </Show>
      <SaveFoot form={form} changed={approver !== (current.approverUserId ?? "")} />
    </form>
  );
}
