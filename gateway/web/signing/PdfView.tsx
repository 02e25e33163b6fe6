import type { PDFDocumentProxy } from "pdfjs-dist";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { PageView } from "../shared/PageView";
import { openPdf } from "../shared/pdf-loader";
import { ApiError, type DocumentInfo, fetchDocument } from "./api";

type Loaded =
  | { state: "loading" }
  | { state: "ready"; pdf: PDFDocumentProxy }
  | { state: "error"; message: string };

interface DocumentViewProps {
  doc: DocumentInfo;
  index: number;
  total: number;
  width: number;
  /** The session ended (401), or its request did (410). */
  onUnauthorized: (error: ApiError) => void;
  renderOverlay: (page: number, scale: number) => ReactNode;
}

export function DocumentView({ doc, index, total, width, onUnauthorized, renderOverlay }: DocumentViewProps) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  const unauthorized = useRef(onUnauthorized);
  unauthorized.current = onUnauthorized;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the load for "Try again".
  useEffect(() => {
    let cancelled = false;
    setLoaded({ state: "loading" });
    const opening = openPdf(fetchDocument(doc.id));
    opening.promise
      .then((pdf) => !cancelled && setLoaded({ state: "ready", pdf }))
      .catch((error: unknown) => {
        if (cancelled) return;
        if (error instanceof ApiError && (error.status === 401 || error.status === 410)) {
          unauthorized.current(error);
          return;
        }
        setLoaded({ state: "error", message: "This document could not be loaded." });
      });
    return () => {
      cancelled = true;
      opening.close();
    };
  }, [doc.id, attempt]);

  return (
    <section className="document" aria-labelledby={`doc-${doc.id}`}>
      <h2 className="document-title" id={`doc-${doc.id}`}>
        <span className="doc-icon" aria-hidden="true" />
        {doc.filename}
      </h2>
      <p className="document-meta">
        {total > 1 ? `Document ${index + 1} of ${total} · ` : ""}
        {doc.pageCount} {doc.pageCount === 1 ? "page" : "pages"}
      </p>
      {loaded.state === "error" ? (
        <div className="notice error" role="alert">
          {loaded.message}{" "}
          <button type="button" className="button link" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      ) : null}
      {doc.pages.map((size, i) => (
        <PageView
          // biome-ignore lint/suspicious/noArrayIndexKey: pages are positional.
          key={i}
          pdf={loaded.state === "ready" ? loaded.pdf : null}
          failed={loaded.state === "error"}
          pageNumber={i + 1}
          pageCount={doc.pages.length}
          size={size}
          width={width}
        >
          {width > 0 ? renderOverlay(i + 1, width / size.width) : null}
        </PageView>
      ))}
    </section>
  );
}
