/**
 * One PDF page drawn by pdf.js at the width it is given, lazily (when it comes near the viewport)
 * and again after a resize settles, with its children laid over it (field boxes), in CSS pixels.
 */
import type { PDFDocumentProxy, RenderTask } from "pdfjs-dist";
import { type ReactNode, useEffect, useRef, useState } from "react";
import "./pdf-pages.css";

/** Largest canvas we draw, in device pixels; phones refuse bigger ones. */
const MAX_CANVAS_PIXELS = 12_000_000;

export interface PageSize {
  width: number;
  height: number;
}

interface PageViewProps {
  pdf: PDFDocumentProxy | null;
  failed: boolean;
  pageNumber: number;
  pageCount: number;
  size: PageSize;
  width: number;
  children: ReactNode;
  /** The page's words in the reader's language; English where not given (the console). */
  words?: { label: string; loading: string; unavailable: string };
}

export function PageView({
  pdf,
  failed,
  pageNumber,
  pageCount,
  size,
  width,
  children,
  words,
}: PageViewProps) {
  const box = useRef<HTMLDivElement>(null);
  const canvasHolder = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  // The width the canvas on screen was drawn for; 0 until the first drawing is done.
  const [renderedWidth, setRenderedWidth] = useState(0);
  const rendered = renderedWidth > 0;
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
        setRenderedWidth(width);
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
      style={{
        width: width ? `${width}px` : undefined,
        height: height ? `${height}px` : undefined,
        aspectRatio: `${size.width} / ${size.height}`,
      }}
      aria-label={words?.label ?? `Page ${pageNumber} of ${pageCount}`}
      data-testid={`page-${pageNumber}`}
      data-rendered={rendered || undefined}
      data-rendered-width={renderedWidth || undefined}
    >
      <div ref={canvasHolder} className="page-canvas-holder" />
      {!rendered ? (
        <div className="page-placeholder" aria-hidden="true">
          {failed
            ? (words?.unavailable ?? "Page unavailable")
            : (words?.loading ?? `Loading page ${pageNumber}…`)}
        </div>
      ) : null}
      {children}
    </section>
  );
}
