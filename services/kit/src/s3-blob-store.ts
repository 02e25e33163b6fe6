/**
 * The BlobStore on any S3 API endpoint (MinIO, AWS S3 and the like) through the `minio` client:
 * distributed mode's documents service. Kept out of the kit's index: the client and what it loads
 * cost each process about 30 MiB, and only the documents service needs it.
 *
 * Objects are written by one PUT to a presigned URL, streamed as the bytes come. The client's own
 * putObject reads an object under its part size (64 MiB) whole into memory and hashes it to sign
 * the payload before it sends a byte, so a caller could not overlap receiving a file with storing
 * it. A presigned PUT sends the payload unsigned (UNSIGNED-PAYLOAD), as the client itself does over
 * HTTPS; the object's size is checked after the write.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { pipeline } from "node:stream/promises";
import { Client as MinioClient } from "minio";
import { type BlobInfo, BlobNotFoundError, type BlobStore, checkKey, type PutOptions } from "./blob-store.js";
import { writeToFile } from "./file-writer.js";
import { inSpan, SpanKind } from "./tracing.js";

export interface S3Options {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /** How long a call may wait for the endpoint's answer (10 s), and a download for its next byte (60 s). */
  deadlinesMs?: { answer?: number; stalled?: number };
}

/** An endpoint that did not answer in time: an outage (ETIMEDOUT), named, never a hang. */
function timedOut(endpoint: string, what: string, ms: number): Error {
  return Object.assign(
    new Error(`the S3 endpoint ${endpoint} did not answer ${what} within ${ms / 1000} s`),
    {
      code: "ETIMEDOUT",
    },
  );
}

export class S3BlobStore implements BlobStore {
  private constructor(
    private readonly client: MinioClient,
    private readonly bucket: string,
    private readonly endpoint: string,
    private readonly deadlines: { answer: number; stalled: number },
  ) {}

  /** `call` answered within the deadline, or an error that says which call did not. */
  private answered<T>(what: string, call: () => Promise<T>): Promise<T> {
    const ms = this.deadlines.answer;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(timedOut(this.endpoint, what, ms)), ms);
    });
    return Promise.race([call(), deadline]).finally(() => clearTimeout(timer));
  }

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
    const store = new S3BlobStore(client, options.bucket, url.host, {
      answer: options.deadlinesMs?.answer ?? 10_000,
      stalled: options.deadlinesMs?.stalled ?? STALLED_MS,
    });
    const exists = () =>
      store.answered("whether the bucket exists", () => client.bucketExists(options.bucket));
    if (!(await exists())) {
      await store
        .answered("the creation of the bucket", () =>
          client.makeBucket(options.bucket, options.region ?? "us-east-1"),
        )
        .catch(async (err: unknown) => {
          if (!(await exists())) throw err;
        });
    }
    return store;
  }

  /** A span of an S3 call made within a trace, as OpenTelemetry names them ("S3.PutObject"). */
  private traced<T>(operation: string, key: string, call: () => Promise<T>): Promise<T> {
    return inSpan(
      `S3.${operation}`,
      {
        kind: SpanKind.CLIENT,
        onlyInTrace: true,
        attributes: {
          "rpc.system": "aws-api",
          "rpc.service": "S3",
          "rpc.method": operation,
          "aws.s3.bucket": this.bucket,
          "aws.s3.key": key,
          "server.address": this.endpoint,
        },
      },
      call,
    );
  }

  put(key: string, body: Readable | Uint8Array, options: PutOptions = {}): Promise<BlobInfo> {
    return this.traced("PutObject", key, () => this.putUntraced(key, body, options));
  }

  private async putUntraced(
    key: string,
    body: Readable | Uint8Array,
    options: PutOptions,
  ): Promise<BlobInfo> {
    checkKey(key);
    const contentType = options.contentType ?? "application/octet-stream";
    if (!(body instanceof Readable)) {
      await this.send(key, [body], body.length, contentType);
    } else if (options.size !== undefined) {
      await this.send(key, body, options.size, contentType);
    } else {
      // A PUT needs the length up front, and a multipart upload is not offered by every S3
      // endpoint; a spooled copy gives the length, and memory stays flat.
      await withSpooledCopy(body, (path, size) => this.send(key, createReadStream(path), size, contentType));
    }
    const info = await this.stat(key);
    if (!info) throw new Error(`blob "${key}" vanished after upload`);
    return info;
  }

  private async send(
    key: string,
    body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
    size: number,
    contentType: string,
  ): Promise<void> {
    await streamedPut(
      new URL(await this.writeUrl(key, PUT_URL_SECONDS)),
      body,
      size,
      contentType,
      this.deadlines.stalled,
    );
  }

  get(key: string): Promise<Readable> {
    return this.traced("GetObject", key, () => this.getUntraced(key));
  }

  private async getUntraced(key: string): Promise<Readable> {
    try {
      const body = await this.answered("a GET", () => this.client.getObject(this.bucket, checkKey(key)));
      // The object's bytes may stop coming after its headers: a stalled download ends in an error.
      const { stalled } = this.deadlines;
      (body as Readable & { setTimeout?: (ms: number, cb: () => void) => void }).setTimeout?.(stalled, () =>
        body.destroy(timedOut(this.endpoint, "the rest of a GET", stalled)),
      );
      return body;
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      throw err;
    }
  }

  stat(key: string): Promise<BlobInfo | undefined> {
    return this.traced("HeadObject", key, () => this.statUntraced(key));
  }

  private async statUntraced(key: string): Promise<BlobInfo | undefined> {
    try {
      return {
        size: (await this.answered("a HEAD", () => this.client.statObject(this.bucket, checkKey(key)))).size,
      };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.traced("DeleteObject", key, () =>
      this.answered("a DELETE", () => this.client.removeObject(this.bucket, checkKey(key))),
    );
  }

  async ping(): Promise<void> {
    await this.answered("whether the bucket exists", () => this.client.bucketExists(this.bucket));
  }

  /** A presigned GET: signed here, with no call to the endpoint. */
  readUrl(key: string, seconds: number): Promise<string> {
    return this.client.presignedGetObject(this.bucket, checkKey(key), seconds);
  }

  /** A presigned PUT, as `put` writes through: signed here, with no call to the endpoint. */
  writeUrl(key: string, seconds: number): Promise<string> {
    return this.client.presignedPutObject(this.bucket, checkKey(key), seconds);
  }
}

