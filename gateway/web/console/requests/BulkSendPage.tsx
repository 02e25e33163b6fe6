/**
 * Bulk send: one template sent to a list from a CSV file, one request a line. The file is checked
 * whole before anything is sent, and every problem is listed with its line; the batches sent
 * before are listed below, each opening its progress.
 */
import { type FormEvent, useId, useState } from "react";
import { Link, useLocation } from "wouter";
import { ok } from "../../shared/api-client";
import { api, inWorkspace } from "../api";
import { PagedRows } from "../PagedRows";
import { keys, useInvalidate } from "../queries";
import type { Template } from "../types";
import { BusyButton, Empty, ErrorNote, Show, useAction, useLoaded, When } from "../ui";
import { useWorkspace } from "../workspace";
import { BulkStatusBadge } from "./BulkSendDetailPage";
import { RequestWording, TemplateChoice } from "./RequestWording";

/** The largest file the API takes: its text within the 1 MiB a JSON body may be. */
const MAX_FILE_BYTES = 1_000_000;

/** The most problems listed at once: a file with a wrong column can have one a line. */
const SHOWN_PROBLEMS = 50;

export function BulkSendPage() {
  const workspace = useWorkspace();
  const [templates, reload] = useLoaded(keys.templateList(workspace.id, { pageSize: 100 }), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/templates", {
        params: { path: { workspaceId: workspace.id }, query: { pageSize: 100 } },
      }),
    ),
  );
  return (
    <section aria-labelledby="bulk-title" className="stack">
      <div>
        <p className="crumb">
          <Link href="/requests">Signature requests</Link>
        </p>
        <h1 id="bulk-title">Bulk send</h1>
        <p className="muted">
          Send one template to up to 1,000 people from a CSV file: each line becomes a request of its own, its
          columns filling the signers and the template's text fields.
        </p>
      </div>
      <Show loaded={templates} what="templates" onRetry={reload}>
        {({ items }) =>
          items.length === 0 ? (
            <div className="card">
              <Empty title="No templates yet">
                <p>A bulk send is made from a template: make one first.</p>
                <Link href="/templates/new" className="button primary">
                  New template
                </Link>
              </Empty>
            </div>
          ) : (
            <BulkSendForm templates={items} />
          )
        }
      </Show>
      <BulkSendList />
    </section>
  );
}

function BulkSendForm({ templates }: { templates: Template[] }) {
  const workspace = useWorkspace();
  const [, navigate] = useLocation();
  const [templateId, setTemplateId] = useState(templates[0]?.id ?? "");
  const [title, setTitle] = useState(templates[0]?.name ?? "");
  const [message, setMessage] = useState("");
  const [file, setFile] = useState<File>();
  const { busy, error, run } = useAction();
  const invalidate = useInvalidate();
  const fileId = useId();
  const tooLarge = (file?.size ?? 0) > MAX_FILE_BYTES;
  const csvTemplate = `/console/api${inWorkspace(workspace.id, `/bulk-sends/csv-template?templateId=${templateId}`)}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run("send", async () => {
      const started = await ok(
        api.POST("/workspaces/{workspaceId}/bulk-sends", {
          params: { path: { workspaceId: workspace.id } },
          body: {
            templateId,
            title: title.trim(),
            ...(message.trim() ? { message: message.trim() } : {}),
            csv: file ? await file.text() : "",
          },
        }),
      );
      invalidate(keys.bulkSends(workspace.id), keys.requestLists(workspace.id));
      navigate(`/requests/bulk/${started.id}`);
    });
  };
  const problem = (path: string) => error?.errors.find((e) => e.path === path)?.message;
  const listed = error?.errors.filter((e) => e.path !== "title") ?? [];

  return (
    <form className="card narrow" onSubmit={submit} noValidate aria-labelledby="bulk-form-title">
      <h2 id="bulk-form-title">New bulk send</h2>
      <TemplateChoice
        templates={templates}
        value={templateId}
        onChoose={(id, name) => {
          setTemplateId(id);
          setTitle(name ?? title);
        }}
      />
      <p className="muted small">
        <a href={csvTemplate} download className="link">
          Download the CSV file to fill in
        </a>{" "}
        — a name and an e-mail column for each role, and a column for each text, number or date field.
      </p>
      <RequestWording
        title={title}
        message={message}
        onTitle={setTitle}
        onMessage={setMessage}
        titleError={problem("title")}
      />
      <label className="stacked-label" htmlFor={fileId}>
        CSV file
      </label>
      <input
        id={fileId}
        className="input"
        type="file"
        accept=".csv,text/csv"
        onChange={(e) => setFile(e.target.files?.[0])}
      />
      {file ? <p className="muted small">{`${file.name} · ${Math.ceil(file.size / 1024)} KB`}</p> : null}
      {tooLarge ? (
        <p className="field-error" role="alert">
          This file is larger than 1 MB: a bulk send takes up to 1,000 lines. Split it into several files.
        </p>
      ) : null}
      {error && listed.length === 0 && !problem("title") ? <ErrorNote error={error} /> : null}
      {listed.length > 0 ? (
        <div className="note error" role="alert" data-testid="bulk-problems">
          <p>
            <strong>Nothing was sent.</strong>{" "}
            {listed.length === 1
              ? "Fix this and send again:"
              : `Fix these ${listed.length} problems and send again:`}
          </p>
          <ul>
            {listed.slice(0, SHOWN_PROBLEMS).map((e) => (
              <li key={`${e.path}:${e.message}`}>{e.message}</li>
            ))}
          </ul>
          {listed.length > SHOWN_PROBLEMS ? <p>…and {listed.length - SHOWN_PROBLEMS} more.</p> : null}
        </div>
      ) : null}
      <div className="dialog-actions">
        <BusyButton type="submit" busy={busy === "send"} disabled={!file || tooLarge || busy !== undefined}>
          Check and send
        </BusyButton>
      </div>
    </form>
  );
}

function BulkSendList() {
  const workspace = useWorkspace();
  const [pageIndex, setPageIndex] = useState(0);
  const [loaded, reload] = useLoaded(keys.bulkSendList(workspace.id, { pageIndex }), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/bulk-sends", {
        params: { path: { workspaceId: workspace.id }, query: { pageIndex, pageSize: 20 } },
      }),
    ),
  );
  return (
    <section aria-labelledby="bulk-list-title" className="stack">
      <h2 id="bulk-list-title">Bulk sends</h2>
      <div className="card flush">
        <PagedRows
          loaded={loaded}
          what="bulk sends"
          onRetry={reload}
          onPage={setPageIndex}
          testId="bulk-sends"
          empty={<Empty title="No bulk sends yet">Batches you send show here with their progress.</Empty>}
        >
          {(b) => (
            <li key={b.id} className="row">
              <div className="row-main">
                <Link href={`/requests/bulk/${b.id}`} className="row-title link">
                  {b.title}
                </Link>
                <p className="muted small">
                  {b.sent} of {b.total} sent{b.failed ? ` · ${b.failed} failed` : ""} · started{" "}
                  <When at={b.createdAt} />
                  {b.createdBy ? ` by ${b.createdBy}` : ""}
                </p>
              </div>
              <BulkStatusBadge status={b.status} />
            </li>
          )}
        </PagedRows>
      </div>
    </section>
  );
}
