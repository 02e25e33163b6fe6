/**
 * Settings → Developer → Embedding: the origins of the integrator's own pages that may show this
 * workspace's signing page in an iframe (none until listed), one per line, and how a page does it.
 */
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { keys } from "../queries";
import type { EmbeddingSettings } from "../types";
import { BusyButton, CopyButton, ErrorNote, Show, TextAreaField, useAction, useLoaded } from "../ui";
import { useWorkspace } from "../workspace";

export function EmbeddingTab() {
  const workspace = useWorkspace();
  const [loaded, reload] = useLoaded(
    keys.embedding(workspace.id),
    () =>
      ok(
        api.GET("/workspaces/{workspaceId}/embedding-settings", {
          params: { path: { workspaceId: workspace.id } },
        }),
      ),
    { seedsForm: true },
  );
  return (
    <div className="stack">
      <Show loaded={loaded} what="the embedding settings" onRetry={reload}>
        {(settings) => <OriginsForm loaded={settings} />}
      </Show>
      <HowToEmbed />
    </div>
  );
}

const linesOf = (typed: string) =>
  typed
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

function OriginsForm({ loaded }: { loaded: EmbeddingSettings }) {
  const workspace = useWorkspace();
  const [kept, setKept] = useState(loaded.frameOrigins);
  const [typed, setTyped] = useState(loaded.frameOrigins.join("\n"));
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const origins = linesOf(typed);
  const changed = origins.join("\n") !== kept.join("\n");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void save.run("save", async () => {
      const answer = await ok(
        api.PUT("/workspaces/{workspaceId}/embedding-settings", {
          params: { path: { workspaceId: workspace.id } },
          body: { frameOrigins: origins },
        }),
      );
      setKept(answer.frameOrigins);
      setTyped(answer.frameOrigins.join("\n"));
      setSaved(true);
    });
  };
  // The service names each refused line by its place in the list: say it with the line's text.
  const lineErrors = origins.flatMap((origin, i) => {
    const why = save.error?.errors.find((e) => e.path === `frameOrigins[${i}]`)?.message;
    return why ? [`${origin} ${why}`] : [];
  });
  const listError = save.error?.errors.find((e) => e.path === "frameOrigins")?.message;
  const fieldError = [...lineErrors, ...(listError ? [`The list ${listError}`] : [])].join(". ");
  return (
    <form className="card" onSubmit={submit} noValidate data-testid="embedding-settings">
      <h2>Sites that may embed signing</h2>
      <p className="muted">
        The origins of your app's pages that may show the signing page in an iframe, one per line, such as{" "}
        <code>https://app.example.com</code> (<code>http://localhost:5173</code> for development). None by
        default: until you list one, no site can frame a signer. An embedded signing URL is made for one of
        them and opens in its frames only.
      </p>
      <TextAreaField
        label="Allowed origins"
        rows={5}
        spellCheck={false}
        autoCapitalize="off"
        value={typed}
        placeholder="https://app.example.com"
        onChange={(e) => {
          setTyped(e.target.value);
          setSaved(false);
        }}
        error={fieldError || undefined}
      />
      <div className="button-row">
        <BusyButton type="submit" busy={save.busy !== undefined} disabled={!changed}>
          Save
        </BusyButton>
      </div>
      {saved ? (
        <p className="note success" role="status">
          {kept.length === 0
            ? "Saved. No site may embed signing."
            : `Saved. ${kept.length === 1 ? "This origin" : `These ${kept.length} origins`} may embed signing.`}
        </p>
      ) : null}
      {save.error && !fieldError ? <ErrorNote error={save.error} /> : null}
    </form>
  );
}

const EXAMPLE = `// Your server, with an API key: a URL for the signer, made for your page's origin.
POST /api/v1/embedded-signing-url
{ "requestId": "…", "recipientId": "…", "frameOrigin": "https://app.example.com" }

// Your page: frame it, and listen to what happens in it.
<iframe src="{url}" title="Sign"></iframe>
window.addEventListener("message", (event) => {
  if (event.origin !== "${window.location.origin}" || event.data?.source !== "countersign") return;
  // event.data.type: ready, field_changed, completed, declined, reassigned, session_expired, error
});`;

/** How a page embeds the signing: the call that makes the URL, the frame, the events it hears. */
function HowToEmbed() {
  return (
    <div className="card">
      <h2>Embedding the signing page</h2>
      <p className="muted">
        The signing page in a frame needs no cookie, so it works where browsers block third-party cookies. It
        tells your page what happens in it; your webhook stays the record of what was signed.
      </p>
      <pre className="code" data-testid="embedding-example">
        {EXAMPLE}
      </pre>
      <CopyButton text={EXAMPLE} label="Copy the example" />
      <p className="muted">
        Or install <code>@countersign/embed</code> from npm: <code>{"<countersign-signing url>"}</code> frames
        the URL and hands your page each event as a DOM event, and <code>CountersignSigning</code> does the
        same in React.
      </p>
    </div>
  );
}
