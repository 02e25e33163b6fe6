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
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Bodies read between two collections: each collection took 1–3 ms (docs/benchmarks.md). */
export const COLLECT_EVERY_BYTES = 4 * 2 ** 20;

type Collect = (options: { type: "minor" }) => void;

let collect: Collect | undefined;
let sinceCollection = 0;

/**
 * V8's `gc` function, without starting every process with `--expose-gc`: the flag set at run time
 * takes effect for contexts made after it, such as a new vm context.
 */
function collector(): Collect {
  if (!collect) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as Collect;
  }
  return collect;
}

/** Counts `bytes` of an upload body read; collects the young generation each time enough are. */
export function uploadBytesRead(bytes: number): void {
  sinceCollection += bytes;
  if (sinceCollection < COLLECT_EVERY_BYTES) return;
  sinceCollection = 0;
  collector()({ type: "minor" });
}
