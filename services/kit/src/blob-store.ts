/**
 * The BlobStore port: whole objects written from a stream and read back as one. Two adapters: the
 * local filesystem (standalone mode, here), where a write goes to a temporary file first so a crash
 * leaves no half object, and any S3 API endpoint (distributed mode, s3-blob-store.ts).
 */
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import isPathInside from "is-path-inside";
import { STREAM_CHUNK_BYTES } from "./chunks.js";
import { writeToFile } from "./file-writer.js";
import { uuidv7 } from "./ids.js";

export interface BlobInfo {
  size: number;
}

export interface PutOptions {
  contentType?: string;
  /** The body's length when known; a stream of unknown length is measured on the way. */
  size?: number;
}

export interface BlobStore {
  put(key: string, body: Readable | Uint8Array, options?: PutOptions): Promise<BlobInfo>;
  get(key: string): Promise<Readable>;
  /** undefined when there is no such object. */
  stat(key: string): Promise<BlobInfo | undefined>;
  delete(key: string): Promise<void>;
  ping(): Promise<void>;
  /**
   * A URL from which anyone holding it can GET the object for `seconds`, for stores that can sign
   * one (S3); a store that cannot has no such method.
   */
  readUrl?(key: string, seconds: number): Promise<string>;
  /**
   * The file: URL of the object, for stores kept on this machine's filesystem, so that a reader on
   * the same machine can open the file itself; a store elsewhere has no such method.
   */
  fileUrl?(key: string): string;
  /**
   * Takes a file of this machine (a spooled upload) over as the object, moving it rather than
   * copying its bytes, for stores kept on a filesystem; the file is gone afterwards.
   */
  moveIn?(key: string, path: string): Promise<BlobInfo>;
}

async function syncPath(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key) || key.includes("..")) throw new Error(`invalid blob key "${key}"`);
  return key;
}

export class FileBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, body: Readable | Uint8Array): Promise<BlobInfo> {
    const target = this.path(key);
    const temporary = join(this.root, ".partial", uuidv7());
    await mkdir(dirname(temporary), { recursive: true });
    await mkdir(dirname(target), { recursive: true });
    try {
      await writeToFile(body instanceof Readable ? body : Readable.from([body]), temporary, {
        exclusive: true,
      });
      // An acknowledged blob must survive a crash: its bytes, then its name, reach the disk.
      await syncPath(temporary);
      await rename(temporary, target);
      await syncPath(dirname(target));
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
    return { size: (await stat(target)).size };
  }

  async moveIn(key: string, path: string): Promise<BlobInfo> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    // The same order as put: the bytes reach the disk, then the name.
    await syncPath(path);
    try {
      await rename(path, target);
    } catch (err) {
      // Another filesystem: the bytes are copied after all.
      if ((err as { code?: unknown }).code !== "EXDEV") throw err;
      const info = await this.put(key, createReadStream(path));
      await rm(path, { force: true });
      return info;
    }
    await syncPath(dirname(target));
    return { size: (await stat(target)).size };
  }

  async get(key: string): Promise<Readable> {
    const path = this.path(key);
    await stat(path).catch(() => {
      throw new BlobNotFoundError(key);
    });
    // Pieces of the size the services stream in, so they pass on without being joined.
    return createReadStream(path, { highWaterMark: STREAM_CHUNK_BYTES });
  }

  fileUrl(key: string): string {
    return pathToFileURL(this.path(key)).href;
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    const info = await stat(this.path(key)).catch(() => undefined);
    return info && { size: info.size };
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  private path(key: string): string {
    const path = resolve(this.root, checkKey(key));
    if (!isPathInside(path, this.root)) throw new Error(`invalid blob key "${key}"`);
    return path;
  }
}

export class BlobNotFoundError extends Error {
  constructor(key: string) {
    super(`no blob "${key}"`);
    this.name = "BlobNotFoundError";
  }
}
