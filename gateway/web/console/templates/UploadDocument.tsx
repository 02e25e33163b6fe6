/**
 * Choose or drop a document — a PDF, or a Word document, ODT, RTF or image, which the service makes a
 * PDF of — uploaded at once and handed to the page that asked for it.
 */
import { type DragEvent, useId, useState } from "react";
import { uploadDocument } from "../api";
import type { DocumentInfo } from "../types";
import { ErrorNote, useAction } from "../ui";
import { useWorkspace } from "../workspace";

const MAX_BYTES = 25 * 1024 * 1024;

/** The files the service takes, by extension and by the media type a browser gives them. */
const FORMATS: Record<string, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  odt: "application/vnd.oasis.opendocument.text",
  rtf: "application/rtf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
};
const ACCEPT = [...new Set(Object.values(FORMATS)), ...Object.keys(FORMATS).map((ext) => `.${ext}`)].join(
  ",",
);

/** The media type to send a file as: its format's, found by its name's extension or its own type. */
function formatOf(file: File): string | undefined {
  const extension = file.name.split(".").pop()?.toLowerCase() ?? "";
  return FORMATS[extension] ?? (Object.values(FORMATS).includes(file.type) ? file.type : undefined);
}

export function UploadDocument({
  onUploaded,
  title = "Start from a document",
  hint = "The document everyone signs: a PDF, or a Word document, ODT, RTF or image, which is made a PDF. Fields are placed on it in the next step.",
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
    const type = formatOf(file);
    if (!type) {
      setRefused(
        `${file.name} is not a document that can be signed. Choose a PDF, Word (.docx), .odt, .rtf, .png or .jpg file.`,
      );
      return;
    }
    if (file.size > MAX_BYTES) {
      setRefused(`${file.name} is larger than 25 MB, the most a document may be.`);
      return;
    }
    setSent(0);
    await run(file.name, async () => {
      onUploaded(await uploadDocument(workspace.id, file, type, setSent));
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
              {sent < 1
                ? `Uploading ${busy}…`
                : /\.pdf$/i.test(busy)
                  ? `Checking ${busy}…`
                  : `Making a PDF of ${busy}…`}
            </p>
            <progress max={1} value={sent} aria-label={`Upload of ${busy}`} />
          </div>
        ) : (
          <>
            <p>Drop a document here, or</p>
            <label htmlFor={inputId} className="button primary">
              Choose a document
            </label>
            <input
              id={inputId}
              className="visually-hidden"
              type="file"
              accept={ACCEPT}
              data-testid="document-input"
              onChange={(e) => void take(e.target.files?.[0])}
            />
            <p className="muted small">PDF, Word, ODT, RTF, PNG or JPEG, up to 25 MB.</p>
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
