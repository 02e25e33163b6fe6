/**
 * Where text is written in a PDF: DocuSign's anchor strings, and text tags (`{{signature:Client}}`,
 * text-tags.ts). pdf.js reads each page's text as the viewer shows it (crop box and rotation
 * applied), and each place is given as the box of its characters in PDF points from the page's
 * top-left corner, the coordinates fields use. Reading and searching both run in a job process
 * (pdf-text-worker.mjs): a hostile document or a one-letter anchor found millions of times costs
 * that process, never the gateway.
 */
import { JobProcess } from "@countersign/kit";

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

/** A `{{…}}` written in a run of text, or a `{{` left open in its run. */
export interface WrittenTag extends TextBox {
  text: string;
}

type Search = { bytes: Uint8Array; limit: number } & ({ anchors: Anchor[] } | { tags: true });

/** pdf.js holds tens of MiB once loaded; a document it has not read in time (a hostile one can loop) ends the process. */
const reader = new JobProcess<Search, TextBox[][] | WrittenTag[]>(
  new URL("./pdf-text-worker.mjs", import.meta.url),
  { timeoutMs: 20_000, idleMs: 60_000, maxHeapMb: 512 },
);

/**
 * Each place every anchor is written in the document, page by page, top to bottom as the runs
 * come, at most `limit` places per anchor; undefined when pdf.js cannot read the document (one that
 * pdf-lib accepted) or not in the process's time and memory.
 */
export async function findAnchors(
  bytes: Uint8Array,
  anchors: Anchor[],
  limit: number,
): Promise<TextBox[][] | undefined> {
  try {
    return (await reader.run({ bytes, anchors, limit })) as TextBox[][];
  } catch {
    return undefined;
  }
}

/** Every text tag written in the document, in page order, at most `limit`; undefined as for findAnchors. */
export async function findTags(bytes: Uint8Array, limit: number): Promise<WrittenTag[] | undefined> {
  try {
    return (await reader.run({ bytes, tags: true, limit })) as WrittenTag[];
  } catch {
    return undefined;
  }
}
