/**
 * A one-off request without a template: upload PDFs (or pick uploaded ones), add recipients in their
 * signing order, place each signer's fields on the pages, review, send — or keep it as a draft, or
 * save it as a template to send again. Nothing is stored but the PDFs until one of those.
 */

import { isolate } from "@countersign/domain/web";
import { type FormEvent, useMemo, useRef, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { ok } from "../../shared/api-client";
import { Modal } from "../../shared/Modal";
import { api, asApiError, downloadBytes, inWorkspace } from "../api";
import { embeddedView } from "../embedded/view";
import { useLeaveGuard } from "../leave-guard";
import { keys, useInvalidate } from "../queries";
import { FieldInspector } from "../templates/FieldInspector";
import { FieldPages } from "../templates/FieldPages";
import { addedByKeyboard, FieldPalette } from "../templates/FieldPalette";
import {
  type EditedField,
  kindOf,
  LABEL_NEEDED,
  newKey,
  roleColour,
  unlabelledFields,
} from "../templates/field-kinds";
import { UploadDocument } from "../templates/UploadDocument";
import type { DocumentInfo, Template } from "../types";
import { BusyButton, ErrorNote, SelectField, Show, TextField, useAction, useLoaded } from "../ui";
import { useWorkspace } from "../workspace";
import { InPersonChoice, useHost } from "./InPersonChoice";
import { RequestWording } from "./RequestWording";
import { NO_SCHEDULE, ScheduleChoice, type ScheduleValues, scheduleBody } from "./ScheduleChoice";
import { ReassignChoice, SignerChecks } from "./SignerChecks";
import { SignerLanguage } from "./SignerLanguage";
import {
  type DraftRecipient,
  draftFrom,
  type PlacedField,
  problemsBefore,
  requestBody,
  signersOf,
  type TagField,
  templateBody,
  withTagSigners,
} from "./send-documents";
import { NO_CHECKS } from "./signer-checks";

/** What the composer starts from: a request copied (`?from=<id>`), or nothing. */
interface Start {
  documents: DocumentInfo[];
  title: string;
  message: string;
  recipients: DraftRecipient[];
  fields: PlacedField[];
}

const EMPTY: Start = { documents: [], title: "", message: "", recipients: [], fields: [] };

export function SendDocumentsPage() {
  const workspace = useWorkspace();
  const from = new URLSearchParams(useSearch()).get("from") ?? "";
  const [start, reload] = useLoaded(
    keys.requestCopy(workspace.id, from),
    async (): Promise<Start> => {
      if (!from) return EMPTY;
      const request = await ok(
        api.GET("/workspaces/{workspaceId}/signature-requests/{requestId}", {
          params: { path: { workspaceId: workspace.id, requestId: from } },
        }),
      );
      const documents = await Promise.all(
        request.documentIds.map((documentId) =>
          ok(
            api.GET("/workspaces/{workspaceId}/documents/{documentId}", {
              params: { path: { workspaceId: workspace.id, documentId } },
            }),
          ),
        ),
      );
      return { documents, ...draftFrom(request, newKey) };
    },
    { seedsForm: true },
  );
  return (
    <section aria-labelledby="send-documents-title">
      <p className="crumb">
        <Link href="/requests">Signature requests</Link>
      </p>
      <h1 id="send-documents-title">{from ? "Send again" : "Send documents"}</h1>
      <p className="muted">
        {from
          ? "A new request with the documents, recipients and fields of the one you copied: correct what needs correcting, then send it."
          : "Without a template: the documents, who signs them and in what order, and where each one signs."}{" "}
        {from ? null : <Link href="/requests/new">Start from a template instead</Link>}
      </p>
      <Show loaded={start} what="the request to copy" onRetry={reload}>
        {(initial) => <Composer key={from} start={initial} />}
      </Show>
    </section>
  );
}

function Composer({ start }: { start: Start }) {
  const workspace = useWorkspace();
  const [, navigate] = useLocation();
  const [documents, setDocuments] = useState<DocumentInfo[]>(start.documents);
  const [recipients, setRecipients] = useState<DraftRecipient[]>(() =>
    start.recipients.length > 0
      ? start.recipients
      : [{ key: newKey(), name: "", email: "", kind: "signer", order: 1 }],
  );
  const [fields, setFields] = useState<PlacedField[]>(start.fields);
  const [tags, setTags] = useState<TagField[]>([]);
  const [tagProblems, setTagProblems] = useState<string[]>([]);
  const [title, setTitle] = useState(start.title);
  const [message, setMessage] = useState(start.message);
  const [allowReassign, setAllowReassign] = useState(false);
  const [schedule, setSchedule] = useState<ScheduleValues>(NO_SCHEDULE);
  const [selected, setSelected] = useState<string>();
  const [active, setActive] = useState(recipients.find((r) => r.kind === "signer")?.key ?? "");
  const [checked, setChecked] = useState<{ path: string; message: string }[]>([]);
  const [reviewing, setReviewing] = useState(false);
  const [savedTemplate, setSavedTemplate] = useState<Template>();
  const [dirty, setDirty] = useState(false);
  const { busy, error, run } = useAction();
  const invalidate = useInvalidate();
  const palette = useRef<HTMLUListElement>(null);
  const signers = signersOf(recipients);

  useLeaveGuard(dirty);

  const changed = () => {
    setDirty(true);
    setChecked([]);
    setSavedTemplate(undefined);
  };
  const addDocument = (document: DocumentInfo) => {
    setDocuments((before) => (before.some((d) => d.id === document.id) ? before : [...before, document]));
    setTitle((before) => before || document.filename.replace(/\.pdf$/i, ""));
    changed();
    void readTags(document);
  };
  /** The fields the document's text tags place, and a signer for each role they name. */
  const readTags = async (document: DocumentInfo) => {
    try {
      const read = await ok(
        api.GET("/workspaces/{workspaceId}/documents/{documentId}/text-tags", {
          params: { path: { workspaceId: workspace.id, documentId: document.id } },
        }),
      );
      const found = read.fields.map((f) => ({ ...f, documentId: document.id }));
      setTags((before) => [...before.filter((t) => t.documentId !== document.id), ...found]);
      setRecipients((before) => withTagSigners(before, found, fields, newKey));
    } catch (err) {
      const problem = asApiError(err);
      const why = problem.errors.length > 0 ? problem.errors.map((e) => e.message) : [problem.detail];
      setTagProblems((before) => [...before, ...why.map((w) => `${document.filename}: ${w}`)]);
    }
  };
  const removeDocument = (id: string) => {
    setDocuments((before) => before.filter((d) => d.id !== id));
    setFields((before) => before.filter((f) => f.documentId !== id));
    setTags((before) => before.filter((t) => t.documentId !== id));
    changed();
  };
  const setRecipientList = (next: DraftRecipient[]) => {
    setRecipients(next);
    // A recipient removed, or no longer a signer, takes their fields along: nobody would fill them.
    const signing = new Set(next.filter((r) => r.kind === "signer").map((r) => r.key));
    setFields((before) => before.filter((f) => signing.has(f.roleKey)));
    if (!signing.has(active)) setActive([...signing][0] ?? "");
    changed();
  };
  const updateField = (field: PlacedField) => {
    setFields((before) => before.map((f) => (f.key === field.key ? field : f)));
    changed();
  };
  const addField = (field: PlacedField) => {
    setFields((before) => [...before, field]);
    setSelected(field.key);
    changed();
  };
  const removeField = (key: string) => {
    setFields((before) => before.filter((f) => f.key !== key));
    setSelected(undefined);
    palette.current?.querySelector("button")?.focus();
    changed();
  };
  const addByKeyboard = (type: EditedField["type"]) => {
    const first = documents[0];
    if (!first) return;
    const beside = fields.filter((f) => f.documentId === first.id);
    const placed = addedByKeyboard(type, beside, first.pages[0]?.height ?? 792, active, newKey());
    addField({ ...placed, documentId: first.id });
  };

  const problems = checked.length > 0 ? checked : (error?.errors ?? []);
  const problem = (path: string) => problems.find((p) => p.path === path)?.message;
  const invalid = useMemo(() => {
    const keys = new Set<string>();
    for (const p of problems) {
      const index = /^fields\[(\d+)\]/.exec(p.path)?.[1];
      const field = index === undefined ? undefined : fields[Number(index)];
      if (field) keys.add(field.key);
    }
    return keys;
  }, [problems, fields]);

  /** Checks what the service would refuse and the signer could not read; whether all is well. */
  const ready = () => {
    const found = problemsBefore(documents, recipients, fields, tags);
    setChecked(found);
    const unlabelled = found.find((p) => p.message === LABEL_NEEDED);
    if (unlabelled) setSelected(fields[Number(/\d+/.exec(unlabelled.path)?.[0])]?.key);
    return found.length === 0;
  };
  const submit = (send: boolean) =>
    run(send ? "send" : "draft", async () => {
      const created = await ok(
        api.POST("/workspaces/{workspaceId}/signature-requests", {
          params: { path: { workspaceId: workspace.id } },
          body: {
            ...requestBody({ title, message, documents, recipients, fields, send, allowReassign, tags }),
            ...scheduleBody(schedule),
          },
        }),
      );
      setDirty(false);
      invalidate(keys.requestLists(workspace.id));
      navigate(`/requests/${created.id}`);
    });
  const saveAsTemplate = () => {
    if (!ready()) return;
    void run("template", async () => {
      const [document] = documents;
      if (!document) return;
      const template = await ok(
        api.POST("/workspaces/{workspaceId}/templates", {
          params: { path: { workspaceId: workspace.id } },
          body: templateBody({ title, document, recipients, fields, tags }),
        }),
      );
      invalidate(keys.templates(workspace.id));
      setSavedTemplate(template);
    });
  };

  // One loader a document for as long as the page lives: a new one would make its pages download
  // and draw again whenever another document is added or removed.
  const loaders = useRef(new Map<string, () => Promise<ArrayBuffer>>()).current;
  const loaderOf = (documentId: string) => {
    let load = loaders.get(documentId);
    if (!load) {
      load = () => downloadBytes(inWorkspace(workspace.id, `/documents/${documentId}/download`));
      loaders.set(documentId, load);
    }
    return load;
  };
  const field = fields.find((f) => f.key === selected);

  if (documents.length === 0) {
    return (
      <div className="narrow">
        <DocumentPicker chosen={documents} onAdd={addDocument} />
      </div>
    );
  }
  return (
    <form
      className="editor"
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        if (ready()) setReviewing(true);
      }}
    >
      <div className="editor-bar">
        {problems.length > 0 ? (
          <div className="note error" role="alert" data-testid="request-problems">
            <p>
              <strong>The request cannot be sent yet:</strong>
            </p>
            <ul>
              {problems.map((p) => (
                <li key={p.path + p.message}>{describe(p.path, p.message, fields, recipients)}</li>
              ))}
            </ul>
          </div>
        ) : error ? (
          <ErrorNote error={error} />
        ) : null}
        <TagNotes tags={tags} problems={tagProblems} documents={documents} />
        <div aria-live="polite">
          {savedTemplate ? (
            <p className="note success small">
              Saved as the template <Link href={`/templates/${savedTemplate.id}`}>{savedTemplate.name}</Link>.
            </p>
          ) : null}
        </div>
        <div className="button-row">
          <BusyButton type="submit" busy={busy === "send"} disabled={!!busy}>
            Review and send
          </BusyButton>
          <BusyButton
            className="button secondary"
            busy={busy === "draft"}
            disabled={!!busy}
            onClick={() => void submit(false)}
          >
            Save as draft
          </BusyButton>
          {documents.length === 1 && !embeddedView ? (
            <BusyButton
              className="button secondary"
              busy={busy === "template"}
              disabled={!!busy}
              onClick={saveAsTemplate}
            >
              Save as template
            </BusyButton>
          ) : null}
        </div>
      </div>
      <aside className="editor-side" aria-label="Request settings">
        <FieldPalette
          signers={signers}
          active={active}
          onActive={setActive}
          onAdd={addByKeyboard}
          listRef={palette}
        />
        {field ? (
          <FieldInspector
            field={field}
            fields={fields}
            labelError={checked.length > 0 && unlabelledFields([field]).length > 0 ? LABEL_NEEDED : undefined}
            signers={signers}
            onChange={(f) => updateField({ ...f, documentId: field.documentId })}
            onRemove={() => removeField(field.key)}
          />
        ) : null}
        <div className="card">
          <RequestWording
            title={title}
            message={message}
            onTitle={(changedTitle) => {
              setTitle(changedTitle);
              changed();
            }}
            onMessage={(changedMessage) => {
              setMessage(changedMessage);
              changed();
            }}
            titleError={problem("title")}
            messageLabel="Message to recipients"
            rows={2}
          />
          <ReassignChoice checked={allowReassign} onChange={setAllowReassign} />
          <ScheduleChoice
            value={schedule}
            onChange={(next) => {
              setSchedule(next);
              changed();
            }}
            problem={problem}
          />
        </div>
        <RecipientsEditor
          recipients={recipients}
          problem={problem}
          onActive={setActive}
          onChange={setRecipientList}
        />
        <DocumentList documents={documents} fields={fields} onRemove={removeDocument} onAdd={addDocument} />
      </aside>
      <div className="editor-main">
        {documents.map((document) => (
          <section key={document.id} className="document-pages" aria-label={document.filename}>
            {documents.length > 1 ? <h2 className="document-title">{document.filename}</h2> : null}
            <FieldPages
              load={loaderOf(document.id)}
              pages={document.pages}
              fields={fields.filter((f) => f.documentId === document.id)}
              roles={signers}
              selected={selected}
              invalid={invalid}
              activeRole={active}
              onSelect={setSelected}
              onChange={(f) => updateField({ ...f, documentId: document.id })}
              onAdd={(f) => addField({ ...f, documentId: document.id })}
              onRemove={removeField}
            />
          </section>
        ))}
      </div>
      {reviewing ? (
        <Review
          title={title}
          documents={documents}
          recipients={recipients}
          fields={fields}
          busy={busy === "send"}
          onClose={() => setReviewing(false)}
          onSend={async () => {
            const sent = await submit(true);
            if (!sent) setReviewing(false);
          }}
        />
      ) : null}
    </form>
  );
}

