import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Client as MinioClient } from "minio";
import S3rver from "s3rver";
import { type BlobStore, FileBlobStore } from "../src/blob-store.js";
import { isDependencyOutage } from "../src/outage.js";
import { S3BlobStore } from "../src/s3-blob-store.js";

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

function contract(name: string, open: () => Promise<{ store: BlobStore; close: () => Promise<void> }>) {
  describe(name, () => {
    let store: BlobStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    test("what is put from a stream comes back byte for byte, and stat knows its size", async () => {
      const content = randomBytes(3 * 1024 * 1024 + 17);
      const chunks = Array.from({ length: 4 }, (_, i) => content.subarray(i * 800_000, (i + 1) * 800_000));
      chunks.push(content.subarray(3_200_000));
      expect(
        await store.put("documents/a/original.pdf", Readable.from(chunks), {
          contentType: "application/pdf",
        }),
      ).toEqual({
        size: content.length,
      });
      expect((await bytesOf(await store.get("documents/a/original.pdf"))).equals(content)).toBe(true);
      expect(await store.stat("documents/a/original.pdf")).toEqual({ size: content.length });
    });

    test("a stream of announced length is stored as it is", async () => {
      const content = randomBytes(4096);
      await store.put("documents/sized", Readable.from([content]), { size: content.length });
      expect((await bytesOf(await store.get("documents/sized"))).equals(content)).toBe(true);
    });

    test("a missing object has no stat, and delete removes one", async () => {
      expect(await store.stat("documents/none")).toBeUndefined();
      await store.put("documents/b", Buffer.from("bye"));
      await store.delete("documents/b");
      expect(await store.stat("documents/b")).toBeUndefined();
      await expect(store.get("documents/b")).rejects.toThrow();
    });

    test("keys that could escape the store are refused", async () => {
      for (const key of ["../etc/passwd", "/abs", "a/../../b", "", "a//b"]) {
        await expect(store.put(key, Buffer.from("x"))).rejects.toThrow(/invalid blob key/);
      }
    });

    test("the store answers a ping", async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}

contract("FileBlobStore", async () => {
  const root = await mkdtemp(join(tmpdir(), "blobs-"));
  return { store: new FileBlobStore(root), close: () => rm(root, { recursive: true, force: true }) };
});

async function s3rverStore(
  bucket: string,
  deadlinesMs?: { answer: number; stalled: number },
): Promise<{ store: S3BlobStore; endpoint: URL; close: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), "s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory, silent: true });
  const { port } = await server.run();
  const store = await S3BlobStore.open({
    endpoint: `http://127.0.0.1:${port}`,
    accessKey: "S3RVER",
    secretKey: "S3RVER",
    bucket,
    deadlinesMs,
  });
  return {
    store,
    endpoint: new URL(`http://127.0.0.1:${port}`),
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

contract("S3BlobStore against s3rver", () => s3rverStore("kit-test"));

test("an S3 store's read URL gets the object without the store's credentials", async () => {
  const { store, close } = await s3rverStore("kit-read-url");
  try {
    const content = randomBytes(70_000);
    await store.put("documents/direct", content);
    const url = new URL(await store.readUrl("documents/direct", 60));
    expect(url.searchParams.get("X-Amz-Expires")).toBe("60");
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(content)).toBe(true);
  } finally {
    await close();
  }
});

/** The bytes, then, after time enough for an endpoint to store them, one byte more. */
async function* moreAfterAWhile(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
  await new Promise((resolve) => setTimeout(resolve, 300));
  yield Buffer.from("x");
}

test("an S3 store refuses a stream that is not the length it announced, and never completes a longer one", async () => {
  const { store, close } = await s3rverStore("kit-length");
  try {
    const content = randomBytes(100_000);
    await expect(
      store.put("documents/short", Readable.from([content]), { size: content.length + 1 }),
    ).rejects.toThrow("the body is 100000 bytes, not the 100001 declared");
    await expect(
      store.put("documents/long", Readable.from(moreAfterAWhile(content)), { size: content.length }),
    ).rejects.toThrow("the body is longer than the 100000 bytes declared");
    // The chunk that would have completed the object was held back when more followed it. (What
    // the endpoint keeps of a PUT cut off short is its own affair: S3 nothing, s3rver a stub.)
    expect(await store.stat("documents/long")).toBeUndefined();
  } finally {
    await close();
  }
});

test("an S3 store reports a refused write by status and S3 error code, never by its signed URL", async () => {
  const { store, endpoint, close } = await s3rverStore("kit-refused");
  try {
    const admin = new MinioClient({
      endPoint: endpoint.hostname,
      port: Number(endpoint.port),
      useSSL: false,
      accessKey: "S3RVER",
      secretKey: "S3RVER",
      pathStyle: true,
    });
    await admin.removeBucket("kit-refused");
    const refused = await store.put("documents/x", randomBytes(10_000)).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(refused?.message).toBe("the S3 endpoint refused a PUT: 404 NoSuchBucket");
    expect(JSON.stringify(refused)).not.toMatch(/X-Amz-Signature/i);
  } finally {
    await close();
  }
});

test("an S3 store whose endpoint is gone fails a write as an outage, not as a fault of ours", async () => {
  const { store, close } = await s3rverStore("kit-gone");
  await close();
  const failed = await store.put("documents/x", Readable.from([randomBytes(1000)]), { size: 1000 }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(isDependencyOutage(failed)).toBe(true);
});

test("an S3 endpoint that takes connections and never answers fails every call at its deadline, as an outage naming it", async () => {
  // Set up with the default deadlines: s3rver on a loaded machine took longer than 0.4 s to answer a PUT.
  const { store: setUp, endpoint, close } = await s3rverStore("kit-silent");
  await setUp.put("documents/x", randomBytes(1000));
  const store = await S3BlobStore.open({
    endpoint: endpoint.origin,
    accessKey: "S3RVER",
    secretKey: "S3RVER",
    bucket: "kit-silent",
    deadlinesMs: { answer: 400, stalled: 400 },
  });
  await close();
  // The endpoint's address now takes connections and says nothing, as a hung load balancer does.
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(Number(endpoint.port), "127.0.0.1", resolve));
  try {
    for (const [what, call] of [
      ["a HEAD", () => store.stat("documents/x")],
      ["a GET", () => store.get("documents/x")],
      ["a DELETE", () => store.delete("documents/x")],
      ["whether the bucket exists", () => store.ping()],
    ] as const) {
      const started = performance.now();
      const failed = await (call() as Promise<unknown>).then(
        () => undefined,
        (err: Error) => err,
      );
      expect({ what, message: failed?.message }).toEqual({
        what,
        message: `the S3 endpoint ${endpoint.host} did not answer ${what} within 0.4 s`,
      });
      expect(isDependencyOutage(failed)).toBe(true);
      expect(performance.now() - started).toBeLessThan(3000);
    }
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});

test("a filesystem store's file URL names the stored file, inside its directory only", async () => {
  const root = await mkdtemp(join(tmpdir(), "blobs-"));
  try {
    const store = new FileBlobStore(root);
    const content = randomBytes(5_000);
    await store.put("documents/w/d.pdf", content);
    const url = store.fileUrl("documents/w/d.pdf");
    expect(url.startsWith("file:")).toBe(true);
    expect((await readFile(new URL(url))).equals(content)).toBe(true);
    expect(() => store.fileUrl("documents/../../etc/passwd")).toThrow("invalid blob key");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("a filesystem store moves a file in as an object, and the file is gone", async () => {
  const root = await mkdtemp(join(tmpdir(), "blobs-"));
  try {
    const store = new FileBlobStore(join(root, "blobs"));
    const content = randomBytes(70_000);
    const spooled = join(root, "spooled");
    await writeFile(spooled, content);
    expect(await store.moveIn("documents/w/moved.pdf", spooled)).toEqual({ size: content.length });
    expect((await bytesOf(await store.get("documents/w/moved.pdf"))).equals(content)).toBe(true);
    expect(await readdir(root)).toEqual(["blobs"]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("a stream that fails half-way leaves no object and no partial file behind", async () => {
  const root = await mkdtemp(join(tmpdir(), "blobs-"));
  const store = new FileBlobStore(root);
  const failing = new Readable({
    read() {
      this.push(Buffer.alloc(1024));
      this.destroy(new Error("client went away"));
    },
  });
  await expect(store.put("documents/c", failing)).rejects.toThrow("client went away");
  expect(await store.stat("documents/c")).toBeUndefined();
  expect(await readdir(join(root, ".partial"))).toEqual([]);
  await rm(root, { recursive: true, force: true });
});
