/**
 * Where strings are written in a PDF, for DocuSign's anchor tabs: pdf.js reads each page's text as
 * the viewer shows it (crop box and rotation applied), and every occurrence of an anchor is given as
 * the box of its characters in PDF points from the page's top-left corner, the coordinates fields
 * use. Reading and searching both run in a worker thread (pdf-text-worker.mjs): a hostile document
 * or a one-letter anchor found millions of times costs that thread, never the gateway's event loop.
 */
import { WorkerThread } from "@countersign/kit";

export interface TextBox {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Anchor {
  text: string;
  caseSensitive: boolean;
}

interface Search {
  bytes: Uint8Array;
  anchors: Anchor[];
  limit: number;
}

/** pdf.js holds tens of MiB once loaded; a document it has not read in time (a hostile one can loop) ends the thread. */
const reader = new WorkerThread<Search, TextBox[][]>(new URL("./pdf-text-worker.mjs", import.meta.url), {
  timeoutMs: 20_000,
  idleMs: 60_000,
  maxOldGenerationSizeMb: 512,
});

/**
 * Each place every anchor is written in the document, page by page, top to bottom as the runs
 * come, at most `limit` places per anchor; undefined when pdf.js cannot read the document (one that
 * pdf-lib accepted) or not in the thread's time and memory.
 */
export async function findAnchors(
  bytes: Uint8Array,
  anchors: Anchor[],
  limit: number,
): Promise<TextBox[][] | undefined> {
  try {
    // The thread gets a copy of its own, moved rather than copied again.
    const copy = new Uint8Array(bytes);
    return await reader.run({ bytes: copy, anchors, limit }, [copy.buffer]);
  } catch {
    return undefined;
  }
}