/** How long a PUT's presigned URL is valid: it is used at once, by this process only. */
const PUT_URL_SECONDS = 60;

/** A PUT or GET whose socket passes this long without a byte has stalled. */
const STALLED_MS = 60_000;

/**
 * One PUT of exactly `size` bytes. The endpoint's refusal is reported by its status and S3 error
 * code, never by the URL, whose query is a credential while it lasts.
 */
async function streamedPut(
  url: URL,
  body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  size: number,
  contentType: string,
  stalledMs: number,
): Promise<void> {
  const request = (url.protocol === "https:" ? https : http).request(url, {
    method: "PUT",
    headers: { "content-length": size, "content-type": contentType },
    timeout: stalledMs,
  });
  request.on("timeout", () =>
    request.destroy(Object.assign(new Error("the S3 endpoint stalled during a PUT"), { code: "ETIMEDOUT" })),
  );
  const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once("response", resolve);
    request.once("error", reject);
    // A request destroyed before it had a socket closes without an error.
    request.once("close", () => reject(new Error("the PUT ended without an answer")));
  });
  const [sent, answer] = await Promise.allSettled([pipeline(exactly(body, size), request), answered]);
  if (answer.status === "fulfilled") {
    const response = answer.value;
    const text = (await buffer(response)).toString("utf8");
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) {
      const code = text.match(/<Code>([^<]{1,100})<\/Code>/)?.[1] ?? "no error code";
      throw new Error(`the S3 endpoint refused a PUT: ${status} ${code}`);
    }
  }
  if (sent.status === "rejected") throw sent.reason;
  if (answer.status === "rejected") throw answer.reason;
}

/**
 * The body, which must be exactly `size` bytes. The chunk that completes it is held back until the
 * body ends, so that the endpoint never receives a whole object from a body that goes on; a PUT
 * cut off before its last byte is discarded by S3.
 */
async function* exactly(
  body: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  size: number,
): AsyncGenerator<Uint8Array> {
  let seen = 0;
  let last: Uint8Array | undefined;
  for await (const chunk of body) {
    seen += chunk.length;
    if (seen > size) throw new Error(`the body is longer than the ${size} bytes declared`);
    if (seen < size) yield chunk;
    else last ??= chunk;
  }
  if (seen !== size) throw new Error(`the body is ${seen} bytes, not the ${size} declared`);
  if (last) yield last;
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
