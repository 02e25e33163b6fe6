import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy, type RenderTask } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { type DocumentInfo, fetchDocument, type PageSize } from "./api";

GlobalWorkerOptions.workerSrc = workerUrl;

/** Largest canvas we draw, in device pixels; phones refuse bigger ones. */
const MAX_CANVAS_PIXELS = 12_000_000;

type Loaded =
  | { state: "loading" }
  | { state: "ready"; pdf: PDFDocumentProxy }
  | { state: "error"; message: string };

interface DocumentViewProps {
  doc: DocumentInfo;
  index: number;
  total: number;
  width: number;
  onUnauthorized: () => void;
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
    let pdf: PDFDocumentProxy | undefined;
    setLoaded({ state: "loading" });
    fetchDocument(doc.id)
      .then((data) => getDocument({ data, isEvalSupported: false, useSystemFonts: true }).promise)
      .then((proxy) => {
        pdf = proxy;
        if (cancelled) void proxy.destroy();
        else setLoaded({ state: "ready", pdf: proxy });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        if (typeof error === "object" && error && "status" in error && error.status === 401) {
          unauthorized.current();
          return;
        }
        setLoaded({ state: "error", message: "This document could not be loaded." });
      });
    return () => {
      cancelled = true;
      void pdf?.destroy();
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

interface PageViewProps {
  pdf: PDFDocumentProxy | null;
  failed: boolean;
  pageNumber: number;
  pageCount: number;
  size: PageSize;
  width: number;
  children: ReactNode;
}

function PageView({ pdf, failed, pageNumber, pageCount, size, width, children }: PageViewProps) {
  const box = useRef<HTMLDivElement>(null);
  const canvasHolder = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const [rendered, setRendered] = useState(false);
  const height = width > 0 ? (width * size.height) / size.width : 0;

  // Render lazily: only once the page comes near the viewport.
  useEffect(() => {
    const el = box.current;
    if (!el || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: "1200px 0px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);

  useEffect(() => {
    if (!pdf || !near || width <= 0) return;
    let cancelled = false;
    let task: RenderTask | undefined;
    // Debounce: resizing the window re-renders once it settles. A fresh canvas each time, swapped in when done.
    const timer = window.setTimeout(async () => {
      try {
        const page = await pdf.getPage(pageNumber);
        if (cancelled) return;
        const base = page.getViewport({ scale: 1 });
        let ratio = Math.min(window.devicePixelRatio || 1, 3);
        const cssScale = width / base.width;
        const area = base.width * cssScale * ratio * (base.height * cssScale * ratio);
        if (area > MAX_CANVAS_PIXELS) ratio *= Math.sqrt(MAX_CANVAS_PIXELS / area);
        const viewport = page.getViewport({ scale: cssScale * ratio });
        const canvas = document.createElement("canvas");
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.className = "page-canvas";
        canvas.setAttribute("aria-hidden", "true");
        task = page.render({ canvas, viewport });
        await task.promise;
        if (cancelled) return;
        canvasHolder.current?.replaceChildren(canvas);
        setRendered(true);
      } catch (error) {
        if (!cancelled && (error as Error)?.name !== "RenderingCancelledException") console.error(error);
      }
    }, 80);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
      task?.cancel();
    };
  }, [pdf, near, width, pageNumber]);

  return (
    <section
      ref={box}
      className="page"
      style={{ height: height ? `${height}px` : undefined, aspectRatio: `${size.width} / ${size.height}` }}
      aria-label={`Page ${pageNumber} of ${pageCount}`}
      data-testid={`page-${pageNumber}`}
      data-rendered={rendered || undefined}
    >
      <div ref={canvasHolder} className="page-canvas-holder" />
      {!rendered ? (
        <div className="page-placeholder" aria-hidden="true">
          {failed ? "Page unavailable" : `Loading page ${pageNumber}…`}
        </div>
      ) : null}
      {children}
    </section>
  );
}