/** Upload a PDF, or take one uploaded before. */
function DocumentPicker({ chosen, onAdd }: { chosen: DocumentInfo[]; onAdd: (d: DocumentInfo) => void }) {
  const workspace = useWorkspace();
  // An embedded view sees the documents its own user uploads, not the workspace's.
  const [uploaded] = useLoaded(keys.documentList(workspace.id, { pageSize: 100 }), () =>
    embeddedView
      ? Promise.resolve({ items: [] as DocumentInfo[] })
      : ok(
          api.GET("/workspaces/{workspaceId}/documents", {
            params: { path: { workspaceId: workspace.id }, query: { pageSize: 100 } },
          }),
        ),
  );
  const offered =
    uploaded.state === "ready"
      ? uploaded.value.items.filter((d) => d.kind === "original" && !chosen.some((c) => c.id === d.id))
      : [];
  return (
    <>
      <UploadDocument
        onUploaded={onAdd}
        title={chosen.length === 0 ? "The documents to sign" : "Add a document"}
        hint="A document everyone signs — a PDF, or a Word document, ODT, RTF or image, made a PDF; add as many as the request needs. Fields are placed on them next."
      />
      {offered.length > 0 ? (
        <div className="card">
          <SelectField
            label="Or take one uploaded before"
            value=""
            options={[
              { value: "", label: "Choose a document…" },
              ...offered.map((d) => ({ value: d.id, label: `${d.filename} (${pagesOf(d)})` })),
            ]}
            onChange={(id) => {
              const document = offered.find((d) => d.id === id);
              if (document) onAdd(document);
            }}
          />
        </div>
      ) : null}
    </>
  );
}

