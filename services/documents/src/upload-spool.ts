/**
 * Receives an upload's bytes into a temporary file, hashing and counting them on the way and
 * stopping as soon as the size limit is passed, so a file that is too large never reaches the
 * blob store and memory stays flat however large the upload is.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";

export interface SpooledUpload {
  path: string;
  sizeBytes: number;
  sha256: string;
  /** Removes the temporary file. */
  discard(): Promise<void>;
}

export class UploadTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the file is larger than ${formatBytes(limitBytes)}`);
  }
}

export async function spoolUpload(
  chunks: AsyncIterable<Uint8Array>,
  limitBytes: number,
): Promise<SpooledUpload> {
  const dir = await mkdtemp(join(tmpdir(), "countersign-upload-"));
  const path = join(dir, "upload");
  const discard = () => rm(dir, { recursive: true, force: true });
  const hash = createHash("sha256");
  let sizeBytes = 0;
  async function* measured(): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      sizeBytes += chunk.length;
      if (sizeBytes > limitBytes) throw new UploadTooLargeError(limitBytes);
      hash.update(chunk);
      yield chunk;
    }
  }
  try {
    await pipeline(measured(), createWriteStream(path));
    return { path, sizeBytes, sha256: hash.digest("hex"), discard };
  } catch (err) {
    await discard();
    throw err;
  }
}

export function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
