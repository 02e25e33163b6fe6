/**
 * Add or edit a webhook endpoint: HTTPS URL, description, the event types it receives, and — when
 * it is added, for good — the format its deliveries come in.
 */
import { type FormEvent, useId, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { FormDialog } from "../FormDialog";
import { EVENT_TYPES, type EventType, type WebhookEndpoint } from "../types";
import { ErrorNote, FieldError, TextField, useAction } from "../ui";
import { useWorkspace } from "../workspace";
import { EVENT_DESCRIPTIONS } from "./event-types";
import { WEBHOOK_FORMATS, type WebhookFormat } from "./webhook-formats";

/** What the browser can tell before asking: the service checks again, including where the name resolves. */
function urlProblem(url: string): string | undefined {
  if (!url.trim()) return "Enter the URL that should receive the events.";
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return "This is not a URL. It should look like https://example.com/webhooks.";
  }
  if (parsed.protocol !== "https:")
    return "Only https:// URLs are allowed: deliveries carry your data and a signature.";
  return undefined;
}

export function EndpointDialog({
  endpoint,
  onClose,
  onSaved,
}: {
  endpoint?: WebhookEndpoint;
  onClose: () => void;
  onSaved: (endpoint: WebhookEndpoint, secret?: string) => void;
}) {
  const workspace = useWorkspace();
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [types, setTypes] = useState<Set<EventType>>(new Set(endpoint?.eventTypes ?? EVENT_TYPES));
  const [format, setFormat] = useState<WebhookFormat>("standard_webhooks");
  const [touched, setTouched] = useState(false);
  const { busy, error, run } = useAction();
  const typesErrorId = useId();

  const urlError = (touched ? urlProblem(url) : undefined) ?? error?.about("url");
  const typesError =
    (touched && types.size === 0 ? "Choose at least one event." : undefined) ?? error?.about("eventTypes");
  const other = error && !error.about("url") && !error.about("eventTypes") ? error : undefined;

  const toggle = (type: EventType) =>
    setTypes((before) => {
      const next = new Set(before);
      if (next.has(type)) next.delete(type);
      else next.add(type);
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (urlProblem(url) || types.size === 0) return;
    const body = {
      url: url.trim(),
      description: description.trim(),
      eventTypes: EVENT_TYPES.filter((t) => types.has(t)),
    };
    void run("save", async () => {
      if (endpoint) {
        onSaved(
          await ok(
            api.PATCH("/workspaces/{workspaceId}/webhook-endpoints/{endpointId}", {
              params: { path: { workspaceId: workspace.id, endpointId: endpoint.id } },
              body,
            }),
          ),
        );
        return;
      }
      const created = await ok(
        api.POST("/workspaces/{workspaceId}/webhook-endpoints", {
          params: { path: { workspaceId: workspace.id } },
          body: { ...body, format },
        }),
      );
      onSaved(created, created.secret);
    });
  };

  return (
    <FormDialog
      title={endpoint ? "Edit endpoint" : "Add a webhook endpoint"}
      onClose={onClose}
      testId="endpoint-dialog"
      busy={busy !== undefined}
      onSubmit={submit}
      submitLabel={endpoint ? "Save changes" : "Add endpoint"}
    >
      <TextField
        label="Endpoint URL"
        className="input mono"
        type="url"
        inputMode="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        onBlur={() => url && setTouched(true)}
        placeholder="https://example.com/webhooks/countersign"
        error={urlError}
      />
      <TextField
        label="Description"
        optional
        value={description}
        maxLength={1000}
        onChange={(e) => setDescription(e.target.value)}
      />
      <fieldset className="checks" aria-describedby={typesError ? typesErrorId : undefined}>
        <legend className="stacked-label">Events to send</legend>
        <label className="check all-events">
          <input
            type="checkbox"
            checked={types.size === EVENT_TYPES.length}
            ref={(box) => {
              if (box) box.indeterminate = types.size > 0 && types.size < EVENT_TYPES.length;
            }}
            onChange={() => setTypes(new Set(types.size === EVENT_TYPES.length ? [] : EVENT_TYPES))}
          />
          <strong>All events</strong>
        </label>
        {EVENT_TYPES.map((type) => (
          <label key={type} className="check event-type">
            <input type="checkbox" checked={types.has(type)} onChange={() => toggle(type)} />
            <span>
              <code>{type}</code>
              <span className="muted small event-description">{EVENT_DESCRIPTIONS[type]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <FieldError id={typesErrorId} message={typesError} />
      {endpoint ? null : (
        <fieldset className="checks" data-testid="endpoint-format">
          <legend className="stacked-label">Format</legend>
          {WEBHOOK_FORMATS.map((option) => (
            <label key={option.value} className="check choice">
              <input
                type="radio"
                name="format"
                value={option.value}
                checked={format === option.value}
                onChange={() => setFormat(option.value)}
              />
              <span>
                <strong>{option.label}</strong>
                <span className="muted small event-description">{option.description}</span>
              </span>
            </label>
          ))}
          <p className="muted small">The format cannot be changed later.</p>
        </fieldset>
      )}
      {other ? <ErrorNote error={other} /> : null}
    </FormDialog>
  );
}
