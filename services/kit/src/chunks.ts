/**
 * Streams between services travel in messages of a size that amortises each message's cost:
 * sockets and files hand out 16–64 KiB pieces, and a message per piece costs more than its bytes.
 */

/** The most bytes one stream message carries (the contracts say "at most 1 MiB"). */
export const STREAM_CHUNK_BYTES = 1024 * 1024;

/** Re-cuts a byte stream into pieces of exactly `size` bytes, the last one shorter. */
export async function* inChunksOf(
  source: AsyncIterable<Uint8Array>,
  size = STREAM_CHUNK_BYTES,
): AsyncGenerator<Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    let rest = piece;
    while (pendingBytes + rest.length >= size) {
      const take = size - pendingBytes;
      pending.push(rest.subarray(0, take));
      yield pending.length === 1 ? (pending[0] as Uint8Array) : Buffer.concat(pending, size);
      rest = rest.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0)
    yield pending.length === 1 ? (pending[0] as Uint8Array) : Buffer.concat(pending, pendingBytes);
}