const pagesOf = (d: DocumentInfo) => `${d.pageCount} page${d.pageCount === 1 ? "" : "s"}`;

function DocumentList({
  documents,
  fields,
  onRemove,
  onAdd,
}: {
  documents: DocumentInfo[];
  fields: PlacedField[];
  onRemove: (id: string) => void;
  onAdd: (d: DocumentInfo) => void;
}) {
  const [adding, setAdding] = useState(false);
  return (
    <div className="card">
      <h2>Documents</h2>
      <ul className="plain-list" data-testid="documents">
        {documents.map((d) => {
          const placed = fields.filter((f) => f.documentId === d.id).length;
          return (
            <li key={d.id} className="document-row">
              <span className="grow">
                {d.filename}
                <span className="muted small">
                  {" "}
                  · {pagesOf(d)} · {placed} field{placed === 1 ? "" : "s"}
                </span>
              </span>
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove ${d.filename} and its fields`}
                onClick={() => onRemove(d.id)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          );
        })}
      </ul>
      {adding ? (
        <DocumentPicker
          chosen={documents}
          onAdd={(d) => {
            onAdd(d);
            setAdding(false);
          }}
        />
      ) : (
        <button type="button" className="button secondary small" onClick={() => setAdding(true)}>
          Add a document
        </button>
      )}
    </div>
  );
}

function RecipientsEditor({
  recipients,
  problem,
  onActive,
  onChange,
}: {
  recipients: DraftRecipient[];
  problem: (path: string) => string | undefined;
  onActive: (key: string) => void;
  onChange: (next: DraftRecipient[]) => void;
}) {
  const host = useHost();
  const update = (key: string, change: Partial<DraftRecipient>) =>
    onChange(recipients.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const add = () => {
    const recipient: DraftRecipient = {
      key: newKey(),
      name: "",
      email: "",
      kind: "signer",
      order: Math.max(0, ...recipients.map((r) => r.order)) + 1,
    };
    onChange([...recipients, recipient]);
    onActive(recipient.key);
  };
  let signerIndex = -1;
  return (
    <div className="card">
      <h2>Recipients</h2>
      <p className="muted small">
        The order says who is asked first; recipients with the same number are asked together.
      </p>
      <div className="recipients">
        {recipients.map((r, i) => {
          if (r.kind === "signer") signerIndex += 1;
          const colour = r.kind === "signer" ? roleColour(signerIndex) : "transparent";
          const who = r.name.trim() || `recipient ${i + 1}`;
          return (
            <div key={r.key} className="recipient-row" data-testid="recipient">
              <div className="recipient-head">
                <span className="role-swatch" style={{ background: colour }} aria-hidden="true" />
                <strong className="grow">{who}</strong>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove ${who}`}
                  disabled={recipients.length === 1}
                  onClick={() => onChange(recipients.filter((x) => x.key !== r.key))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </div>
              <TextField
                label="Name"
                autoComplete="off"
                value={r.name}
                onChange={(e) => update(r.key, { name: e.target.value })}
                error={problem(`recipients[${i}].name`)}
              />
              <TextField
                label="E-mail"
                type="email"
                autoComplete="off"
                value={r.email}
                onChange={(e) => update(r.key, { email: e.target.value })}
                error={problem(`recipients[${i}].email`)}
              />
              <div className="inline-form">
                <SelectField
                  label="Does"
                  small
                  value={r.kind}
                  options={[
                    { value: "signer", label: "Signs" },
                    { value: "approver", label: "Approves" },
                    { value: "viewer", label: "Must view" },
                    { value: "cc", label: "Gets a copy" },
                  ]}
                  onChange={(kind) => update(r.key, { kind: kind as DraftRecipient["kind"] })}
                />
                <div>
                  <TextField
                    label="Signing order"
                    type="number"
                    min={1}
                    className="input compact order"
                    value={String(r.order)}
                    onChange={(e) =>
                      update(r.key, { order: Math.max(1, Math.trunc(Number(e.target.value)) || 1) })
                    }
                  />
                </div>
              </div>
              <SignerLanguage
                small
                value={r.locale ?? ""}
                onChange={(locale) => update(r.key, { locale: locale || undefined })}
              />
              {r.kind === "signer" && !r.clientUserId && host ? (
                <InPersonChoice
                  checked={r.host !== undefined}
                  onChange={(inPerson) => update(r.key, { host: inPerson ? host : undefined })}
                />
              ) : null}
              {r.kind === "signer" ? (
                <SignerChecks
                  value={r.checks ?? NO_CHECKS}
                  onChange={(checks) => update(r.key, { checks })}
                  error={(field) => problem(`recipients[${i}].${field}`)}
                />
              ) : null}
              {r.clientUserId ? (
                <p className="muted small">
                  Signs in your app (embedded signing), as in the request you copied: no e-mail is sent to
                  them.{" "}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => update(r.key, { clientUserId: undefined })}
                  >
                    E-mail them a link instead
                  </button>
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      <button type="button" className="button secondary small" onClick={add}>
        Add recipient
      </button>
    </div>
  );
}

/** What will be sent, to whom and in what order, before it is. */
function Review({
  title,
  documents,
  recipients,
  fields,
  busy,
  onClose,
  onSend,
}: {
  title: string;
  documents: DocumentInfo[];
  recipients: DraftRecipient[];
  fields: PlacedField[];
  busy: boolean;
  onClose: () => void;
  onSend: () => Promise<void>;
}) {
  const rounds = [...new Set(recipients.map((r) => r.order))].sort((a, b) => a - b);
  return (
    <Modal
      title={`Send “${isolate(title.trim())}”?`}
      description={`${documents.length} document${documents.length === 1 ? "" : "s"}: ${documents.map((d) => isolate(d.filename)).join(", ")}`}
      onClose={onClose}
      testId="review-dialog"
      busy={busy}
    >
      <ol className="review-rounds">
        {rounds.map((round) => (
          <li key={round}>
            {rounds.length > 1 ? (
              <strong>{round === rounds[0] ? "First" : `Then (order ${round})`}: </strong>
            ) : null}
            {recipients
              .filter((r) => r.order === round)
              .map((r) => {
                const count = fields.filter((f) => f.roleKey === r.key).length;
                const does =
                  r.kind === "cc"
                    ? "gets a copy"
                    : r.kind === "viewer"
                      ? "must view"
                      : r.kind === "approver"
                        ? "approves"
                        : `signs, ${count} field${count === 1 ? "" : "s"}`;
                return `${r.name.trim()} <${r.email.trim()}> (${does})`;
              })
              .join("; ")}
          </li>
        ))}
      </ol>
      <p className="muted small">Each is e-mailed a link when it is their turn.</p>
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
          Back
        </button>
        <BusyButton busy={busy} onClick={() => void onSend()}>
          Send for signature
        </BusyButton>
      </div>
    </Modal>
  );
}

/** "fields[3].label: …" in words a sender can act on. */
function describe(
  path: string,
  message: string,
  fields: PlacedField[],
  recipients: DraftRecipient[],
): string {
  const index = /^fields\[(\d+)\]/.exec(path)?.[1];
  const field = index === undefined ? undefined : fields[Number(index)];
  if (field) {
    const who = recipients.find((r) => r.key === field.roleKey)?.name.trim() || "an unnamed signer";
    return `${kindOf(field.type).label} on page ${field.page} (${who}): ${message}`;
  }
  const recipient = /^recipients\[(\d+)\]/.exec(path)?.[1];
  if (recipient !== undefined) {
    const r = recipients[Number(recipient)];
    return `${r?.name.trim() || `Recipient ${Number(recipient) + 1}`}: ${message}`;
  }
  return path ? `${path}: ${message}` : message;
}

/**
 * What the documents' text tags place, said before sending: the service places those fields where
 * the tags are when the request is made, and paints the tags white; tags it cannot read are listed.
 */
function TagNotes({
  tags,
  problems,
  documents,
}: {
  tags: readonly TagField[];
  problems: readonly string[];
  documents: readonly DocumentInfo[];
}) {
  if (tags.length === 0 && problems.length === 0) return null;
  const nameOf = new Map(documents.map((d) => [d.id, d.filename]));
  return (
    <div className="stack" data-testid="text-tags">
      {tags.length > 0 ? (
        <div className="note info small">
          <p>
            <strong>
              {tags.length === 1 ? "1 field" : `${tags.length} fields`} from text tags in the documents
            </strong>{" "}
            — placed where their tags are when you send, the tags painted white:
          </p>
          <ul>
            {tags.map((t, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a document's tags are read once, in page order.
              <li key={`${t.documentId}-${i}`}>
                {`${kindOf(t.type).label.toLowerCase()}${t.label ? ` “${t.label}”` : ""} for ${t.role}${t.required ? "" : " (optional)"}, ${nameOf.get(t.documentId) ?? "document"} page ${t.page}`}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {problems.length > 0 ? (
        <div className="note error small" role="alert">
          <p>
            <strong>Text tags that cannot be used</strong> — fix them in the document and upload it again:
          </p>
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
