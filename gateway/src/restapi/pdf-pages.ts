/**
 * New PDFs made of other PDFs' pages, for /restapi's document views (`combined`, `certificate`, a
 * single document cut from the sealed PDF): pdf-lib runs in a job process of its own
 * (pdf-pages-worker.mjs), started with the first such view, so a long document holds that process
 * and never the gateway's event loop.
 */
import { JobProcess } from "@countersign/kit";

export interface PdfPart {
  bytes: Uint8Array;
  /** 0-based pages of `bytes`, in order; every page when left out. */
  pages?: number[];
}

const composer = new JobProcess<{ parts: PdfPart[] }, Uint8Array>(
  new URL("./pdf-pages-worker.mjs", import.meta.url),
  // A sealed request has at most a few thousand pages: read and written in seconds.
  { timeoutMs: 30_000, idleMs: 60_000, maxHeapMb: 512 },
);

/** A PDF of the parts' pages in order; each part's bytes are copied to the process. */
export function composePdf(parts: PdfPart[]): Promise<Uint8Array> {
  return composer.run({ parts });
}
