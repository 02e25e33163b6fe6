/**
 * An upload of known length handed to a store elsewhere (S3) while its chunks arrive, rather than
 * after the last one: receiving a file and storing it then take the time of the slower of the two,
 * not of both. The chunks still go on to the spool, where they are counted, hashed and later
 * inspected; an upload that is refused after all is deleted from the store again.
 */
import { once } from "node:events";
import { PassThrough } from "node:stream";
import { type BlobInfo, type BlobStore, STREAM_CHUNK_BYTES, validationError } from "@countersign/kit";

export interface StoredAsReceived {
  /** The chunks, to be read by the spool; the store is fed as they are read. */
  chunks: AsyncIterable<Uint8Array>;
  /** Settles once the store has the whole object, or failed. */
  stored: Promise<BlobInfo>;
}

export function storeAsReceived(
  blobs: BlobStore,
  key: string,
  sizeBytes: number,
  chunks: AsyncIterable<Uint8Array>,
): StoredAsReceived {
  // Room for one chunk: the upload waits for the store rather than piling up in memory.
  const body = new PassThrough({ highWaterMark: STREAM_CHUNK_BYTES });
  // Its failure reaches the store, which reports it through `stored`; it must never be thrown as
  // an unheard 'error' event (a store that is not reading yet listens to nothing).
  body.on("error", () => {});
  const stored = blobs.put(key, body, { contentType: "application/pdf", size: sizeBytes });
  let storeFailure: unknown;
  stored.catch((err: unknown) => {
    storeFailure = err;
  });
  const wrongLength = (received: string) =>
    validationError([
      { path: "header.sizeBytes", message: `the file is ${received}, not the ${sizeBytes} bytes announced` },
    ]);
  async function* fed(): AsyncGenerator<Uint8Array> {
    let receivedBytes = 0;
    let complete = false;
    try {
      for await (const chunk of chunks) {
        if (storeFailure) throw storeFailure;
        receivedBytes += chunk.length;
        if (receivedBytes > sizeBytes) throw wrongLength("longer");
        if (!body.write(chunk)) await Promise.race([once(body, "drain"), stored]);
        yield chunk;
      }
      if (receivedBytes !== sizeBytes) throw wrongLength(`${receivedBytes} bytes`);
      complete = true;
      body.end();
    } finally {
      // Whatever stopped the upload (its caller, the spool, a wrong length) stops the store's write.
      if (!complete) body.destroy(new Error("the upload did not complete"));
    }
  }
  return { chunks: fed(), stored };
}
