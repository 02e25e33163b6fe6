/**
 * The converter's port: a file in another format made into a PDF, here (LocalConverter) or by the
 * converter deployment (RemoteConverter). Failures are ConnectErrors the API shows as they are: the
 * file's fault a 422 at `file`, no converter a 415 saying how to enable one, a busy one a 429.
 */
import type { KnownSourceFormat } from "./source-formats.js";

export interface DocumentConverter {
  /**
   * Makes a PDF at `output` of the file at `input`, in `format`. A document longer than `maxPages`
   * (0: no limit) is converted only to one page past it, for the caller to refuse as too long.
   */
  convert(input: string, format: KnownSourceFormat, output: string, maxPages: number): Promise<void>;
  close(): Promise<void>;
}
