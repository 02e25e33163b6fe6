/**
 * pdf.js, fetched when a document is first opened instead of with the page: it is two thirds of the
 * signing page's JavaScript (136 of 214 KB compressed), and a phone on a slow network waited for it
 * before it could show the page's first words. It now arrives while the document's bytes do.
 */
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from "pdfjs-dist";

let library: Promise<typeof import("pdfjs-dist")> | undefined;

function pdfjs(): Promise<typeof import("pdfjs-dist")> {
  library ??= Promise.all([import("pdfjs-dist"), import("pdfjs-dist/build/pdf.worker.min.mjs?url")]).then(
    ([lib, worker]) => {
      lib.GlobalWorkerOptions.workerSrc = worker.default;
      return lib;
    },
  );
  return library;
}

export interface OpeningPdf {
  promise: Promise<PDFDocumentProxy>;
  /** Stops the opening, or closes the document once open: what a component does when it goes. */
  close(): void;
}

/** Opens the PDF whose bytes `data` brings, with pdf.js fetched meanwhile. */
export function openPdf(data: Promise<Uint8Array | ArrayBuffer>): OpeningPdf {
  let task: PDFDocumentLoadingTask | undefined;
  let closed = false;
  const promise = Promise.all([data, pdfjs()]).then(([bytes, lib]) => {
    if (closed) throw new Error("the document was closed before it opened");
    task = lib.getDocument({ data: bytes, useSystemFonts: true });
    return task.promise;
  });
  return {
    promise,
    close() {
      closed = true;
      void task?.destroy();
    },
  };
}
