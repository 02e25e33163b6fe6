/**
 * The public verifier: drop a PDF, read in words what it proves. The file goes to this service
 * once, is checked and forgotten; the report is shown here and nowhere else.
 */
import { type DragEvent, useEffect, useId, useRef, useState } from "react";
import { type VerificationReport, verify } from "./api";
import { Report } from "./Report";

type State =
  | { kind: "waiting" }
  | { kind: "checking"; name: string }
  | { kind: "done"; name: string; report: VerificationReport }
  | { kind: "failed"; name: string; message: string };

export function App() {
  const [state, setState] = useState<State>({ kind: "waiting" });
  const [dragging, setDragging] = useState(false);
  const inputId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (state.kind === "done" || state.kind === "failed") heading.current?.focus();
  }, [state.kind]);

  const check = (file: File | undefined) => {
    if (!file) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setState({ kind: "checking", name: file.name });
    verify(file, controller.signal).then(
      (report) => setState({ kind: "done", name: file.name, report }),
      (err: Error) => {
        if (!controller.signal.aborted) setState({ kind: "failed", name: file.name, message: err.message });
      },
    );
  };

  const dropped = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    check(event.dataTransfer.files[0]);
  };

  return (
    <>
      <header className="top">
        <div className="top-inner">
          <span className="brand">
            <span className="brand-mark" aria-hidden="true" /> Countersign
          </span>
          <h1>Verify a sealed document</h1>
          <p className="lead">
            Check that a PDF sealed by Countersign is the one that was signed, when it was sealed, and what
            proves it. The file is checked and forgotten: nothing is stored, and you need no account.
          </p>
        </div>
      </header>
      <main className="content" id="main">
        <section
          className={`drop${dragging ? " is-dragging" : ""}`}
          aria-labelledby={`${inputId}-label`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={dropped}
        >
          <p id={`${inputId}-label`} className="drop-title">
            Drop the PDF here, or
          </p>
          <label htmlFor={inputId} className="button primary">
            Choose a PDF…
          </label>
          <input
            id={inputId}
            className="visually-hidden"
            type="file"
            accept="application/pdf,.pdf"
            data-testid="file-input"
            onChange={(event) => {
              check(event.target.files?.[0]);
              event.target.value = "";
            }}
          />
        </section>

        <div aria-live="polite" className="status">
          {state.kind === "checking" ? (
            <p className="checking" data-testid="checking">
              <span className="spinner" aria-hidden="true" /> Checking “{state.name}”…
            </p>
          ) : null}
        </div>

        {state.kind === "failed" ? (
          <section className="card result failed" role="alert">
            <h2 ref={heading} tabIndex={-1}>
              “{state.name}” could not be checked
            </h2>
            <p>{state.message}.</p>
          </section>
        ) : null}
        {state.kind === "done" ? (
          <Report name={state.name} report={state.report} headingRef={heading} />
        ) : null}
      </main>
    </>
  );
}
