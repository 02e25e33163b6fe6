import type { PDFDocumentProxy } from "pdfjs-dist";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { PageView } from "../shared/PageView";
import { openPdf } from "../shared/pdf-loader";
import { ApiError, type DocumentInfo, fetchDocument } from "./api";
import { useT } from "./i18n/Language";

type Loaded = { state: "loading" } | { state: "ready"; pdf: PDFDocumentProxy } | { state: "error" };

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
  const t = useT();
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
        setLoaded({ state: "error" });
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
        {total > 1 ? `${t("document.position", { index: index + 1, total })} · ` : ""}
        {t("document.pages", { pages: doc.pageCount })}
      </p>
      {loaded.state === "error" ? (
        <div className="notice error" role="alert">
          {t("document.loadFailed")}{" "}
          <button type="button" className="button link" onClick={() => setAttempt((n) => n + 1)}>
            {t("common.tryAgain")}
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
          words={{
            label: t("page.label", { page: i + 1, total: doc.pages.length }),
            loading: t("page.loading", { page: i + 1 }),
            unavailable: t("page.unavailable"),
          }}
        >
          {width > 0 ? renderOverlay(i + 1, width / size.width) : null}
        </PageView>
      ))}
    </section>
  );
}
