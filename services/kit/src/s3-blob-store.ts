/**
 * The BlobStore on any S3 API endpoint (MinIO, AWS S3 and the like) through the `minio` client:
 * distributed mode's documents service. Kept out of the kit's index: the client and what it loads
 * cost each process about 30 MiB, and only the documents service needs it.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Client as MinioClient } from "minio";
import { type BlobInfo, BlobNotFoundError, type BlobStore, checkKey, type PutOptions } from "./blob-store.js";
import { writeToFile } from "./file-writer.js";

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

  /** A presigned GET: signed here, with no call to the endpoint. */
  readUrl(key: string, seconds: number): Promise<string> {
    return this.client.presignedGetObject(this.bucket, checkKey(key), seconds);
  }
}

async function withSpooledCopy<T>(
  body: Readable,
  use: (path: string, size: number) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "countersign-spool-"));
  const path = join(dir, "body");
  try {
    await writeToFile(body, path);
    return await use(path, (await stat(path)).size);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === "NoSuchKey" || code === "NotFound" || code === "NoSuchObject";
}
