/**
 * The converter's port: a file in another format made into a PDF, here (LocalConverter) or by the
 * converter deployment (RemoteConverter). Failures are ConnectErrors the API shows as they are: the
 * file's fault a 422 at `file`, no converter a 415 saying how to enable one, a busy one a 429.
 */
import type { ConnectError } from "@connectrpc/connect";
import { formatBytes, validationError } from "@countersign/kit";
import type { KnownSourceFormat } from "./source-formats.js";

/** Who a conversion is made for, and the signal that calls it off. */
export interface ConversionCall {
  /** The workspace whose file it is: each waits its turn among its own workspace's files. */
  party: string;
  /** Its caller went away: a waiting conversion is dropped and a running one killed. */
  signal?: AbortSignal;
}

export interface DocumentConverter {
  /**
   * Makes a PDF at `output` of the file at `input`, in `format`. A document longer than `maxPages`
   * (0: no limit) is converted only to one page past it, for the caller to refuse as too long.
   */
  convert(
    input: string,
    format: KnownSourceFormat,
    output: string,
    maxPages: number,
    call: ConversionCall,
  ): Promise<void>;
  close(): Promise<void>;
}

/**
 * A PDF made of a file is held to the upload limit too: a few kilobytes of document (a long table,
 * a repeated image) can lay out to far more.
 */
export function madeTooLarge(sizeBytes: number, limitBytes: number): ConnectError {
  const message = `the PDF made of the file is ${formatBytes(sizeBytes)}, more than the ${formatBytes(limitBytes)} a document may be; upload a shorter document, or split it`;
  return validationError([{ path: "file", message }], message);
}
