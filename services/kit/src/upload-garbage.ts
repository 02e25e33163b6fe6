/**
 * The garbage of uploads, collected while they are read. Node reads a request body (HTTP/1.1 in the
 * gateway, HTTP/2 frames in the documents service) into a new buffer for each read from its socket,
 * and each is garbage once it is relayed or written. V8 frees such buffers only when it collects the
 * young generation, and a process that allocates little on its heap per MiB it passes on did not
 * collect it once during a 25 MiB upload: every buffer of the body was still held when the upload
 * ended (the gateway's resident memory +24 MiB, the whole of it ArrayBuffers; docs/benchmarks.md).
 * A minor collection (a scavenge of the young generation, the buffers' objects and little else)
 * after every few MiB of uploads read bounds that garbage, whatever the size of the file.
 */
import type { Logger } from "./logger.js";

/** Bodies read between two collections: each collection took 1–3 ms (docs/benchmarks.md). */
export const COLLECT_EVERY_BYTES = 4 * 2 ** 20;

type Collect = (options: { type: "minor" }) => void;

/**
 * V8's `gc` function, there when Node was started with `--expose-gc`, as `npm start`, the image's
 * gateway and documents containers, the launcher and the tests start the processes that read
 * uploads. Node supports the flag only at start: set at run time (`v8.setFlagsFromString`, as this
 * module once did) it is documented as unpredictable.
 */
const collect = (globalThis as { gc?: Collect }).gc;

let sinceCollection = 0;

/** Whether uploads' buffers are collected as they are read (the process has `--expose-gc`). */
export function uploadGarbageCollected(): boolean {
  return collect !== undefined;
}

/** Counts `bytes` of an upload body read; collects the young generation each time enough are. */
export function uploadBytesRead(bytes: number): void {
  if (!collect) return;
  sinceCollection += bytes;
  if (sinceCollection < COLLECT_EVERY_BYTES) return;
  sinceCollection = 0;
  collect({ type: "minor" });
}

let warned = false;

/**
 * Says at start that a process reading uploads was started without the flag, and what that costs:
 * once per process, though standalone runs both readers (the gateway and documents) in one.
 */
export function warnWithoutUploadCollection(logger: Logger): void {
  if (collect || warned) return;
  warned = true;
  logger.warn(
    "node was started without --expose-gc: the buffers an upload is read in are freed only when V8 next collects, up to the size of the upload for each one in flight; start node with --expose-gc",
  );
}
