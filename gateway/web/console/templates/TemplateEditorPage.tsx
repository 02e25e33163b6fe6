/**
 * Make or change a template: the PDF, its roles, and fields placed on its rendered pages. Nothing
 * is stored until Save; the service checks the whole template and every problem is shown at once.
 */
import { type FormEvent, useCallback, useId, useMemo, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { ok } from "../../shared/api-client";
import { api, downloadBytes, inWorkspace } from "../api";
import { useLeaveGuard } from "../leave-guard";
import { keys, useInvalidate } from "../queries";
import type { DocumentInfo, Template } from "../types";
import { BusyButton, ErrorNote, Show, TextField, useAction, useLoaded } from "../ui";
import { useWorkspace } from "../workspace";
import { FieldInspector } from "./FieldInspector";
import { FieldPages } from "./FieldPages";
import { addedByKeyboard, FieldPalette } from "./FieldPalette";
import {
  boxCaption,
  type EditedField,
  type EditedRole,
  fieldBody,
  kindOf,
  LABEL_NEEDED,
  newKey,
  roleColour,
  unlabelledFields,
} from "./field-kinds";
import { UploadDocument } from "./UploadDocument";

interface Draft {
  id?: string;
  name: string;
  description: string;
  document: DocumentInfo;
  roles: EditedRole[];
  fields: EditedField[];
}

/** A stored template as the editor works on it: roles with keys, fields pointing at them. */
function draftOf(template: Template, document: DocumentInfo): Draft {
  const roles = template.roles.map((r) => ({ key: newKey(), name: r.name, order: r.order }));
  const keyOf = new Map(roles.map((r) => [r.name, r.key]));
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    document,
    roles,
    // A field keeps its id as its key: conditions name the fields they depend on by it.
    // A text tag's cover is the service's to keep: the API takes none back.
    fields: template.fields.map(({ id, role, cover: _cover, ...f }) => ({
      ...f,
      key: id,
      type: kindOf(f.type).type,
      roleKey: keyOf.get(role) ?? "",
    })),
  };
}

/** `onSaved` hears each save (an embedded view tells its app). */
export function TemplateEditorPage({
  templateId,
  onSaved,
}: {
  templateId?: string;
  onSaved?: (templateId: string) => void;
}) {
  const workspace = useWorkspace();
  const [loaded, reload] = useLoaded(
    keys.templateDraft(workspace.id, templateId ?? ""),
    async () => {
      // A new template has nothing to read (and a read answers something, never undefined).
      if (!templateId) return null;
      const template = await ok(
        api.GET("/workspaces/{workspaceId}/templates/{templateId}", {
          params: { path: { workspaceId: workspace.id, templateId } },
        }),
      );
      const document = await ok(
        api.GET("/workspaces/{workspaceId}/documents/{documentId}", {
          params: { path: { workspaceId: workspace.id, documentId: template.documentId } },
        }),
      );
      return draftOf(template, document);
    },
    { seedsForm: true },
  );
  const [uploaded, setUploaded] = useState<DocumentInfo>();

  return (
    <section aria-labelledby="editor-title">
      <p className="crumb">
        <Link href="/templates">Templates</Link>
      </p>
      <h1 id="editor-title">{templateId ? "Edit template" : "New template"}</h1>
      <Show loaded={loaded} what="the template" onRetry={reload}>
        {(existing) =>
          existing ? (
            <Editor key={existing.id} initial={existing} onSaved={onSaved} />
          ) : uploaded ? (
            <Editor
              key={uploaded.id}
              onSaved={onSaved}
              initial={{
                name: uploaded.filename.replace(/\.pdf$/i, ""),
                description: "",
                document: uploaded,
                roles: [{ key: newKey(), name: "Signer", order: 1 }],
                fields: [],
              }}
            />
          ) : (
            <UploadDocument onUploaded={setUploaded} />
          )
        }
      </Show>
    </section>
  );
}

