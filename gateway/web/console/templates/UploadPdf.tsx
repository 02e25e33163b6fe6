/** Choose or drop a PDF; it is uploaded at once and handed to the page that asked for it. */
import { type DragEvent, useId, useState } from "react";
import { inWorkspace, upload } from "../api";
import type { DocumentInfo } from "../types";
import { ErrorNote, useAction } from "../ui";
import { useWorkspace } from "../workspace";

const MAX_BYTES = 25 * 1024 * 1024;

export function UploadPdf({
  onUploaded,
  title = "Start from a PDF",
  hint = "The document everyone signs. Fields are placed on it in the next step.",
}: {
  onUploaded: (doc: DocumentInfo) => void;
  title?: string;
  hint?: string;
}) {
  const workspace = useWorkspace();
  const { busy, error, run, clearError } = useAction();
  const [refused, setRefused] = useState<string>();
  const [sent, setSent] = useState(0);
  const [over, setOver] = useState(false);
  const inputId = useId();

  const take = async (file: File | undefined) => {
    if (!file) return;
    clearError();
    setRefused(undefined);
    if (file.type && file.type !== "application/pdf") {
      setRefused(`${file.name} is not a PDF. Choose a .pdf file.`);
      return;
    }
    if (file.size > MAX_BYTES) {
      setRefused(`${file.name} is larger than 25 MB, the most a document may be.`);
      return;
    }
    setSent(0);
    await run(file.name, async () => {
      const path = inWorkspace(workspace.id, `/documents/upload?filename=${encodeURIComponent(file.name)}`);
      onUploaded(await upload<DocumentInfo>(path, file, "application/pdf", setSent));
    });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void take(event.dataTransfer.files[0]);
  };

  return (
    <div className="card">
      <h2>{title}</h2>
      <p className="muted">{hint}</p>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is the pointer path; the file input is the keyboard one. */}
      <div
        className={`drop-zone${over ? " over" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        {busy ? (
          <div className="upload-progress">
            <p role="status">
              <span className="spinner" aria-hidden="true" />{" "}
              {sent < 1 ? `Uploading ${busy}…` : `Checking ${busy}…`}
            </p>
            <progress max={1} value={sent} aria-label={`Upload of ${busy}`} />
          </div>
        ) : (
          <>
            <p>Drop a PDF here, or</p>
            <label htmlFor={inputId} className="button primary">
              Choose a PDF
            </label>
            <input
              id={inputId}
              className="visually-hidden"
              type="file"
              accept="application/pdf,.pdf"
              data-testid="pdf-input"
              onChange={(e) => void take(e.target.files?.[0])}
            />
            <p className="muted small">Up to 25 MB.</p>
          </>
        )}
      </div>
      {refused ? (
        <p className="field-error" role="alert">
          {refused}
        </p>
      ) : null}
      {error ? <ErrorNote error={error} /> : null}
    </div>
  );
}
