/**
 * The spool directory, where an upload's bytes wait while they are checked. They are received into
 * a temporary file there, counted (and hashed, for the documents service) on the way, stopping as
 * soon as the size limit is passed, so a file that is too large never reaches the blob store and
 * memory stays flat however large the upload is. A caller that shares the documents service's
 * machine (the gateway in standalone mode) spools the file itself and hands it over by its URL,
 * which the service takes only from inside its own spool directory. What a killed process left
 * there is swept when the service starts.
 */
import { createHash } from "node:crypto";
import { lstat, mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { validationError } from "./errors.js";
import { writeToFile } from "./file-writer.js";

export interface SpooledUpload {
  path: string;
  sizeBytes: number;
  /** The bytes' SHA-256 in hex, when they were hashed on their way in. */
  sha256?: string;
  /** Removes the temporary file. */
  discard(): Promise<void>;
}

export class UploadTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the file is larger than ${formatBytes(limitBytes)}`);
  }
}

const PREFIX = "upload-";
const FILE = "upload";

export async function spoolUpload(
  chunks: AsyncIterable<Uint8Array>,
  limitBytes: number,
  spoolDir: string,
  { hash = true }: { hash?: boolean } = {},
): Promise<SpooledUpload> {
  await mkdir(spoolDir, { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(join(spoolDir, PREFIX));
  const path = join(dir, FILE);
  const discard = () => rm(dir, { recursive: true, force: true });
  const hasher = hash ? createHash("sha256") : undefined;
  let sizeBytes = 0;
  async function* measured(): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      sizeBytes += chunk.length;
      if (sizeBytes > limitBytes) throw new UploadTooLargeError(limitBytes);
      hasher?.update(chunk);
      yield chunk;
    }
  }
  try {
    await writeToFile(measured(), path);
    return { path, sizeBytes, sha256: hasher?.digest("hex"), discard };
  } catch (err) {
    await discard();
    throw err;
  }
}

/** The URL by which a spooled upload is handed over. */
export function spooledFileUrl(upload: SpooledUpload): string {
  return pathToFileURL(upload.path).href;
}

/**
 * A spooled upload handed over by its URL, taken only where spoolUpload puts one in `spoolDir` and
 * only as a plain file (no link), so that a caller can make the service read no other file; its
 * bytes are not hashed yet. Taken means it is the taker's to discard.
 */
export async function takeSpooledUpload(
  url: string,
  limitBytes: number,
  spoolDir: string,
): Promise<SpooledUpload> {
  const path = url.startsWith("file:") ? fileURLToPath(url) : "";
  const dir = dirname(path);
  const refused = () =>
    validationError([
      { path: "header.spooledFileUrl", message: "must name a plain file that the spool directory holds" },
    ]);
  if (basename(path) !== FILE || !basename(dir).startsWith(PREFIX) || dirname(dir) !== resolve(spoolDir))
    throw refused();
  const discard = () => rm(dir, { recursive: true, force: true });
  try {
    const [dirInfo, info] = await Promise.all([lstat(dir), lstat(path)]);
    if (!dirInfo.isDirectory() || !info.isFile()) throw refused();
    if (info.size > limitBytes) throw new UploadTooLargeError(limitBytes);
    return { path, sizeBytes: info.size, discard };
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
export function sweepSpool(spoolDir: string, olderThanMs = 10 * 60_000): Promise<number> {
  return sweepFolders(spoolDir, PREFIX, olderThanMs);
}

/** Removes the folders in `dir` named `prefix…` untouched for `olderThanMs`; answers how many. */
export async function sweepFolders(dir: string, prefix: string, olderThanMs: number): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(prefix)) continue;
    const path = join(dir, entry.name);
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