function Editor({ initial, onSaved }: { initial: Draft; onSaved?: (templateId: string) => void }) {
  const workspace = useWorkspace();
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState(initial);
  const [selected, setSelected] = useState<string>();
  const [activeRole, setActiveRole] = useState(initial.roles[0]?.key ?? "");
  const { busy, error, run } = useAction();
  const invalidate = useInvalidate();
  // Problems found before asking the service (a field the signer could not tell the meaning of).
  const [unsaved, setUnsaved] = useState<{ path: string; message: string }[]>([]);
  const [saved, setSaved] = useState(false);
  const [dirty, setDirty] = useState(false);
  const palette = useRef<HTMLUListElement>(null);

  const load = useCallback(
    () => downloadBytes(inWorkspace(workspace.id, `/documents/${draft.document.id}/download`)),
    [workspace.id, draft.document.id],
  );

  useLeaveGuard(dirty);

  const change = (next: Partial<Draft>) => {
    setDraft((before) => ({ ...before, ...next }));
    setUnsaved([]);
    setDirty(true);
    setSaved(false);
  };
  const updateField = (field: EditedField) =>
    change({ fields: draft.fields.map((f) => (f.key === field.key ? field : f)) });
  const addField = (field: EditedField) => {
    change({ fields: [...draft.fields, field] });
    setSelected(field.key);
  };
  const removeField = (key: string) => {
    change({ fields: draft.fields.filter((f) => f.key !== key) });
    setSelected(undefined);
    // The removed box had focus: keep the keyboard user in the editor.
    palette.current?.querySelector("button")?.focus();
  };
  const addByKeyboard = (type: EditedField["type"]) =>
    addField(
      addedByKeyboard(type, draft.fields, draft.document.pages[0]?.height ?? 792, activeRole, newKey()),
    );

  const problems = unsaved.length > 0 ? unsaved : (error?.errors ?? []);
  const invalid = useMemo(() => {
    const keys = new Set<string>();
    for (const p of problems) {
      const index = /^fields\[(\d+)\]/.exec(p.path)?.[1];
      const field = index === undefined ? undefined : draft.fields[Number(index)];
      if (field) keys.add(field.key);
    }
    return keys;
  }, [problems, draft.fields]);

  const roleName = (key: string) => draft.roles.find((r) => r.key === key)?.name ?? "";
  const save = (event: FormEvent) => {
    event.preventDefault();
    const unlabelled = unlabelledFields(draft.fields);
    if (unlabelled.length > 0) {
      setUnsaved(unlabelled.map(({ index }) => ({ path: `fields[${index}].label`, message: LABEL_NEEDED })));
      setSelected(unlabelled[0]?.field.key);
      return;
    }
    const body = {
      name: draft.name.trim(),
      description: draft.description.trim(),
      documentId: draft.document.id,
      roles: draft.roles.map((r) => ({ name: r.name.trim(), order: r.order })),
      fields: draft.fields.map((f) => fieldBody(f, roleName(f.roleKey).trim())),
    };
    void run("save", async () => {
      const template = draft.id
        ? await ok(
            api.PATCH("/workspaces/{workspaceId}/templates/{templateId}", {
              params: { path: { workspaceId: workspace.id, templateId: draft.id } },
              body,
            }),
          )
        : await ok(
            api.POST("/workspaces/{workspaceId}/templates", {
              params: { path: { workspaceId: workspace.id } },
              body,
            }),
          );
      invalidate(keys.templates(workspace.id));
      setDraft((before) => ({ ...before, id: template.id }));
      setDirty(false);
      setSaved(true);
      onSaved?.(template.id);
      if (!draft.id) navigate(`/templates/${template.id}`, { replace: true });
    });
  };

  const field = draft.fields.find((f) => f.key === selected);

  return (
    <form className="editor" onSubmit={save} noValidate>
      <div className="editor-bar">
        {problems.length > 0 ? (
          <div className="note error" role="alert" data-testid="template-problems">
            <p>
              <strong>The template cannot be saved yet:</strong>
            </p>
            <ul>
              {problems.map((p) => (
                <li key={p.path + p.message}>{describeProblem(p.path, p.message, draft)}</li>
              ))}
            </ul>
          </div>
        ) : error ? (
          <ErrorNote error={error} />
        ) : null}
        <div aria-live="polite">{saved ? <p className="note success small">Saved.</p> : null}</div>
        <div className="button-row">
          <BusyButton type="submit" busy={busy !== undefined}>
            {draft.id ? "Save changes" : "Save template"}
          </BusyButton>
          {draft.id && !dirty ? (
            <Link href={`/requests/new?templateId=${draft.id}`} className="button secondary">
              Use in a request
            </Link>
          ) : null}
        </div>
      </div>
      <aside className="editor-side" aria-label="Template settings">
        <FieldPalette
          signers={draft.roles}
          active={activeRole}
          onActive={setActiveRole}
          onAdd={addByKeyboard}
          listRef={palette}
        />

        {field ? (
          <FieldInspector
            field={field}
            fields={draft.fields}
            labelError={unsaved.length > 0 && unlabelledFields([field]).length > 0 ? LABEL_NEEDED : undefined}
            signers={draft.roles}
            onChange={updateField}
            onRemove={() => removeField(field.key)}
          />
        ) : null}

        <div className="card">
          <TextField
            label="Name"
            value={draft.name}
            onChange={(e) => change({ name: e.target.value })}
            error={error?.about("name")}
          />
          <TextField
            label="Description"
            optional
            value={draft.description}
            onChange={(e) => change({ description: e.target.value })}
          />
          <p className="muted small">
            {draft.document.filename} · {draft.document.pageCount} page
            {draft.document.pageCount === 1 ? "" : "s"}
          </p>
        </div>

        <RolesEditor
          roles={draft.roles}
          active={activeRole}
          onActive={setActiveRole}
          onChange={(roles) => {
            // A removed role takes its fields with it: they would have nobody to fill them.
            const kept = new Set(roles.map((r) => r.key));
            change({ roles, fields: draft.fields.filter((f) => kept.has(f.roleKey)) });
          }}
        />
      </aside>
      <div className="editor-main">
        <FieldPages
          load={load}
          pages={draft.document.pages}
          fields={draft.fields}
          roles={draft.roles}
          selected={selected}
          invalid={invalid}
          activeRole={activeRole}
          onSelect={setSelected}
          onChange={updateField}
          onAdd={addField}
          onRemove={removeField}
        />
      </div>
    </form>
  );
}

