/**
 * Receives an upload's bytes into a temporary file under the spool directory, hashing and counting
 * them on the way and stopping as soon as the size limit is passed, so a file that is too large
 * never reaches the blob store and memory stays flat however large the upload is. What a killed
 * process left there is swept when the service starts.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
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
  spoolDir: string,
): Promise<SpooledUpload> {
  await mkdir(spoolDir, { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(join(spoolDir, "upload-"));
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

/**
 * Removes uploads older than `olderThanMs`: none is still being received (a call cannot outlive its
 * deadline), so they are what a process killed mid-upload left behind. Replicas may share the
 * directory, so younger ones are left alone.
 */
export async function sweepSpool(spoolDir: string, olderThanMs = 10 * 60_000): Promise<number> {
  const entries = await readdir(spoolDir, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith("upload-")) continue;
    const path = join(spoolDir, entry.name);
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: Date.now() }));
    if (Date.now() - mtimeMs < olderThanMs) continue;
    await rm(path, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

export function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
