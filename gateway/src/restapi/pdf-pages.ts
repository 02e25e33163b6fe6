/**
 * New PDFs made of other PDFs' pages, for /restapi's document views (`combined`, `certificate`, a
 * single document cut from the sealed PDF): pdf-lib runs in a worker thread of its own
 * (pdf-pages-worker.mjs), loaded with the first such view, so a long document holds that thread
 * and never the gateway's event loop.
 */
import { WorkerThread } from "@countersign/kit";

export interface PdfPart {
  bytes: Uint8Array;
  /** 0-based pages of `bytes`, in order; every page when left out. */
  pages?: number[];
}

const thread = new WorkerThread<{ parts: PdfPart[] }, Uint8Array>(
  new URL("./pdf-pages-worker.mjs", import.meta.url),
  // A sealed request has at most a few thousand pages: read and written in seconds.
  { timeoutMs: 30_000, idleMs: 60_000, maxOldGenerationSizeMb: 512 },
);

/** A PDF of the parts' pages in order; each part's bytes are copied to the thread. */
export function composePdf(parts: PdfPart[]): Promise<Uint8Array> {
  const copies = parts.map((part) => ({ ...part, bytes: new Uint8Array(part.bytes) }));
  return thread.run(
    { parts: copies },
    copies.map((part) => part.bytes.buffer as ArrayBuffer),
  );
}
