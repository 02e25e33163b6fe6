/** A request from a template: a signer for every role, a title and a message, then send or keep as a draft. */
import { type FormEvent, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { embeddedView } from "../embedded/view";
import { keys, useInvalidate } from "../queries";
import type { SignerLocale, Template } from "../types";
import { BusyButton, Empty, ErrorNote, Show, TextField, useAction, useLoaded } from "../ui";
import { useWorkspace } from "../workspace";
import { InPersonChoice, useHost } from "./InPersonChoice";
import { RequestWording, TemplateChoice } from "./RequestWording";
import { NO_SCHEDULE, ScheduleChoice, type ScheduleValues, scheduleBody } from "./ScheduleChoice";
import { ReassignChoice, SignerChecks } from "./SignerChecks";
import { SignerLanguage } from "./SignerLanguage";
import { checksBody, NO_CHECKS, type SignerCheckValues } from "./signer-checks";

export function NewRequestPage() {
  const workspace = useWorkspace();
  const chosen = new URLSearchParams(useSearch()).get("templateId") ?? "";
  const [templates, reload] = useLoaded(
    keys.templateChoices(workspace.id, chosen),
    async () => {
      const { items } = await ok(
        api.GET("/workspaces/{workspaceId}/templates", {
          params: { path: { workspaceId: workspace.id }, query: { pageSize: 100 } },
        }),
      );
      // The template asked for may be older than the newest hundred.
      if (!chosen || items.some((t) => t.id === chosen)) return { items };
      const asked = await ok(
        api.GET("/workspaces/{workspaceId}/templates/{templateId}", {
          params: { path: { workspaceId: workspace.id, templateId: chosen } },
        }),
      ).catch(() => undefined);
      return { items: asked ? [asked, ...items] : items };
    },
    { seedsForm: true },
  );
  return (
    <section aria-labelledby="new-request-title">
      <p className="crumb">
        <Link href="/requests">Signature requests</Link>
      </p>
      <h1 id="new-request-title">New request from a template</h1>
      <p className="muted">
        A template's documents, roles and fields, with a person for each role.{" "}
        {/* A view made for one template sends from it alone. */}
        {embeddedView?.templateId ? null : (
          <Link href="/requests/send">Send documents without a template instead</Link>
        )}
      </p>
      <Show loaded={templates} what="templates" onRetry={reload}>
        {({ items }) =>
          items.length === 0 ? (
            <div className="card">
              <Empty title="No templates yet">
                <p>
                  A template keeps a PDF with its roles and fields, to send again and again. To send a
                  document once, send it without one.
                </p>
                <div className="button-row">
                  <Link href="/requests/send" className="button primary">
                    Send documents
                  </Link>
                  <Link href="/templates/new" className="button secondary">
                    New template
                  </Link>
                </div>
              </Empty>
            </div>
          ) : (
            <RequestForm
              templates={items}
              initial={items.some((t) => t.id === chosen) ? chosen : (items[0]?.id ?? "")}
            />
          )
        }
      </Show>
    </section>
  );
}

function RequestForm({ templates, initial }: { templates: Template[]; initial: string }) {
  const workspace = useWorkspace();
  const [, navigate] = useLocation();
  const [templateId, setTemplateId] = useState(initial);
  const template = templates.find((t) => t.id === templateId);
  const [title, setTitle] = useState(template?.name ?? "");
  const [message, setMessage] = useState("");
  const [allowReassign, setAllowReassign] = useState(false);
  const [schedule, setSchedule] = useState<ScheduleValues>(NO_SCHEDULE);
  const [signers, setSigners] = useState<
    Record<
      string,
      { name: string; email: string; checks: SignerCheckValues; locale: SignerLocale | ""; inPerson: boolean }
    >
  >({});
  const { busy, error, run } = useAction();
  const invalidate = useInvalidate();
  const roles = [...(template?.roles ?? [])].sort((a, b) => a.order - b.order);
  const host = useHost();

  const submit = (send: boolean) =>
    run(send ? "send" : "draft", async () => {
      const created = await ok(
        api.POST("/workspaces/{workspaceId}/signature-requests", {
          params: { path: { workspaceId: workspace.id } },
          body: {
            title: title.trim(),
            ...(message.trim() ? { message: message.trim() } : {}),
            templateId,
            recipients: roles.map((r) => {
              const signer = signers[r.name];
              return {
                role: r.name,
                name: signer?.name.trim() ?? "",
                email: signer?.email.trim() ?? "",
                ...checksBody(signer?.checks),
                ...(signer?.locale ? { locale: signer.locale } : {}),
                ...(signer?.inPerson && host ? { host } : {}),
              };
            }),
            ...(allowReassign ? { allowReassign: true } : {}),
            ...scheduleBody(schedule),
            send,
          },
        }),
      );
      invalidate(keys.requestLists(workspace.id));
      navigate(`/requests/${created.id}`);
    });
  const problem = (path: string) => error?.errors.find((e) => e.path === path)?.message;
  const shownInPlace = (path: string) =>
    /^(title|expiresAt|reminderEveryDays|recipients\[\d+\]\.(name|email|accessCode|emailCode))$/.test(path);
  const unplaced = error && !error.errors.every((e) => shownInPlace(e.path)) ? error : undefined;

  return (
    <form
      className="card narrow"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void submit(true);
      }}
      noValidate
    >
      {embeddedView?.templateId ? null : (
        <TemplateChoice
          templates={templates}
          value={templateId}
          onChoose={(id, name) => {
            setTemplateId(id);
            setTitle(name ?? title);
          }}
        />
      )}
      <RequestWording
        title={title}
        message={message}
        onTitle={setTitle}
        onMessage={setMessage}
        titleError={problem("title")}
      />
      {roles.map((role, i) => {
        const value = signers[role.name] ?? {
          name: "",
          email: "",
          checks: NO_CHECKS,
          locale: "",
          inPerson: false,
        };
        const set = (next: Partial<typeof value>) =>
          setSigners((before) => ({ ...before, [role.name]: { ...value, ...next } }));
        return (
          <fieldset key={role.name} className="signer">
            <legend>
              {role.name}{" "}
              <span className="muted small">
                · signs {role.order === 1 ? "first" : `in round ${role.order}`}
              </span>
            </legend>
            <TextField
              label="Name"
              autoComplete="off"
              value={value.name}
              onChange={(e) => set({ name: e.target.value })}
              error={problem(`recipients[${i}].name`)}
            />
            <TextField
              label="E-mail"
              type="email"
              autoComplete="off"
              value={value.email}
              onChange={(e) => set({ email: e.target.value })}
              error={problem(`recipients[${i}].email`)}
            />
            <SignerLanguage value={value.locale} onChange={(locale) => set({ locale })} />
            {host ? (
              <InPersonChoice checked={value.inPerson} onChange={(inPerson) => set({ inPerson })} />
            ) : null}
            <SignerChecks
              value={value.checks}
              onChange={(checks) => set({ checks })}
              error={(field) => problem(`recipients[${i}].${field}`)}
            />
          </fieldset>
        );
      })}
      <ReassignChoice checked={allowReassign} onChange={setAllowReassign} />
      <ScheduleChoice value={schedule} onChange={setSchedule} problem={problem} />
      {unplaced ? <ErrorNote error={unplaced} /> : null}
      <div className="dialog-actions">
        <BusyButton
          className="button secondary"
          busy={busy === "draft"}
          disabled={busy !== undefined}
          onClick={() => void submit(false)}
        >
          Save as draft
        </BusyButton>
        <BusyButton type="submit" busy={busy === "send"} disabled={busy !== undefined}>
          Send for signature
        </BusyButton>
      </div>
    </form>
  );
}