/** "fields[3].role: …" in words a user can act on. */
function describeProblem(path: string, message: string, draft: Draft): string {
  const index = /^fields\[(\d+)\]/.exec(path)?.[1];
  if (index !== undefined) {
    const field = draft.fields[Number(index)];
    const role = draft.roles.find((r) => r.key === field?.roleKey)?.name;
    if (field) {
      const caption = boxCaption(field);
      return `${kindOf(field.type).label}${caption ? ` “${caption}”` : ""} on page ${field.page} (${role || "no role"}): ${message}`;
    }
  }
  const role = /^roles\[(\d+)\]/.exec(path)?.[1];
  if (role !== undefined) return `Role “${draft.roles[Number(role)]?.name ?? ""}”: ${message}`;
  return path ? `${path}: ${message}` : message;
}

function RolesEditor({
  roles,
  active,
  onActive,
  onChange,
}: {
  roles: EditedRole[];
  active: string;
  onActive: (key: string) => void;
  onChange: (roles: EditedRole[]) => void;
}) {
  const [newRole, setNewRole] = useState("");
  // Said once a role is added: whose the new fields still are, for adding one never changes that.
  const [added, setAdded] = useState<string>();
  const newId = useId();
  const pickName = useId();
  const taken = roles.some((r) => r.name.trim().toLowerCase() === newRole.trim().toLowerCase());
  const activeName = roles.find((r) => r.key === active)?.name || "(unnamed)";
  const add = () => {
    const name = newRole.trim();
    if (!name || taken) return;
    const role = { key: newKey(), name, order: Math.max(0, ...roles.map((r) => r.order)) + 1 };
    onChange([...roles, role]);
    setAdded(name);
    setNewRole("");
  };
  const update = (key: string, change: Partial<EditedRole>) =>
    onChange(roles.map((r) => (r.key === key ? { ...r, ...change } : r)));
  return (
    <div className="card">
      <h2>Roles</h2>
      <p className="muted small">
        Who signs. The order says who is asked first; roles with the same number are asked together. The
        chosen role gets the fields you add next.
      </p>
      <div className="roles">
        <div className="role-row role-head" aria-hidden="true">
          <span className="role-pick" />
          <span className="role-swatch" />
          <span className="grow">Role</span>
          <span className="order-head">Order</span>
          <span className="icon-space" />
        </div>
        {roles.map((role, i) => (
          <div key={role.key} className="role-row">
            {/* Whose the fields added next are: chosen here or under Fields, never by adding a role. */}
            <input
              type="radio"
              className="role-pick"
              name={pickName}
              checked={role.key === active}
              onChange={() => onActive(role.key)}
              aria-label={`New fields are for ${role.name || `role ${i + 1}`}`}
              data-testid="active-role"
            />
            <span className="role-swatch" style={{ background: roleColour(i) }} aria-hidden="true" />
            <input
              className="input compact"
              value={role.name}
              aria-label={`Name of role ${i + 1}`}
              onChange={(e) => update(role.key, { name: e.target.value })}
            />

            <input
              className="input compact order"
              type="number"
              min={1}
              value={role.order}
              aria-label={`Signing order of role ${i + 1}`}
              onChange={(e) =>
                update(role.key, { order: Math.max(1, Math.trunc(Number(e.target.value)) || 1) })
              }
            />
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove role ${role.name || i + 1} and its fields`}
              disabled={roles.length === 1}
              onClick={() => {
                const rest = roles.filter((r) => r.key !== role.key);
                onChange(rest);
                if (active === role.key) onActive(rest[0]?.key ?? "");
              }}
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
        ))}
      </div>
      <div className="inline-form">
        <div className="grow">
          <label className="stacked-label small" htmlFor={newId}>
            Add a role
          </label>
          <input
            id={newId}
            className="input"
            value={newRole}
            placeholder="Witness"
            onChange={(e) => setNewRole(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
          />
        </div>
        <button type="button" className="button secondary" onClick={add} disabled={!newRole.trim() || taken}>
          Add
        </button>
      </div>
      {taken && newRole.trim() ? <p className="field-error">There is a role of that name already.</p> : null}
      <div aria-live="polite">
        {added ? (
          <p className="muted small" data-testid="role-added">
            <bdi>{added}</bdi> added. New fields are still for <bdi>{activeName}</bdi>: choose{" "}
            <bdi>{added}</bdi> to place theirs.
          </p>
        ) : null}
      </div>
    </div>
  );
}
