/**
 * The BlobStore port: whole objects written from a stream and read back as one. Two adapters: any
 * S3 API endpoint through the `minio` client (distributed mode), and the local filesystem
 * (standalone mode), where a write goes to a temporary file first so a crash leaves no half object.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, mkdtemp, open, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Client as MinioClient } from "minio";
import { STREAM_CHUNK_BYTES } from "./chunks.js";
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

function checkKey(key: string): string {
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
      const source = body instanceof Readable ? body : Readable.from([body]);
      await pipeline(source, createWriteStream(temporary, { flags: "wx" }));
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

  async get(key: string): Promise<Readable> {
    const path = this.path(key);
    await stat(path).catch(() => {
      throw new BlobNotFoundError(key);
    });
    // Pieces of the size the services stream in, so they pass on without being joined.
    return createReadStream(path, { highWaterMark: STREAM_CHUNK_BYTES });
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
    if (!path.startsWith(this.root + sep)) throw new Error(`invalid blob key "${key}"`);
    return path;
  }
}

export interface S3Options {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
}

export class S3BlobStore implements BlobStore {
  private constructor(
    private readonly client: MinioClient,
    private readonly bucket: string,
  ) {}

  /** Connects and creates the bucket when it does not exist yet. */
  static async open(options: S3Options): Promise<S3BlobStore> {
    const url = new URL(options.endpoint);
    const useSSL = url.protocol === "https:";
    const client = new MinioClient({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region ?? "us-east-1",
      pathStyle: true,
    });
    if (!(await client.bucketExists(options.bucket))) {
      await client.makeBucket(options.bucket, options.region ?? "us-east-1").catch(async (err: unknown) => {
        if (!(await client.bucketExists(options.bucket))) throw err;
      });
    }
    return new S3BlobStore(client, options.bucket);
  }

  async put(key: string, body: Readable | Uint8Array, options: PutOptions = {}): Promise<BlobInfo> {
    checkKey(key);
    const metadata = { "Content-Type": options.contentType ?? "application/octet-stream" };
    if (!(body instanceof Readable)) {
      await this.client.putObject(this.bucket, key, Buffer.from(body), body.length, metadata);
    } else if (options.size !== undefined) {
      await this.client.putObject(this.bucket, key, body, options.size, metadata);
    } else {
      // With no length, the client would start a multipart upload sized for 5 TiB, which not every
      // S3 endpoint offers; a spooled copy gives it the length, and memory stays flat.
      await withSpooledCopy(body, async (path, size) => {
        await this.client.putObject(this.bucket, key, createReadStream(path), size, metadata);
      });
    }
    const info = await this.stat(key);
    if (!info) throw new Error(`blob "${key}" vanished after upload`);
    return info;
  }

  async get(key: string): Promise<Readable> {
    try {
      return await this.client.getObject(this.bucket, checkKey(key));
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      throw err;
    }
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    try {
      return { size: (await this.client.statObject(this.bucket, checkKey(key))).size };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.removeObject(this.bucket, checkKey(key));
  }

  async ping(): Promise<void> {
    await this.client.bucketExists(this.bucket);
  }
}

async function withSpooledCopy<T>(
  body: Readable,
  use: (path: string, size: number) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "countersign-spool-"));
  const path = join(dir, "body");
  try {
    await pipeline(body, createWriteStream(path));
    return await use(path, (await stat(path)).size);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export class BlobNotFoundError extends Error {
  constructor(key: string) {
    super(`no blob "${key}"`);
    this.name = "BlobNotFoundError";
  }
}

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === "NoSuchKey" || code === "NotFound" || code === "NoSuchObject";
}
